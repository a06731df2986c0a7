package extract

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzHTML(f *testing.F) {
	seeds := []string{
		"",
		"<p><b>Vil</b>kår</p>",
		`<html><head><base href="../x/"><meta charset="iso-8859-1"><link rel=alternate hreflang=en href=/en></head><body><footer><a href="/vilkar">Vilkår</a></footer></body></html>`,
		`<article><div role="contentinfo"><a href="/author/x">x</a></div></article><div id="footer"></div><div><a href="/privacy">Privacy</a></div>`,
		`<div id="root"></div><noscript>Enable JavaScript</noscript>`,
		`<a href="java\nscript:alert(1)">x</a><a href="http://[::1]:namedport">y</a><a href="%zz">z</a>`,
		"<p hidden><a href=/h style='display:none'>h</a></p><dialog><a href=/d>d</a></dialog>",
		"\xEF\xBB\xBF<p>bom</p>", "\xFF\xFE<\x00p\x00>\x00",
		"<svg><a href=/s>s</a></svg><math><mi>x</mi></math><template><a href=/t>t</a></template>",
	}
	for _, s := range seeds {
		f.Add([]byte(s), "text/html")
	}
	f.Add([]byte("<p>\xe5</p>"), "text/html; charset=latin1")
	base, _ := url.Parse("https://kommune.test/a/b")
	f.Fuzz(func(t *testing.T, body []byte, ct string) {
		p, err := HTML(body, ct, base)
		if err != nil {
			return
		}
		if !utf8.ValidString(p.Text) || Normalize(p.Text) != p.Text {
			t.Fatalf("Text not normalised: %q", p.Text)
		}
		for _, l := range append(append([]Link(nil), p.Links...), p.Footer...) {
			u, err := url.Parse(l.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Fragment != "" {
				t.Fatalf("bad link %q", l.URL)
			}
			MatchReadingWord(l)
			NotADocument(u)
		}
		if p.FooterFound != (p.FooterHow != "") || (!p.FooterFound && len(p.Footer) > 0) {
			t.Fatalf("footer state inconsistent: found=%v how=%q links=%d", p.FooterFound, p.FooterHow, len(p.Footer))
		}
		if p.FooterFound && len(p.Footer) == 0 {
			t.Fatal("footer found without links")
		}
	})
}

func FuzzVerify(f *testing.F) {
	f.Add("Short version: We use these terms.", "these terms")
	f.Add("a\u00a0b", "a b")
	f.Add("kjøre", "øre")
	f.Add("", "")
	f.Add("q\u0301", "q")
	f.Add("\xff\xfe bad utf8", "bad")
	f.Fuzz(func(t *testing.T, text, quote string) {
		ok, at, closest := Verify(text, quote)
		n := Normalize(text)
		q := Normalize(quote)
		if ok {
			if at < 0 || at+len(q) > len(n) || n[at:at+len(q)] != q || closest != q {
				t.Fatalf("ok but at=%d closest=%q", at, closest)
			}
		} else if at != -1 {
			t.Fatalf("not ok but at=%d", at)
		}
		if closest != "" && !strings.Contains(n, closest) {
			t.Fatalf("closest %q is not from the text", closest)
		}
		// A text always contains itself on word boundaries.
		if n != "" {
			if ok, _, _ := Verify(text, text); !ok {
				t.Fatalf("text does not verify against itself: %q", text)
			}
		}
	})
}
