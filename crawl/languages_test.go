package crawl

import (
	"slices"
	"testing"
	"testing/fstest"
	"testing/synctest"
)

func langPage(title, head, body string) []byte {
	return []byte("<!DOCTYPE html>\n<html lang=\"nb\"><head><meta charset=\"utf-8\"><title>" + title + "</title>" + head +
		"</head><body><main><h1>" + title + "</h1><p>Tekst nok til å lese denne siden som et dokument.</p></main>" + body + "</body></html>\n")
}

// TestDocumentInSeveralLanguagesReadOnce: the footer links the terms in
// Bokmål and English (/en/…), the privacy page with ?lang=en and without,
// and the licence page, whose hreflang names an English version that a hop
// link also points at. Each document is read once, in the home page's
// language, and the variants not read are listed on the address read,
// never as gaps.
func TestDocumentInSeveralLanguagesReadOnce(t *testing.T) {
	web := fstest.MapFS{
		"lang.test/robots.txt": {Data: []byte("User-agent: *\nAllow: /\n")},
		"lang.test/index.html": {Data: langPage("Hjem", "", `<footer><ul>
<li><a href="/en/vilkar">Terms of use</a></li>
<li><a href="/vilkar">Vilkår</a></li>
<li><a href="/personvern?lang=en">Privacy</a></li>
<li><a href="/personvern">Personvern</a></li>
<li><a href="/lisens">Lisens</a></li>
</ul></footer>`)},
		"lang.test/vilkar.html":     {Data: langPage("Vilkår", "", "")},
		"lang.test/en/vilkar.html":  {Data: langPage("Terms", "", "")},
		"lang.test/personvern.html": {Data: langPage("Personvern", "", "")},
		"lang.test/lisens.html": {Data: langPage("Lisens", `<link rel="alternate" hreflang="en" href="https://lang.test/licence"><link rel="alternate" hreflang="nb" href="https://lang.test/lisens">`,
			`<footer><a href="/licence">Licence (English)</a></footer>`)},
		"lang.test/licence.html": {Data: langPage("Licence", "", "")},
	}
	list := listFrom(t, "[[site]]\nname = \"Lang\"\nurl = \"https://lang.test/\"\nhosts = [\"lang.test\"]\n")
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, web)
		r := crawlMemory(t, srv, list, nil, Config{})
		paths := r.paths("lang.test")
		for _, p := range []string{"/en/vilkar", "/personvern?lang=en", "/licence"} {
			if slices.Contains(paths, p) {
				t.Errorf("%s requested; it is another language of a document read (requests %q)", p, paths)
			}
		}
		for _, p := range []string{"/vilkar", "/personvern", "/lisens"} {
			if !slices.Contains(paths, p) {
				t.Errorf("%s not requested (requests %q)", p, paths)
			}
		}
		m := r.mans["lang.test"]
		want := map[string][]string{
			"https://lang.test/vilkar":     {"https://lang.test/en/vilkar"},
			"https://lang.test/personvern": {"https://lang.test/personvern?lang=en"},
			"https://lang.test/lisens":     {"https://lang.test/licence"},
		}
		for _, a := range m.Addresses {
			if a.Outcome == "gap" {
				t.Errorf("gap %s (%s): a language variant is never a gap", a.URL, a.Reason)
			}
			if w, ok := want[a.URL]; ok && !slices.Equal(a.Alternates, w) {
				t.Errorf("%s: alternates %q, want %q", a.URL, a.Alternates, w)
			}
		}
	})
}

func TestLanguageSwitch(t *testing.T) {
	for _, c := range []struct{ in, key, lang string }{
		{"https://a.test/en/terms", "https://a.test/terms", "en"},
		{"https://a.test/nb/vilkar#x", "https://a.test/vilkar", "nb"},
		{"https://a.test/terms?hl=en-GB&x=1", "https://a.test/terms?x=1", "en"},
		{"https://a.test/no", "https://a.test/", "nb"},
		{"https://a.test/english/terms", "https://a.test/english/terms", ""},
	} {
		if k, l := languageSwitch(c.in); k != c.key || l != c.lang {
			t.Errorf("languageSwitch(%s) = %s, %s; want %s, %s", c.in, k, l, c.key, c.lang)
		}
	}
}
