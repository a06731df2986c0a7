package render

import (
	"bytes"
	"context"
	"encoding/xml"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/signals"
	"golang.org/x/net/html"
)

// Strings a hostile site could put in its pages, robots.txt, headers and
// well-known files. Each must reach our pages as inert text.
const (
	xScript  = `<script>alert("x")</script>`
	xBreak   = `" onmouseover="alert(1)" x="`
	xBreak2  = `'><img src=x onerror=alert(1)>`
	xJS      = `javascript:alert(1)`
	xJSMixed = " JaVaScRiPt:alert(1)"
	xData    = `data:text/html,<script>alert(1)</script>`
	xVB      = `vbscript:msgbox(1)`
	xRLO     = "invoice\u202Efdp.exe"
	xIsolate = "a\u2066b\u2069c\u200f"
	xControl = "bell\x07null\x00esc\x1b"
)

var hostileStrings = []string{xScript, xBreak, xBreak2, xJS, xJSMixed, xData, xVB, xRLO, xIsolate, xControl}

func hostileSite() *signals.Site {
	all := strings.Join(hostileStrings, " ")
	q := signals.Quote{URL: xJS, Text: xRLO + " " + xScript + " " + xBreak, Topic: xScript, Source: "found", Verified: true, ReadAt: "2026-12-01T06:00:00Z"}
	return &signals.Site{
		Host: "hostile.test", Name: xScript + xRLO, URL: xJS, Category: "other", Hosts: []string{"hostile.test"},
		Batch: "20261201T060000Z", ReadAt: ptr("2026-12-01T06:00:00Z"), BlockedSince: xScript, Notes: all,
		Robots: signals.Robots{Host: "hostile.test", URL: xJSMixed, Status: 200, Outcome: "rules", Meaning: xScript, Reason: xBreak,
			Detail: xBreak2, SHA256: xBreak, ContentType: xBreak2, Sitemaps: []string{xJS, xData, xVB, "https://hostile.test/" + xBreak},
			Agents: []signals.Agent{{Agent: xScript, Operator: xBreak, Purpose: xRLO, Note: xBreak2, Category: "ai-training", Group: xScript, Line: 3}},
			Groups: []signals.Group{{Agents: []string{xScript, xRLO}, ExampleDisallowed: []string{"/" + xBreak, xJS}}},
			ContentSignals: []signals.ContentSignal{{Kind: xScript, Agents: []string{xBreak}, Line: 1, Text: xRLO + xScript,
				Values: map[string]string{xScript: xBreak}, Path: xBreak2}},
			CommentQuotes: []string{"</blockquote>" + xScript, xRLO}},
		OtherRobots: []signals.Robots{{Host: xScript, URL: xData, Outcome: "none", Meaning: xBreak}},
		Read: []signals.Document{
			{URL: xJS, FinalURL: xData, Status: 200, ContentType: xBreak2, FoundVia: "footer", LinkText: xBreak, Title: "</title>" + xScript + xRLO,
				SHA256: xBreak, ReadAt: "2026-12-01T06:00:00Z", TextError: xScript},
			{URL: "https://hostile.test/" + xBreak2, FinalURL: xVB, Status: 200, FoundVia: xScript, LinkText: xRLO, ReadAt: xScript},
			{URL: "https://hostile.test/llms.txt", FoundVia: "llms", ReadAt: "2026-12-01T06:00:00Z"},
		},
		NotRead:      []signals.Gap{{URL: xJS, Reason: xScript, Detail: xBreak2, FoundVia: "footer", LinkText: xRLO, Status: 403}, {URL: xRLO, Reason: "refused", Detail: xControl}},
		NotPublished: []string{xJS},
		Quotes:       []signals.Quote{q, {URL: xData, Text: xScript, Source: "curated", Verified: false, ReadAt: xBreak}},
		OpenByDesign: signals.OpenVerdict{Verdict: ptr(true), Why: xScript, Overridden: true, Formula: xBreak, API: &q, Licence: &q},
		Signals: signals.Signals{
			SecurityTxt:    &signals.SecurityTxt{URL: xJS, Contact: []string{xJS, "mailto:" + xBreak, xData}, Expires: xScript, Policy: []string{xVB}, PreferredLanguages: xBreak, Problems: []string{xScript}},
			LLMsTxt:        &signals.LLMsTxt{URL: xJS, Title: xScript, Summary: xRLO, Links: []signals.LLMLink{{Text: xScript, URL: xJS}, {Text: xBreak, URL: xData}}},
			APICatalog:     &signals.JSONFile{URL: xJS, Facts: []string{xScript}, Detail: xBreak},
			GPC:            &signals.JSONFile{URL: xData, Valid: true, Facts: []string{xRLO}},
			TDMReservation: &signals.TDMRep{Source: xScript, URL: xJS, Location: xBreak, Reservation: true, Policy: xData},
			TDM:            []signals.TDMRep{{Source: xScript, URL: xJS, Policy: xVB}, {Source: "meta", URL: xData}},
			Headers:        []signals.HeaderSignal{{URL: xJS, Source: xScript, Name: xBreak, Value: xScript}},
			Problems:       []string{xScript},
		},
		Licences:       []signals.Licence{{Name: xScript, URL: xJS, Quote: xRLO, Via: "link", LinksTo: xData}},
		Contradictions: []signals.Contradiction{{Kind: xScript, What: xBreak, Quotes: []string{xScript}}},
		Changes:        []signals.Change{{Batch: xScript, Previous: xBreak, ReadAt: xScript, Items: []string{xScript, xRLO}, Kinds: []string{xBreak}}},
	}
}

