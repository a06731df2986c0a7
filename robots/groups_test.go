package robots

import (
	"strings"
	"testing"
)

func TestGroupReading(t *testing.T) {
	body := strings.Join([]string{
		"Crawl-delay: 9",                 // 1: before any group: reported, not applied
		"User-agent: GPTBot",             // 2
		"user-agent: ai2bot",             // 3: read as "ai"
		"Disallow: /",                    // 4
		"",                               // 5
		"User-Agent: Googlebot/2.1 (+x)", // 6: read as "Googlebot"
		"User-agent: * # everyone else",  // 7: still the same group: no rule since line 6
		"Crawl-delay: 2.5",               // 8
		"Disallow: /tmp/",                // 9
		"User-agent: gptbot",             // 10: a second group for GPTBot, merged
		"Allow: /public/",                // 11
		"Crawl-delay: soon",              // 12: not a number
	}, "\r\n")
	f := Parse([]byte(body))
	g := f.Groups()
	if len(g) != 3 {
		t.Fatalf("%d groups: %+v", len(g), g)
	}
	if got := strings.Join(g[0].AgentNames(), ","); got != "GPTBot,ai" {
		t.Errorf("group 1 agents %s", got)
	}
	if got := strings.Join(g[1].AgentNames(), ","); got != "Googlebot,*" || !g[1].IsStar() {
		t.Errorf("group 2 agents %s", got)
	}
	if g[1].CrawlDelay == nil || g[1].CrawlDelay.Seconds != 2.5 || g[1].CrawlDelay.Line != 8 {
		t.Errorf("group 2 crawl-delay %+v", g[1].CrawlDelay)
	}
	if g[2].CrawlDelay != nil || len(g[2].Delays) != 1 || g[2].Delays[0].OK {
		t.Errorf("group 3 crawl-delay %+v %+v", g[2].CrawlDelay, g[2].Delays)
	}
	if len(f.Outside()) != 1 || f.Outside()[0].Line != 1 {
		t.Errorf("outside %+v", f.Outside())
	}
	if kind, idx := f.GroupFor("GPTBot"); kind != "own" || len(idx) != 2 || idx[0] != 0 || idx[1] != 2 {
		t.Errorf("GPTBot follows %s %v", kind, idx)
	}
	runMatches(t, "merged", body, []matchCase{
		{"GPTBot", "https://e.test/public/x", true, 11},
		{"GPTBot", "https://e.test/other", false, 4},
		{"AI", "https://e.test/other", false, 4},
		{"AI2Bot", "https://e.test/tmp/x", false, 4}, // read as "AI", as line 3 is: its own group
		{"googlebot", "https://e.test/tmp/x", false, 9},
		{"someone", "https://e.test/tmp/x", false, 9},
		{"someone", "https://e.test/x", true, 0},
	})
	// Crawl-delay: our own groups' if they set one, else "*"'s; the one
	// before any group is never applied.
	if d, ok := f.CrawlDelay("someone"); !ok || d != 2.5 {
		t.Errorf("someone's delay %v %v", d, ok)
	}
	if d, ok := f.CrawlDelay("GPTBot"); !ok || d != 2.5 {
		t.Errorf("GPTBot's delay %v %v (own groups set none that reads)", d, ok)
	}
	if _, ok := Parse([]byte("User-agent: x\nDisallow: /\n")).CrawlDelay("x"); ok {
		t.Error("a delay from nowhere")
	}
	own := Parse([]byte("User-agent: *\nCrawl-delay: 1\nDisallow:\n\nUser-agent: slowbot\nCrawl-delay: 30\nDisallow: /x\nUser-agent: slowbot\nCrawl-delay: 45\n"))
	if d, _ := own.CrawlDelay("slowbot"); d != 45 {
		t.Errorf("slowbot's delay %v, want the longest of its own", d)
	}
	if d, _ := own.CrawlDelay("crawlsignals/0.1 (+https://crawlsignals.com)"); d != 1 {
		t.Errorf("our delay %v", d)
	}
}

func TestLineNumbersAndEndings(t *testing.T) {
	// CR, LF and CRLF all end a line; a byte order mark is skipped; line
	// numbers are the file's.
	for name, sep := range map[string]string{"LF": "\n", "CRLF": "\r\n", "CR": "\r"} {
		body := "\xEF\xBB\xBFUser-agent: *" + sep + sep + "# c" + sep + "Disallow: /x" + sep
		f := Parse([]byte(body))
		if ok, line := f.Allowed("a", "/x"); ok || line != 4 {
			t.Errorf("%s: allowed=%v line=%d, want line 4", name, ok, line)
		}
		if f.Lines() != 5 {
			t.Errorf("%s: %d lines", name, f.Lines())
		}
	}
	// A rewritten rule keeps its line: the matcher's line numbers and ours
	// agree even when rules before it grew when encoded.
	body := "User-agent: *\nDisallow: /ø/ø/ø\nDisallow: /ü%2f\nAllow: /ok\nDisallow: /no\n"
	runMatches(t, "rewritten", body, []matchCase{
		{"a", "/%C3%BC%2F", false, 3},
		{"a", "/ok", true, 4},
		{"a", "/no", false, 5},
	})
}

