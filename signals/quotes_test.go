package signals

import (
	"fmt"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract"
)

func TestSentences(t *testing.T) {
	got := sentences("Vilkår for bruk\n\nDette er første setning. Her er nr. 2 i rekken! Og f.eks. denne? Siste linje")
	want := []string{"Vilkår for bruk", "Dette er første setning.", "Her er nr. 2 i rekken!", "Og f.eks. denne?", "Siste linje"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sentences:\n got %q\nwant %q", got, want)
	}
}

// A page's key sentence is never crowded out by a count per page: twenty
// licence sentences before it, and the ban still shows, ranked first, and
// its list item keeps its lead-in.
func TestReadQuotesKeepsTheKeySentence(t *testing.T) {
	src := "<html lang=en><body><main><h1>Terms of use</h1>"
	for i := range 20 {
		src += fmt.Sprintf("<p>Section %d of our content is licensed under the Creative Commons Attribution licence.</p>", i)
	}
	src += "<p>You agree that you will not:</p><ul><li>use any robot, spider or scraper to access the site or its content;</li></ul></main></body></html>"
	page, err := extract.HTML([]byte(src), "text/html; charset=utf-8", nil)
	if err != nil {
		t.Fatal(err)
	}
	qs, r := readQuotes(page.Text, page.Blocks, page.Lang)
	lang, read := r.Language, r.Read
	if lang != "en" || !read {
		t.Fatalf("language %q read %v, want en, read", lang, read)
	}
	if len(qs) != 21 {
		t.Fatalf("%d quotes, want 21 (every on-topic sentence under its document)", len(qs))
	}
	var ban *Quote
	for i := range qs {
		q := &qs[i]
		if ok, _, _ := extract.Verify(page.Text, q.Text); !ok || !q.Verified || q.Source != "found" {
			t.Errorf("quote %+v does not verify", q)
		}
		if strings.Contains(q.Text, "robot") {
			ban = q
		}
	}
	if ban == nil {
		t.Fatal("the ban on robots is not quoted")
	}
	if ban.LeadIn != "You agree that you will not:" || ban.Objects == "" || ban.Kind != "scraping ban" || ban.Stance != "prohibits" {
		t.Errorf("ban read as %+v; want its lead-in, a prohibition counted as a scraping ban", ban)
	}
	rankQuotes(qs)
	if ban.Rank != 1 {
		t.Errorf("the ban ranks %d, want 1 (prohibitions first)", ban.Rank)
	}
	if qs[len(qs)-1].Text != ban.Text {
		t.Errorf("quotes of a page are in document order; the ban should come last, got %q", qs[len(qs)-1].Text)
	}
}

// A page in a language whose terms we do not read gives no quote, and
// says so.
func TestReadQuotesOtherLanguage(t *testing.T) {
	src := "<html lang=de><body><p>Die Nutzung von Robotern, Spidern oder Scrapern zum Zugriff auf die Inhalte der Website ist nicht gestattet und wird von uns verfolgt.</p><p>Wir sind für die Inhalte dieser Seite verantwortlich und die Daten sind nicht frei.</p></body></html>"
	page, err := extract.HTML([]byte(src), "text/html", nil)
	if err != nil {
		t.Fatal(err)
	}
	qs, r := readQuotes(page.Text, page.Blocks, page.Lang)
	lang, read := r.Language, r.Read
	if read || lang != "de" || len(qs) != 0 {
		t.Errorf("read %v lang %q quotes %d; want German, not read for meaning, no quote", read, lang, len(qs))
	}
}