// TestHostileStringsAreInert builds a site whose every string is hostile
// and proves the output does nothing: no script elements, no event handler
// attributes, no javascript:, data: or vbscript: address in any link or
// resource, no bidi override or control character left to act, and the
// hostile text still there for a reader to see.
func TestHostileStringsAreInert(t *testing.T) {
	s := hostileSite()
	out := build(t, Input{Sites: []*signals.Site{s}, Content: testContent})
	pages := 0
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch filepath.Ext(p) {
		case ".html":
			pages++
			checkInertHTML(t, rel, data)
		case ".xml":
			checkInertXML(t, rel, data)
		case ".json":
			return nil // the export keeps what the site said, exactly; JSON escaping is the reader's parser's job
		}
		for _, r := range []string{"\u202E", "\u2066", "\u2069", "\u200F", "\x07", "\x00", "\x1b"} {
			if bytes.Contains(data, []byte(r)) {
				t.Errorf("%s: contains %q, which should be neutralised", rel, r)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 5 {
		t.Fatalf("only %d pages checked", pages)
	}
	page := string(read(t, out, "sites/hostile.test/index.html"))
	// The hostile text is shown as text (escaped), with the override visible.
	for _, want := range []string{"&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;", "invoice[U&#43;202E]fdp.exe", "a[U&#43;2066]b[U&#43;2069]c[U&#43;200F]",
		`<bdi class="unlinked">javascript:alert(1)</bdi>`} {
		if !strings.Contains(page, want) {
			t.Errorf("site page lacks %q", want)
		}
	}
}

func checkInertHTML(t *testing.T, rel string, data []byte) {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "iframe", "object", "embed", "svg", "img", "form", "base", "meta":
				if n.Data != "meta" || hasAttr(n, "http-equiv") {
					if !ownElement(n) {
						t.Errorf("%s: a <%s> element", rel, n.Data)
					}
				}
			}
			for _, a := range n.Attr {
				key := strings.ToLower(a.Key)
				if strings.HasPrefix(key, "on") {
					t.Errorf("%s: <%s %s=%q>", rel, n.Data, a.Key, a.Val)
				}
				if key == "href" || key == "src" || key == "cite" || key == "action" || key == "formaction" || key == "xlink:href" {
					v := strings.ToLower(strings.Join(strings.Fields(a.Val), ""))
					for _, bad := range []string{"javascript:", "data:", "vbscript:"} {
						if strings.HasPrefix(v, bad) {
							t.Errorf("%s: <%s %s=%q>", rel, n.Data, a.Key, a.Val)
						}
					}
				}
				if key == "style" {
					t.Errorf("%s: inline style on <%s>", rel, n.Data)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
}

// ownElement: the directory's own search form and its script, which no
// string from a site can produce (they are written by the template, and
// every site string is escaped).
func ownElement(n *html.Node) bool {
	src, action := attrOf(n, "src"), attrOf(n, "action")
	switch n.Data {
	case "script":
		return n.FirstChild == nil && strings.HasSuffix(src, "filter.js") && !strings.Contains(src, ":")
	case "form":
		return hasAttr(n, "data-filter") && action == "#"
	case "svg":
		return attrOf(n, "data-chart") == "trend" // a crawler page's chart, drawn from counts
	}
	return false
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// checkInertXML: the feeds and sitemap parse, so no string broke out.
func checkInertXML(t *testing.T, rel string, data []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := d.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Errorf("%s: %v", rel, err)
			}
			return
		}
		if se, ok := tok.(xml.StartElement); ok && (se.Name.Local == "script" || se.Name.Local == "img") {
			t.Errorf("%s: a <%s> element", rel, se.Name.Local)
		}
	}
}

// TestUnsafeNamesAreRefused: a host or category that cannot be a folder
// name stops the build instead of writing outside public/.
func TestUnsafeNamesAreRefused(t *testing.T) {
	r, _ := New()
	for _, s := range []*signals.Site{
		{Host: "../../etc", Name: "x", Category: "other"},
		{Host: "ok.test", Name: "x", Category: "../up"},
		{Host: "a/b", Name: "x", Category: "other"},
		{Host: "", Name: "x", Category: "other"},
	} {
		dir := t.TempDir()
		if err := r.Build(context.Background(), filepath.Join(dir, "public"), Input{Sites: []*signals.Site{s}}); err == nil {
			t.Errorf("host %q category %q: built", s.Host, s.Category)
		}
	}
}

func TestWebURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://a.test/x?y#z": "https://a.test/x?y#z",
		"HTTP://A.test/":       "HTTP://A.test/",
		" https://a.test/ ":    "https://a.test/",
		"javascript:alert(1)":  "",
		" JavaScript:x":        "",
		"data:text/html,x":     "",
		"mailto:a@b.test":      "",
		"//a.test/x":           "",
		"/relative":            "",
		"https:opaque":         "",
		"https://":             "",
		"":                     "",
	} {
		if got := webURL(in); got != want {
			t.Errorf("webURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"plain æøå":          "plain æøå",
		"tab\tand\nnewline":  "tab\tand\nnewline",
		"a\u202Eb":           "a[U+202E]b",
		"\u2067x\u2069":      "[U+2067]x[U+2069]",
		"nul\x00":            "nul[U+0000]",
		"c1\u0085":           "c1[U+0085]",
		"bad\xffutf8":        "bad\uFFFDutf8",
		"עברית and English":  "עברית and English",
		"mark\u200Eleft-ish": "mark[U+200E]left-ish",
	} {
		if got := cleanText(in); got != want {
			t.Errorf("cleanText(%q) = %q, want %q", in, got, want)
		}
	}
	// cleanCopy leaves the original alone.
	s := hostileSite()
	c := cleanCopy(s)
	if s.Name != xScript+xRLO || strings.Contains(c.Name, "\u202E") || c.Signals.LLMsTxt.Summary == s.Signals.LLMsTxt.Summary {
		t.Errorf("cleanCopy: original %q, copy %q", s.Name, c.Name)
	}
	if c.Robots.ContentSignals[0].Values[xScript] != cleanText(xBreak) || c.Robots.CrawlDelaySeconds != nil {
		t.Errorf("cleanCopy of maps and nil pointers: %+v", c.Robots.ContentSignals[0])
	}
}
