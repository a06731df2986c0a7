package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/signals"
)

// readingSites: avis.test with terms read by the terms reader (a list item
// with its lead-in, a long sentence quoted as its clause, each with how it
// was read) and a page in French; fransk.test, whose only document is in a
// language we do not read for meaning.
func readingSites() []*signals.Site {
	ss := directorySites()
	var avis *signals.Site
	for _, s := range ss {
		if s.Host == "avis.test" {
			avis = s
		}
	}
	const terms, conditions = "https://avis.test/terms", "https://avis.test/fr/conditions"
	item := signals.Quote{URL: terms, Text: "use any robot, spider or scraper to access the Service", Topic: "scraping", Source: "found", Verified: true,
		ReadAt: "2026-12-01T06:00:06Z", LeadIn: "You agree that you will not:", Stance: "prohibits", Subject: "site", Kind: "scraping ban",
		Words: []string{"robot", "you will not"}, Objects: "prohibits", Rank: 1}
	clause := signals.Quote{URL: terms, Text: "we reserve all rights to text and data mining of our content", Topic: "ai", Source: "found", Verified: true,
		ReadAt: "2026-12-01T06:00:06Z", CutBefore: true, CutAfter: true, Stance: "prohibits", Subject: "site", Kind: "AI/TDM reservation",
		Words: []string{"reserve", "text and data mining"}, Objects: "prohibits", Rank: 2}
	avis.Read = []signals.Document{
		{URL: terms, FinalURL: terms, Status: 200, ContentType: "text/html", FoundVia: "footer", Role: "policy", LinkText: "Terms", Title: "Terms of use",
			SHA256: "aa11", Chars: 5000, ReadAt: "2026-12-01T06:00:06Z", Language: "en"},
		{URL: conditions, FinalURL: conditions, Status: 200, ContentType: "text/html", FoundVia: "footer", Role: "policy", LinkText: "Conditions", Title: "Conditions d’utilisation",
			SHA256: "bb22", Chars: 4000, ReadAt: "2026-12-01T06:00:07Z", Language: "fr", NotReadForMeaning: true},
	}
	avis.Quotes = []signals.Quote{item, clause}
	avis.AIUse = signals.AIUse{Verdict: "refused", Why: "The terms prohibit scraping.", Sources: []signals.AISource{
		{Kind: "terms", Term: "scraping ban", Says: "You agree that you will not: … use any robot, spider or scraper to access the Service", URL: terms, Objects: "all"}}}

	fransk := &signals.Site{Host: "fransk.test", Name: "Fransk", URL: "https://fransk.test/", Category: "news", Hosts: []string{"fransk.test"},
		Batch: "20261201T060000Z", ReadAt: ptr("2026-12-01T06:00:04Z"), History: hist("20261201T060000Z"),
		Robots: signals.Robots{Host: "fransk.test", URL: "https://fransk.test/robots.txt", Status: 404, Outcome: "none", Meaning: "No robots.txt.", Agents: testAgents(true, 0)},
		Read: []signals.Document{{URL: "https://fransk.test/cgu", FinalURL: "https://fransk.test/cgu", Status: 200, ContentType: "text/html", FoundVia: "footer",
			Role: "policy", Title: "CGU", SHA256: "cc33", Chars: 3000, ReadAt: "2026-12-01T06:00:05Z", Language: "xx", NotReadForMeaning: true}},
		AIUse:        signals.AIUse{Verdict: "no-objection-found", Why: "Nothing we read objects."},
		OpenByDesign: signals.OpenVerdict{Verdict: ptr(false), Why: "Neither found."}}
	return append(ss, fransk)
}

