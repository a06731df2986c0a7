package signals

import (
	"net/http"
	"strings"
	"testing"
)

func TestParseRSL(t *testing.T) {
	text := `<?xml version="1.0" encoding="ISO-8859-1"?>
<rsl xmlns="https://rslstandard.org/rsl">
  <content url="/" server="https://rsl.example/api">
    <license>
      <permits type="usage">search ai-input</permits>
      <prohibits type="usage">ai-train</prohibits>
      <payment type="attribution">
        <standard>https://creativecommons.org/licenses/by/4.0/</standard>
        <amount currency="USD">0</amount>
      </payment>
    </license>
  </content>
  <content url="https://e.test/premium/*">
    <license><prohibits type="usage">all</prohibits></license>
  </content>
</rsl>`
	cs, notes, problem := parseRSL(text)
	if problem != "" || len(notes) != 0 {
		t.Fatalf("problem %q notes %q", problem, notes)
	}
	if len(cs) != 2 || cs[0].URL != "/" || cs[0].Server != "https://rsl.example/api" || cs[0].Line != 3 || cs[1].URL != "https://e.test/premium/*" {
		t.Fatalf("contents %+v", cs)
	}
	l := cs[0].Licenses[0]
	if len(l.Permits) != 1 || strings.Join(l.Permits[0].Values, " ") != "search ai-input" || l.Permits[0].Line != 5 {
		t.Errorf("permits %+v", l.Permits)
	}
	if len(l.Prohibits) != 1 || l.Prohibits[0].Values[0] != "ai-train" || l.Prohibits[0].Text != `<prohibits type="usage">ai-train</prohibits>` {
		t.Errorf("prohibits %+v", l.Prohibits)
	}
	p := l.Payment
	if p == nil || p.Type != "attribution" || len(p.Standard) != 1 || p.Standard[0].Licence != "CC BY 4.0" || p.Standard[0].Line != 8 || len(p.Amounts) != 1 || p.Amounts[0] != "0 USD" {
		t.Errorf("payment %+v", p)
	}
	if got := cs[1].Licenses[0].Prohibits; len(got) != 1 || got[0].Values[0] != "all" {
		t.Errorf("second content %+v", got)
	}
}

// TestParseRSLHostile: a file from the site may be anything; each hostile
// or broken form is refused with a reason, and nothing is expanded.
func TestParseRSLHostile(t *testing.T) {
	deep := "<rsl xmlns=\"" + RSLNamespace + "\">" + strings.Repeat("<a>", 100) + strings.Repeat("</a>", 100) + "</rsl>"
	cases := []struct{ name, text, want string }{
		{"entities", `<?xml version="1.0"?><!DOCTYPE rsl [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><rsl><content url="/"><license><prohibits type="usage">&b;</prohibits></license></content></rsl>`, "DOCTYPE"},
		{"undefined entity", `<rsl><content url="/"><license><prohibits type="usage">&xxe;</prohibits></license></content></rsl>`, "not well-formed"},
		{"too large", "<rsl>" + strings.Repeat(" ", maxRSLBytes) + "</rsl>", "more than"},
		{"deep", deep, "nested more than"},
		{"not xml", "User-agent: *\nDisallow: /\n", "no <rsl> element"},
		{"other root", `<rss version="2.0"><channel/></rss>`, "not <rsl>"},
		{"unclosed", `<rsl><content url="/">`, "not well-formed"},
		{"empty rsl", `<rsl xmlns="https://rslstandard.org/rsl"></rsl>`, "no <content> element"},
	}
	for _, c := range cases {
		cs, _, problem := parseRSL(c.text)
		if cs != nil || !strings.Contains(problem, c.want) {
			t.Errorf("%s: contents %v, problem %q; want a problem with %q", c.name, cs, problem, c.want)
		}
	}
	// A file outside RSL's namespace, in the drafts' spelling, is read
	// with notes saying so.
	cs, notes, problem := parseRSL(`<rsl><content url="/"><license><prohibits type="usage">train-ai</prohibits></license></content></rsl>`)
	if problem != "" || len(cs) != 1 || len(notes) != 2 {
		t.Errorf("draft file: %+v %q %q", cs, notes, problem)
	}
}

