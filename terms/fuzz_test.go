package terms

import (
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract"
)

// FuzzRead reads any text as the blocks of a hostile page (made valid
// UTF-8, as extract hands it over): the reader never
// panics, and every sentence it shows, and its lead-in, is a piece of the
// page's text, as the quote check needs (design §2.5).
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"You agree not to:\n(i) use robots; (ii) scrape the site.",
		"1.1 We grant you a right to access the API: API services.",
		"Permission to use the Documents is granted, provided that (1) the notice appears, (2) no copies are made.",
		"<ListItem>Det er ikke forbudt å skrape nettstedet.</ListItem> <br/>",
		"Creative Commons er ikke part i denne lisensen. Med Licensgivaren avses den som beviljar rättigheter.",
		"skal du ikkje: bruke robotar. Storskala kopiering er forbode. ( ( (i) (",
		"Our subcontractors shall not use passenger data to train models.\u00ad",
	} {
		f.Add(s, "nb")
		f.Add(s, "en")
	}
	f.Fuzz(func(t *testing.T, text, hint string) {
		// extract gives the reader valid UTF-8 only (a bad byte is U+FFFD
		// there, as in the text a quote is checked against)
		text = strings.ToValidUTF8(text, "\uFFFD")
		var blocks []extract.Block
		for i, line := range strings.Split(text, "\n") {
			b := extract.Block{Text: line}
			if i%2 == 1 {
				b.Box, b.Depth = extract.BoxItem, 1
			}
			blocks = append(blocks, b)
		}
		r := Read(blocks, hint)
		for _, s := range append(r.Found, r.Others...) {
			if !strings.Contains(text, s.Text) {
				t.Fatalf("shown %q, which is not in the text", s.Text)
			}
			if s.LeadIn != "" && !strings.Contains(text, s.LeadIn) {
				t.Fatalf("lead-in %q is not in the text", s.LeadIn)
			}
		}
	})
}