// TestQuotesAsRead: list items are shown after their lead-in, said once,
// and each live link points at the item; a clause has "…" outside
// the quoted words; each says how it was read and which words decided;
// a document in a language we do not read says so and never "nothing
// found" (design §2.5.1).
func TestQuotesAsRead(t *testing.T) {
	in := readingSites()
	for _, s := range in {
		if s.Host == "avis.test" {
			// A second item of the same list, just after the first.
			second := s.Quotes[0]
			second.Text, second.Rank = "copy the Service's content by automated means", 1
			s.Quotes = append([]signals.Quote{s.Quotes[0], second}, s.Quotes[1:]...)
		}
	}
	out := build(t, Input{Sites: in, Content: testContent, Contact: "crawler@crawlsignals.test"})
	page := string(read(t, out, "sites/avis.test/index.html"))

	figure := regexp.MustCompile(`(?s)<figure>.*?</figure>`)
	// The answer block shows the reading in brief; the whole reading
	// stands with each quote under its document.
	docs := strings.Index(page, `id="read"`)
	if docs < 0 {
		t.Fatal("no documents section")
	}
	answer := figure.FindString(page[:docs])
	if !strings.Contains(answer, `<figcaption>prohibits or reserves · <strong>scraping ban</strong> — `) || !strings.Contains(answer, `href="#q1">how we read it</a>`) {
		t.Errorf("the answer's quote does not say in brief how it was read, with a link to the whole reading:\n%s", answer)
	}
	section := page[docs:]
	section = section[:strings.Index(section, "</section>")]
	var itemFig, clauseFig string
	for _, f := range figure.FindAllString(section, -1) {
		switch {
		case strings.Contains(f, "use any robot") && itemFig == "":
			itemFig = f
		case strings.Contains(f, "text and data mining of our content") && clauseFig == "":
			clauseFig = f
		}
	}
	if itemFig == "" || clauseFig == "" {
		t.Fatalf("the quotes are not on the page as figures:\n%s", page)
	}
	// The two items of the list follow their lead-in, said once.
	lead := strings.Index(section, `<li class="list"><blockquote class="leadin"><p>You agree that you will not:</p></blockquote>`)
	itemAt := strings.Index(section, `<p class="item">use any robot, spider or scraper to access the Service</p>`)
	secondAt := strings.Index(section, `<p class="item">copy the Service&#39;s content by automated means</p>`)
	if lead < 0 || itemAt < 0 || secondAt < 0 || lead > itemAt || itemAt > secondAt {
		t.Errorf("the list items are not shown after their lead-in:\n%s", section)
	}
	if n := strings.Count(section, `You agree that you will not:`); n != 1 {
		t.Errorf("the lead-in of two items of one list stands %d times under its document, want once", n)
	}
	if !strings.Contains(itemFig, `https://avis.test/terms#:~:text=use%20any%20robot%2C%20spider%20or%20scraper%20to%20access%20the%20Service"`) {
		t.Errorf("the live link does not point at the item's own words:\n%s", itemFig)
	}
	if !strings.Contains(itemFig, `<figcaption>prohibits or reserves · scraping and automated access · <strong>scraping ban</strong> — decided by “<bdi>robot</bdi>”, “<bdi>you will not</bdi>”`) {
		t.Errorf("the list item's figure does not say how it was read:\n%s", itemFig)
	}
	// How the quotes were found and checked is said once, above them, not
	// in each caption.
	if n := strings.Count(section, `An item of a list follows the sentence that introduces the list`); n != 1 {
		t.Errorf("the section says how quotes are found %d times, want once", n)
	}
	if strings.Contains(itemFig, "word for word") || strings.Contains(clauseFig, "word for word") {
		t.Errorf("a quote's caption repeats the method:\n%s", itemFig)
	}
	for _, want := range []string{
		`<span class="cut">…&nbsp;</span>we reserve all rights to text and data mining of our content<span class="cut">&nbsp;…</span>`,
		`<figcaption>prohibits or reserves · AI, text and data mining · <strong>AI/TDM reservation</strong> — decided by “<bdi>reserve</bdi>”, “<bdi>text and data mining</bdi>”`,
	} {
		if !strings.Contains(clauseFig, want) {
			t.Errorf("the clause's figure lacks %q:\n%s", want, clauseFig)
		}
	}
	// The AI source names its kind of term and links to the item.
	if !strings.Contains(page, `<span class="label">a sentence of the terms (scraping ban)</span>`) {
		t.Error("the AI source does not name the kind of term")
	}
	// ... and links to the item's quote under its document, which links
	// to the live page, rather than saying the words again.
	if !strings.Contains(page, `, quoted under <a href="#q1">avis.test/terms</a>`) || !strings.Contains(section, `<li id="q1"><figure>
<blockquote><p class="item">use any robot`) {
		t.Error("the AI source of a list item does not link to the item's quote on the page")
	}

	// The French page: not read for meaning, said in its entry and in the answer.
	if !strings.Contains(page, `<p class="notread"><strong>Terms not read for meaning.</strong> Its text is in French, a language we do not read for meaning`) {
		t.Errorf("the French document does not say its terms were not read for meaning:\n%s", page)
	}
	if !strings.Contains(page, `1 of the 2 documents we read</a> is in a language whose terms we do not read for meaning`) {
		t.Error("the answer does not say that one document was not read for meaning")
	}

	// A site whose only document we did not read for meaning never says
	// that nothing was found in it.
	fr := string(read(t, out, "sites/fransk.test/index.html"))
	for _, want := range []string{`Terms not read for meaning.`, `The document we read</a> is in a language whose terms we do not read for meaning`} {
		if !strings.Contains(fr, want) {
			t.Errorf("fransk.test's page lacks %q", want)
		}
	}
	for _, bad := range []string{`No sentence about licences`, `found in it.`} {
		if strings.Contains(fr, bad) {
			t.Errorf("fransk.test's page says %q of a document it did not read for meaning", bad)
		}
	}
}

// TestExcerpt: a link to a quote on the page names a long quote by its
// first words, and a short one whole, so no cut changes what it says.
func TestExcerpt(t *testing.T) {
	long := "You are in particular not allowed to use technological methods or processes to automatically download information about other members."
	if got, want := excerpt(long), "You are in particular not allowed to use technological …"; got != want {
		t.Errorf("excerpt of a long quote = %q, want %q", got, want)
	}
	short := "Automatisert innsamling av innhold er ikke tillatt uten skriftlig samtykke."
	if got := excerpt(short); got != short {
		t.Errorf("excerpt of a short quote = %q, want it whole", got)
	}
}
