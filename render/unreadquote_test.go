package render

import (
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/signals"
)

// TestCuratedQuoteOfUnreadPage: a curated quote whose page was not read is
// said to be so, with the gap's reason, and never "as read on" a date that
// does not exist.
func TestCuratedQuoteOfUnreadPage(t *testing.T) {
	all := directorySites()
	var s *signals.Site
	for _, x := range all {
		if x.Host == "kommune.test" {
			s = x
		}
	}
	if s == nil {
		t.Fatal("no kommune.test in the directory's sites")
	}
	cases := []struct {
		url, want string
	}{
		// Its page is a gap: robots.txt keeps us from it.
		{"https://kommune.test/personvern", "(robots.txt disallows our crawler for this address, so we did not request it; https://kommune.test/robots.txt line 5 disallows crawlsignals)"},
		// No gap names it: this batch never came to it.
		{"https://kommune.test/aldri", "(no link this batch followed led to it)"},
	}
	for _, c := range cases {
		s2 := *s
		s2.Quotes = append([]signals.Quote{{URL: c.url, Text: "Personopplysninger deles ikke.", Topic: "privacy", Source: "curated",
			File: "content/sites/kommune.test.md", Line: 2, Problem: "the page was not read in this batch"}}, s.Quotes...)
		out := build(t, Input{Sites: []*signals.Site{&s2}, Content: testContent})
		page := string(read(t, out, "sites/kommune.test/index.html"))
		i := strings.Index(page, "<h3>Curated quotes no longer found</h3>")
		if i < 0 {
			t.Fatalf("%s: the page lists no curated quote not shown", c.url)
		}
		list := page[i:]
		list = list[:strings.Index(list, "</ul>")]
		if strings.Contains(list, "not yet") {
			t.Errorf("%s: a date that does not exist:\n%s", c.url, list)
		}
		if !strings.Contains(list, "we did not read") || !strings.Contains(list, c.want) {
			t.Errorf("%s: the list lacks that the page was not read, %q:\n%s", c.url, c.want, list)
		}
		// The quote whose page was read keeps its date.
		if !strings.Contains(list, "as read on <time") {
			t.Errorf("%s: the read page's quote lost its date:\n%s", c.url, list)
		}
	}
}