func TestMissingColonAndTypos(t *testing.T) {
	// What Google's parser forgives, we read too, so that our groups are
	// the matcher's groups.
	body := "User-agent FooBot\nDisalow /private\nuseragent: BarBot\nDisallow:\n"
	f := Parse([]byte(body))
	if len(f.Groups()) != 2 || len(f.Groups()[0].Rules) != 1 {
		t.Fatalf("groups %+v", f.Groups())
	}
	runMatches(t, "forgiven", body, []matchCase{
		{"FooBot", "/private", false, 2},
		{"BarBot", "/private", true, 0},
	})
}

func TestLooksLikeHTML(t *testing.T) {
	html := []string{
		"<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>User-agent: *</body></html>",
		"\xEF\xBB\xBF  <html lang=\"nb\">\n<p>Disallow: /</p>",
		"\n\n<HEAD><TITLE>x</TITLE>",
	}
	for _, h := range html {
		f := Parse([]byte(h))
		if !f.LooksLikeHTML() {
			t.Errorf("%q not seen as HTML", h)
		}
		if ok, _ := f.Allowed("a", "/"); !ok {
			t.Errorf("%q: an HTML page gave rules", h)
		}
	}
	for _, txt := range []string{"User-agent: *\n<br />\nDisallow: /x\n", "# <html> in a comment\nUser-agent: *\n", ""} {
		if Parse([]byte(txt)).LooksLikeHTML() {
			t.Errorf("%q seen as HTML", txt)
		}
	}
	if !IsTextPlain("text/plain; charset=utf-8") || IsTextPlain("text/html") || IsTextPlain("") {
		t.Error("IsTextPlain")
	}
}

func TestProductToken(t *testing.T) {
	cases := map[string]string{
		"AI2Bot":       "AI",
		"Ai2Bot-Dolma": "Ai",
		"img2dataset":  "img",
		"bigsur.ai":    "bigsur",
		"* bot":        "*",
		"Foo_Bar-Baz":  "Foo_Bar-Baz",
		"crawlsignals/0.1 (+https://crawlsignals.com)": "crawlsignals",
		"GPTBot":                      "GPTBot",
		"  Googlebot/2.1":             "Googlebot",
		"Mozilla/5.0 (compatible; X)": "Mozilla",
		"Foo Bar":                     "Foo",
		"*":                           "*",
		"":                            "",
		"(comment)":                   "",
	}
	for in, want := range cases {
		if got := ProductToken(in); got != want {
			t.Errorf("ProductToken(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPathOf(t *testing.T) {
	cases := map[string]string{
		"https://e.test":           "/",
		"https://e.test/":          "/",
		"https://e.test/a/b?c=d#e": "/a/b?c=d",
		"https://e.test?q":         "/?q",
		"https://e.test;p":         "/;p",
		"//e.test/x":               "/x",
		"/x/y":                     "/x/y",
		"x/y":                      "/y",
		"https://e.test#f/g":       "/",
		"":                         "/",
		"/a?u=https://b.test/c":    "/a?u=https://b.test/c",
		"https://e.test//double":   "//double",
	}
	for in, want := range cases {
		if got := pathOf(in); got != want {
			t.Errorf("pathOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormalise(t *testing.T) {
	cases := []struct {
		in      string
		pattern bool
		want    string
	}{
		{"/a%2fb", true, "/a%2Fb"},
		{"/a%2Fb", false, "/a%2Fb"},
		{"/%7e%41", false, "/~A"},
		{"/å", true, "/%C3%A5"},
		{"/a b", false, "/a%20b"},
		{"/50%", false, "/50%25"},
		{"/%zz", true, "/%25zz"},
		{"/*.gif$", true, "/*.gif$"},
		{"/*.gif$", false, "/%2A.gif%24"},
		{"/a$b$", true, "/a%24b$"},
		{"/a|b{c}", false, "/a%7Cb%7Bc%7D"},
		{"/a\x00", false, "/a%00"},
	}
	for _, c := range cases {
		got := normalise(c.in, c.pattern)
		if got != c.want {
			t.Errorf("normalise(%q, %v) = %q, want %q", c.in, c.pattern, got, c.want)
		}
		if again := normalise(got, c.pattern); again != got {
			t.Errorf("normalise is not stable on %q: %q", got, again)
		}
	}
}

func TestReport(t *testing.T) {
	body := "User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nUser-agent: AI2Bot\nDisallow: /\n"
	agents := []Agent{
		{Token: "crawlsignals", Operator: "crawlsignals", Purpose: "this directory", Category: "ours"},
		{Token: "GPTBot", Operator: "OpenAI", Category: "ai-training"},
		{Token: "AI2Bot", Operator: "Ai2", Category: "ai-training", Note: "read as AI"},
		{Token: "Googlebot", Operator: "Google", Category: "search"},
	}
	got := Parse([]byte(body)).Report(agents)
	want := []struct {
		token, group string
		root         bool
		line         int
	}{
		{"crawlsignals", "star", true, 0},
		{"GPTBot", "own", false, 6},
		{"AI", "own", false, 6},
		{"Googlebot", "star", true, 0},
	}
	for i, w := range want {
		v := got[i]
		if v.Token != w.token || v.Group != w.group || v.RootAllowed != w.root || v.Line != w.line || v.Agent != agents[i].Token || v.Operator != agents[i].Operator {
			t.Errorf("%d: %+v, want %+v", i, v, w)
		}
	}
	none := Parse(nil).Report(agents[:1])
	if none[0].Group != "none" || !none[0].RootAllowed {
		t.Errorf("empty file: %+v", none[0])
	}
}