func TestRSLPatternCovers(t *testing.T) {
	const robots = "https://e.test/robots.txt"
	cases := []struct {
		pattern, target string
		want            bool
	}{
		{"/", "https://e.test/", true},
		{"/", "https://e.test", true},
		{"/*", "https://e.test/", true},
		{"/news/", "https://e.test/", false},
		{"/$", "https://e.test/", true},
		{"/$", "https://e.test/a", false},
		{"https://e.test/*", "https://e.test/", true},
		{"https://other.test/*", "https://e.test/", false},
		{"/", "https://www.e.test/", false}, // a path is on robots.txt's host
		{"/*.html$", "https://e.test/a/b.html", true},
		{"/*.html$", "https://e.test/a/b.htm", false},
	}
	for _, c := range cases {
		if got := rslPatternCovers(c.pattern, robots, c.target); got != c.want {
			t.Errorf("%q covers %q: %v, want %v", c.pattern, c.target, got, c.want)
		}
	}
}

func TestDeclaredLicencesFromLinkHeader(t *testing.T) {
	h := http.Header{}
	h.Add("Link", `<https://e.test/a>; rel="next", <https://creativecommons.org/licenses/by/4.0/>; rel="license"; title="a, b"`)
	h.Add("Link", `</rsl.xml>; rel="license"; type="application/rsl+xml"`)
	h.Add("Link", `<https://opendatacommons.org/licenses/odbl/1-0/>; rel="alternate"`)
	rr := readResult{doc: Document{URL: "https://e.test/", FinalURL: "https://e.test/", Record: "<urn:uuid:1>"}, header: h}
	got := declaredLicences(rr)
	if len(got) != 1 || got[0].Name != "CC BY 4.0" || got[0].Via != "link-header" ||
		got[0].Evidence != `Link: <https://creativecommons.org/licenses/by/4.0/>; rel="license"; title="a, b"` || got[0].Record != "<urn:uuid:1>" {
		t.Errorf("got %+v", got)
	}
}

// TestLicenceQuotesOfDeclarations: a licence declared for programs has no
// quote; where the page sets licences side by side, its declaration as
// written stands in its place, never an empty quote.
func TestLicenceQuotesOfDeclarations(t *testing.T) {
	ls := []Licence{
		{Name: "CC BY 4.0", Via: "text", Quote: "Data er lisensiert under CC BY 4.0."},
		{Name: "CC BY 4.0", Via: "link-element", Evidence: `<link rel="license" href="https://creativecommons.org/licenses/by/4.0/">`},
	}
	got := licenceQuotes(ls)
	if len(got) != 2 || got[0] != ls[0].Quote || got[1] != ls[1].Evidence {
		t.Errorf("got %q", got)
	}
}

// FuzzParseRSL reads any text as an RSL file: it never panics, a file it
// cannot read has a reason and no contents, and every value it reports
// (a usage, a pattern, a line) is in the text.
func FuzzParseRSL(f *testing.F) {
	for _, s := range []string{
		`<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license><prohibits type="usage">ai-train</prohibits></license></content></rsl>`,
		"<rsl><content url=\"/*\">\n<license><permits>all</permits><payment type=\"free\"><standard>https://creativecommons.org/publicdomain/zero/1.0/</standard><amount currency=\"EUR\">0</amount></payment></license></content></rsl>",
		`<!DOCTYPE x [<!ENTITY a "b">]><rsl/>`,
		"<rsl><content url='/'><license><prohibits>&lt;all&gt;</prohibits>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		cs, _, problem := parseRSL(text)
		if problem != "" && cs != nil {
			t.Fatalf("problem %q with contents %+v", problem, cs)
		}
		if problem == "" && len(cs) == 0 {
			t.Fatal("no problem and no contents")
		}
		lines := strings.Count(text, "\n") + 1
		lower := strings.ToLower(text)
		for _, c := range cs {
			if c.Line < 1 || c.Line > lines || (!strings.Contains(text, c.URL) && !strings.Contains(text, "&")) {
				t.Fatalf("content %+v not in the text", c)
			}
			for _, l := range c.Licenses {
				for _, p := range append(append([]RSLTerm{}, l.Permits...), l.Prohibits...) {
					for _, v := range p.Values {
						if !strings.Contains(lower, v) && !strings.Contains(text, "&") {
							t.Fatalf("usage %q not in the text", v)
						}
					}
				}
			}
		}
	})
}
