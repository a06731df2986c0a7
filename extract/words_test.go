package extract

import (
	"net/url"
	"testing"
)

func TestReadingWordsList(t *testing.T) {
	// design §2.1, word for word: each must be in the one list, with
	// where it is looked for.
	want := map[string]string{
		"terms": WhereBoth, "legal": WhereBoth, "conditions": WhereBoth, "privacy": WhereBoth,
		"developer": WhereBoth, "licence": WhereBoth, "license": WhereBoth, "vilkår": WhereBoth,
		"vilkar": WhereAddress, "vilkaar": WhereAddress, "betingelser": WhereBoth, "lisens": WhereBoth,
		"personvern": WhereBoth, "API": WhereText, "data": WhereText,
	}
	got := map[string]string{}
	for _, w := range ReadingWords() {
		got[w.Word] = w.Where
	}
	for word, where := range want {
		if got[word] != where {
			t.Errorf("reading word %q: where = %q, want %q", word, got[word], where)
		}
	}
	if len(got) != len(want) {
		t.Errorf("ReadingWords has %d words, want %d: %v", len(got), len(want), got)
	}
	// The caller gets a copy: changing it changes nothing here.
	ws := ReadingWords()
	ws[0].Word = "changed"
	if ReadingWords()[0].Word == "changed" {
		t.Error("ReadingWords returns the package's own slice")
	}
}

func TestMatchReadingWord(t *testing.T) {
	cases := []struct {
		text, url string
		word      string // "" = no match
	}{
		{"Terms of Use", "https://s.test/x", "terms"},
		{"Conditions of Use", "https://s.test/gp/help/display.html?nodeId=508088", "conditions"},
		{"", "https://s.test/help/termsconditions", "terms"},
		{"PRIVACY", "https://s.test/p", "privacy"},
		{"For developers", "https://s.test/x", "developer"},
		{"cc by-sa 3.0", "https://creativecommons.org/licenses/by-sa/3.0/", "license"},
		{"Licence", "https://s.test/x", "licence"},
		{"Brukervilkår", "https://s.test/x", "vilkår"},
		{"BRUKERVILKÅR", "https://s.test/x", "vilkår"},
		{"Bruker\u00advil\u00adkår", "https://s.test/x", "vilkår"}, // soft hyphens are invisible
		{"Per\u200bsonvern", "https://s.test/x", "personvern"},     // so is a zero-width space
		{"Abonnementsvilkår", "https://s.test/x", "vilkår"},
		{"x", "https://s.test/brukervilkar", "vilkar"},
		{"x", "https://s.test/vilkaar-for-bruk", "vilkaar"},
		{"x", "https://s.test/vilk%C3%A5r", "vilkår"},
		{"x", "https://s.test/vilk%c3%a5r", "vilkår"},
		{"x", "https://s.test/Vilk%C3%85r", "vilkår"},
		{"vilkar", "https://s.test/x", ""}, // vilkar is looked for in addresses only
		{"Salgsbetingelser", "https://s.test/x", "betingelser"},
		{"Lisens", "https://s.test/x", "lisens"},
		{"Personvernerklæring", "https://s.test/x", "personvern"},
		{"Om informasjonskapsler", "https://personvern.aller.no/cookiepolicy.html", "personvern"},
		{"noted", "https://creativecommons.org/policies#license", "license"},
		{"Åpne data", "https://s.test/x", "data"},
		{"Data Providers", "https://s.test/x", "data"},
		{"data", "http://data.stackexchange.com", "data"},
		{"API-dokumentasjon", "https://s.test/x", "API"},
		{"Our APIs", "https://s.test/x", "API"},
		{"api", "https://s.test/x", "API"},
		{"Database", "https://s.test/x", ""},
		{"Update", "https://s.test/x", ""},
		{"Rapid delivery", "https://s.test/x", ""},
		{"Datasett", "https://s.test/x", ""},
		{"Capital", "https://s.test/api-capital", ""}, // "api" in an address is not a reading word
		{"Open data", "https://s.test/x", "data"},
		{"Home", "https://s.test/", ""},
		{"About", "https://s.test/about", ""},
		// A site whose own name holds a word: its addresses do not all match.
		{"About", "https://legalaid.test/about", ""},
		{"About", "https://www.privacyinternational.org/about", ""},
		{"Docs", "https://developer.mozilla.org/docs", "developer"},
	}
	for _, c := range cases {
		word, ok := MatchReadingWord(Link{URL: c.url, Text: c.text})
		if ok != (c.word != "") || word != c.word {
			t.Errorf("MatchReadingWord(%q, %q) = %q, %v; want %q", c.text, c.url, word, ok, c.word)
		}
	}
}

func TestMatchReadingWordFragment(t *testing.T) {
	l := Link{URL: "https://creativecommons.org/policies", Fragment: "license", Text: "noted"}
	if w, ok := MatchReadingWord(l); !ok || w != "license" {
		t.Errorf("fragment not matched: %q %v", w, ok)
	}
}

