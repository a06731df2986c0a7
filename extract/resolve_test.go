package extract

import (
	"math/rand"
	"net/url"
	"os"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestQuickResolveAgreesWithParser holds quickResolve to resolveNew, the
// URL parser's answer, for every href of the real pages and random hrefs
// over the characters and pieces that matter to the parser, against
// several base addresses: whenever quickResolve answers, it answers the
// same, with no fragment.
func TestQuickResolveAgreesWithParser(t *testing.T) {
	var hrefs []string
	for _, f := range realwebHTMLFiles(t) {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := parseAsWritten(decodeBody(body, "text/html", true).data)
		if err != nil {
			t.Fatal(err)
		}
		for n := range doc.Descendants() {
			if n.Type == html.ElementNode {
				for _, a := range n.Attr {
					if a.Key == "href" || a.Key == "src" {
						hrefs = append(hrefs, a.Val)
					}
				}
			}
		}
	}
	pieces := []string{"http://", "https://", "HTTP://", "https:", "//", "/", "/", "/", "a", "Z", "0", "x.test", "X.Test", ".", "..",
		"/.", "/..", "?", "??", "#", "#x", "%", "%2F", "%zz", "%C3%A5", "=", "&", ";", ",", "+", "$", ":", ":80", ":x", "@",
		"u@", "!", "'", "(", ")", "*", "~", "-", "_", " ", "\t", "\n", "å", "\x00", "\\", "[", "]", "[::1]", "|", "^", "`",
		"{", "\"", "<", "mailto:", "javascript:", "a/b", "index.html", "https://x.test", "https://x.test/", "http://X.test:8080",
		"https://x.test:", "/a/b", "?a=b", "&c=%2F"}
	rng := rand.New(rand.NewSource(5))
	for range 300000 {
		var b strings.Builder
		for range 1 + rng.Intn(8) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		hrefs = append(hrefs, b.String())
	}
	bases := []string{"", "https://kommune.test/a/b", "http://x.test", "https://X.Test:8080/a/?q#f", "https://u@x.test/",
		"HTTPS://x.test/", "https://[::1]:443/", "https://x.test:/", "ftp://x.test/", "https://xn--bcher-kva.test/%C3%A5"}
	quick := 0
	for _, bs := range bases {
		w := &walker{}
		if bs != "" {
			base, err := url.Parse(bs)
			if err != nil {
				t.Fatal(err)
			}
			w.base = base
		}
		origin := plainOrigin(w.base)
		for _, h := range hrefs {
			got, ok := quickResolve(h, origin)
			if !ok {
				continue
			}
			quick++
			if want, frag := w.resolveNew(h); got != want || frag != "" {
				t.Errorf("base %q, href %q: quickResolve %q, the parser %q (fragment %q)", bs, h, got, want, frag)
			}
		}
	}
	if quick < len(hrefs)/10 {
		t.Errorf("quickResolve answered only %d of %d: the test tries too few plain hrefs", quick, len(hrefs)*len(bases))
	}
	t.Logf("%d hrefs x %d bases, quickResolve answered %d", len(hrefs), len(bases), quick)
}
