package extract

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract/internal/readtest"
)

func TestNormalize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{"plain", "plain"},
		{"  lead and trail  ", "lead and trail"},
		{"a\n\n\tb\r\nc", "a b c"},
		{"no\u00a0break", "no break"},
		{"em\u2003space thin\u2009space narrow\u202fnbsp ideographic\u3000space", "em space thin space narrow nbsp ideographic space"},
		{"line\u2028sep para\u2029sep nel\u0085x", "line sep para sep nel x"},
		{"vilka\u030ar", "vilkår"},                   // NFC
		{"zero\u200bwidth", "zero\u200bwidth"},       // not white space: unchanged
		{"soft\u00adhyphen", "soft\u00adhyphen"},     // unchanged
		{"“curly” 'straight'", "“curly” 'straight'"}, // unchanged
		{"CASE Stays", "CASE Stays"},
		{"e-mail – dash", "e-mail – dash"},
	}
	for _, c := range cases {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestVerify(t *testing.T) {
	text := "Short version: We use these basic terms throughout the agreement.\n\n" +
		"Du kan bruke data fritt\u00a0under NLOD 2.0. Vi lagrer e-post i 21 dager. " +
		"The “Website” refers to our site (terms) and xterms terms. Kjøre på q\u0301 x."
	cases := []struct {
		name, quote string
		ok          bool
		at          int // checked when ok
		closest     string
	}{
		{"exact", "We use these basic terms throughout the agreement.", true, 15, ""},
		{"white space differs", "Short   version:\nWe use", true, 0, ""},
		{"no-break space in text", "bruke data fritt under NLOD 2.0.", true, -1, ""},
		{"NFD quote", "Kjøre p\u0061\u030a", true, -1, ""},
		{"punctuation is a boundary", "terms", true, -1, ""},
		{"straight quotes differ from curly", `The "Website" refers to our site`, false, 0, "The “Website” refers to our site"},
		{"hyphenation differs", "Vi lagrer epost i 21 dager.", false, 0, "Vi lagrer e-post i 21 dager."},
		{"case differs", "we use these basic terms", false, 0, ""},
		{"starts mid-word", "ort version: We use", false, 0, "Short version: We use"},
		{"ends mid-word", "We use these basic ter", false, 0, "We use these basic terms"},
		{"number is a word", "i 2", false, 0, "i 21"},
		{"letter before", "øre på", false, 0, "Kjøre på"},
		{"combining mark after", "på q", false, 0, "på q\u0301"},
		{"empty quote", "", false, 0, ""},
		{"space quote", " \u00a0 ", false, 0, ""},
		{"changed word", "Du kan bruke tall fritt under NLOD 2.0.", false, 0, "Du kan bruke data fritt under NLOD 2.0."},
		{"nothing alike", "zzz qqq", false, 0, ""},
	}
	norm := Normalize(text)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ok, at, closest := Verify(text, c.quote)
			if ok != c.ok {
				t.Fatalf("Verify(%q) ok = %v, want %v (closest %q)", c.quote, ok, c.ok, closest)
			}
			if ok {
				if q := Normalize(c.quote); norm[at:at+len(q)] != q || closest != q {
					t.Errorf("at = %d, closest %q: does not point at the quote", at, closest)
				}
				if c.at >= 0 && at != c.at {
					t.Errorf("at = %d, want %d", at, c.at)
				}
				return
			}
			if at != -1 {
				t.Errorf("at = %d for a failed quote, want -1", at)
			}
			if c.closest != "" && closest != c.closest {
				t.Errorf("closest = %q, want %q", closest, c.closest)
			}
			if c.name == "nothing alike" && closest != "" {
				t.Errorf("closest = %q, want none", closest)
			}
		})
	}
}

func TestVerifySecondOccurrence(t *testing.T) {
	ok, at, _ := Verify("xterms terms", "terms")
	if !ok || at != 7 {
		t.Errorf("Verify = %v, %d; want true, 7", ok, at)
	}
}

func TestVerifierReuse(t *testing.T) {
	v := NewVerifier("  Personvern   og vilkår\n")
	if v.Text() != "Personvern og vilkår" {
		t.Errorf("Text() = %q", v.Text())
	}
	for range 3 {
		if ok, _, _ := v.Verify("og vilkår"); !ok {
			t.Error("quote did not verify")
		}
		if ok, _, c := v.Verify("og vilkar"); ok || c != "Personvern og vilkår" && c != "og vilkår" {
			t.Errorf("near-miss: ok %v closest %q", ok, c)
		}
	}
	if ok, _, _ := NewVerifier("").Verify("x"); ok {
		t.Error("empty text verified a quote")
	}
}

func TestClosestIsDeterministic(t *testing.T) {
	text := strings.Repeat("alpha beta gamma. ", 50)
	_, _, first := Verify(text, "alpha beta delta")
	for range 20 {
		if _, _, c := Verify(text, "alpha beta delta"); c != first {
			t.Fatalf("closest changed: %q then %q", first, c)
		}
	}
	if first != "alpha beta gamma." {
		t.Errorf("closest = %q", first)
	}
}

// TestNormalizedVerifierAgrees: on the text of every real terms page (a
// Page's Text, normalised), a verifier that takes the text as it is gives
// every answer NewVerifier gives: each block verifies at the same offset,
// and a block with a word changed fails with the same closest passage.
func TestNormalizedVerifierAgrees(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(readtest.Folder(t, realwebDir, "terms"), "*.html"))
	checked := 0
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := HTML(body, "text/html; charset=utf-8", nil)
		if err != nil {
			t.Fatal(err)
		}
		full, taken := NewVerifier(p.Text), NewVerifierNormalized(p.Text)
		for i, b := range p.Blocks {
			if i%7 != 0 {
				continue // a seventh of the blocks keeps the test quick
			}
			for _, q := range []string{b.Text, "zq " + b.Text} {
				ok1, at1, c1 := full.Verify(q)
				ok2, at2, c2 := taken.Verify(q)
				if ok1 != ok2 || at1 != at2 || c1 != c2 {
					t.Errorf("%s: %q: NewVerifier gives %v %d %q, NewVerifierNormalized %v %d %q", filepath.Base(f), q, ok1, at1, c1, ok2, at2, c2)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no quote checked")
	}
}