func TestNotADocument(t *testing.T) {
	cases := []struct {
		url    string
		reason string // "" = read it
	}{
		{"https://s.test/vilkar", ""},
		{"https://s.test/legal/privacy-policy", ""},
		{"https://s.test/terms.html", ""},
		{"https://s.test/docs/vilkar.pdf", ""},
		{"https://s.test/terms.txt", ""},
		{"https://s.test/terms.docx", ""},
		{"https://www.dagbladet.no/nyheter/abonnementvilkar-for-dagbladet-pluss/60248691", ""},
		{"https://www.tine.no/kontakt/artikler/ansvarserkl%C3%A6ring-personvern", ""},
		{"https://s.test/blogger-terms", ""},
		{"https://s.test/api/", ""},
		{"https://s.test/?p=123", ""},
		{"mailto:privacy@s.test", "e-mail or phone link"},
		{"tel:+4712345678", "e-mail or phone link"},
		{"javascript:void(0)", "script link"},
		{"ftp://s.test/terms", "not a web address"},
		{"https://s.test/cdn-cgi/l/email-protection#abc", "e-mail or phone link"},
		{"https://s.test/img/privacy.PNG", "image"},
		{"https://s.test/logo.svg", "image"},
		{"https://s.test/js/legal.js", "script or style"},
		{"https://s.test/terms.css", "script or style"},
		{"https://s.test/terms-video.mp4", "media"},
		{"https://s.test/data/open-data.csv", "data download"},
		{"https://s.test/licence.zip", "data download"},
		{"https://s.test/api/data.json", "data download"},
		{"https://s.test/eksport.xlsx", "data download"},
		{"https://s.test/download/terms", "data download"},
		{"https://s.test/sitemap.xml", "feed or sitemap"},
		{"https://s.test/sitemap", "listing"},
		{"https://s.test/search?q=privacy", "search"},
		{"https://s.test/sok/personvern", "search"},
		{"https://s.test/s%C3%B8k", "search"},
		{"https://s.test/?s=terms", "search"},
		{"https://s.test/login", "login or account"},
		{"https://s.test/login.php?next=/terms", "login or account"},
		{"https://s.test/account/privacy", "login or account"},
		{"https://s.test/cart", "cart or checkout"},
		{"https://s.test/checkout/terms", "cart or checkout"},
		{"https://s.test/skjema/personvern", "form"},
		{"https://s.test/user/legal-eagle", "profile"},
		{"https://s.test/@privacyfan", "profile"},
		{"https://s.test/tag/privacy", "listing"},
		{"https://s.test/category/legal/", "listing"},
		{"https://s.test/legal/page/2", "listing"},
		{"https://s.test/terms?page=3", "listing"},
		{"https://s.test/blog/new-terms", "post"},
		{"https://s.test/2024/05/our-privacy-update", "post"},
		{"https://s.test/feed", "listing"},
		{"https://s.test/app.apk", "software download"},
	}
	for _, c := range cases {
		u, err := url.Parse(c.url)
		if err != nil {
			t.Fatal(err)
		}
		reason, skip := NotADocument(u)
		if skip != (c.reason != "") || reason != c.reason {
			t.Errorf("NotADocument(%s) = %q, %v; want %q", c.url, reason, skip, c.reason)
		}
	}
	if r, skip := NotADocument(nil); !skip || r == "" {
		t.Errorf("NotADocument(nil) = %q, %v", r, skip)
	}
}

// The realweb footer links we expect to read must all pass NotADocument.
func TestExpectedFooterLinksAreDocuments(t *testing.T) {
	for _, raw := range []string{
		"http://www.amazon.com/gp/help/customer/display.html/ref=footer_cou/190-8060928-9449158?ie=UTF8&nodeId=508088",
		"http://stackexchange.com/legal/privacy-policy",
		"http://creativecommons.org/licenses/by-sa/3.0/",
		"https://personvern.aller.no/personvern.html",
		"http://www.news.com.au/help/termsconditions",
		"http://money.msn.com/investing/attributions.aspx",
	} {
		u, _ := url.Parse(raw)
		if r, skip := NotADocument(u); skip {
			t.Errorf("%s skipped as %q", raw, r)
		}
	}
}

func TestContainsWord(t *testing.T) {
	for _, c := range []struct {
		s, w string
		want bool
	}{
		{"åpne data", "data", true},
		{"data-deling", "data", true},
		{"(data)", "data", true},
		{"database", "data", false},
		{"metadata", "data", false},
		{"data2", "data", false},
		{"apis", "api", true},
		{"rapid", "api", false},
		{"", "api", false},
	} {
		if got := containsWord(c.s, c.w); got != c.want {
			t.Errorf("containsWord(%q, %q) = %v", c.s, c.w, got)
		}
	}
}
