package e2e_test

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/signals"
)

// The terms reader's kinds of error, end to end (issue "The terms read
// right on documents the reader was never tuned to"; design §2.5.1,
// §2.8): the fixture web's vilkaar.test (Vikferja, testdata/web/README.md)
// is crawled, its evidence built into signals.json and the site's page,
// and each kind is judged there, from what a reader gets. The host is
// listed only here, so the demo and every other test's counts stay as
// they were. Every sentence of the host was written for it.

// termsList lists the one fixture host of these tests.
const termsList = `[[site]]
name = "Vikferja"
url = "https://vilkaar.test/"
hosts = ["vilkaar.test"]
category = "other"
notes = "the terms reader's constructions, end to end"
`

const termsHost = "vilkaar.test"

// A quote's stance and subject as signals.json spells them (design §6).
const (
	stanceProhibits = "prohibits"
	stancePermits   = "permits"
	subjectSite     = "site"
)

// termsPages are the pages of vilkaar.test the footer links to, each a
// policy document the reader reads.
var termsPages = []string{"/vilkar", "/personvern", "/lisens", "/apne-data", "/utviklere"}

// termsSite is what the build published for vilkaar.test: its
// signals.json read back as the public contract, the same as written, its
// page and its entry in the directory's sites.json.
type termsSite struct {
	site  *signals.Site
	raw   string // sites/vilkaar.test/signals.json as written
	page  string // sites/vilkaar.test/index.html, HTML entities decoded
	aiUse string // sites.json's ai_use for the host
}

// crawlTermsHost crawls vilkaar.test over the fixture web's in-memory
// transport inside a synctest bubble (the pacing costs no real time),
// builds it as the build command does, and reads back what was published.
func crawlTermsHost(t *testing.T) *termsSite {
	t.Helper()
	var run *termsSite
	synctest.Test(t, func(t *testing.T) {
		list, batches, srv := crawlWeb(t, crawlsignals.FixtureWeb(), termsList, "")
		for _, p := range termsPages {
			read := false
			for _, q := range srv.Log() {
				read = read || (q.Host == termsHost && q.Path == p && q.Status == 200)
			}
			if !read {
				t.Errorf("%s%s was not requested and answered", termsHost, p)
			}
		}
		out := buildTo(t, list, batches, derived.Options{})
		file := func(rel string) string {
			data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			return string(data)
		}
		run = &termsSite{raw: file("sites/" + termsHost + "/signals.json"), page: html.UnescapeString(file("sites/" + termsHost + "/index.html"))}
		var s signals.Site
		if err := json.Unmarshal([]byte(run.raw), &s); err != nil {
			t.Fatal(err)
		}
		run.site = &s
		var idx struct {
			Sites []struct {
				Host  string `json:"host"`
				AIUse string `json:"ai_use"`
			} `json:"sites"`
		}
		if err := json.Unmarshal([]byte(file("sites.json")), &idx); err != nil {
			t.Fatal(err)
		}
		for _, e := range idx.Sites {
			if e.Host == termsHost {
				run.aiUse = e.AIUse
			}
		}
	})
	if run == nil || t.Failed() {
		t.FailNow()
	}
	return run
}

// sentence is one sentence of a page of vilkaar.test.
type sentence struct{ path, text string }

func (s sentence) url() string { return "https://" + termsHost + s.path }

func (s sentence) String() string { return fmt.Sprintf("%s %q", s.path, s.text) }

// shows reports whether a quote (or its lead-in) is the sentence or a
// clause of it: a long sentence is quoted as its clause (design §2.5.1).
func (s sentence) shows(q signals.Quote) bool {
	if q.URL != s.url() {
		return false
	}
	for _, t := range []string{q.Text, q.LeadIn} {
		if t != "" && (strings.Contains(s.text, t) || strings.Contains(t, s.text)) {
			return true
		}
	}
	return false
}

// quotesOf are the site's quotes that show the sentence, by their index
// in signals.json's quotes.
func quotesOf(site *signals.Site, s sentence) map[int]signals.Quote {
	out := map[int]signals.Quote{}
	for i, q := range site.Quotes {
		if s.shows(q) {
			out[i] = q
		}
	}
	return out
}

// captionsOf are the captions the site's page gives the sentence, one
// per place it is quoted (among the answers, under its document): the
// figcaption after each blockquote that holds it.
func captionsOf(page string, s sentence) []string {
	var out []string
	for rest := page; ; {
		i := strings.Index(rest, s.text+"</p></blockquote>")
		if i < 0 {
			return out
		}
		rest = rest[i+len(s.text):]
		c := strings.Index(rest, "<figcaption>")
		e := strings.Index(rest, "</figcaption>")
		if c < 0 || e < c {
			return out
		}
		out = append(out, rest[c+len("<figcaption>"):e])
	}
}

// notAnObjection checks that nothing the site published counts the
// sentence as an objection to AI training: its quotes
// (quotes[i].objects_to_ai, kind), the AI use sources
// (ai_use.sources[i].objects, term), the look-twice entries
// (contradictions[i].quotes) and its captions on the page.
func notAnObjection(t *testing.T, r *termsSite, s sentence) {
	t.Helper()
	for i, q := range quotesOf(r.site, s) {
		if q.Objects != "" || q.Kind != "" {
			t.Errorf("%s: quotes[%d].objects_to_ai = %q, kind = %q (stance %q, subject %q, words %q); want no objection",
				s, i, q.Objects, q.Kind, q.Stance, q.Subject, q.Words)
		}
	}
	for i, src := range r.site.AIUse.Sources {
		if src.Kind == "terms" && src.URL == s.url() && overlaps(s.text, src.Says) && (src.Objects != "" || src.Term != "") {
			t.Errorf("%s: ai_use.sources[%d].objects = %q, term = %q", s, i, src.Objects, src.Term)
		}
	}
	for i, c := range r.site.Contradictions {
		for _, q := range c.Quotes {
			if overlaps(s.text, q) {
				t.Errorf("%s: among contradictions[%d] (%s): %s", s, i, c.Kind, c.What)
			}
		}
	}
	for _, c := range captionsOf(r.page, s) {
		for _, kind := range []string{"scraping ban", "AI/TDM reservation"} {
			if strings.Contains(c, "<strong>"+kind+"</strong>") {
				t.Errorf("%s: the page names it an objecting term (%s): %s", s, kind, c)
			}
		}
	}
}

// overlaps reports whether a and b are one sentence, or one a clause of
// the other.
func overlaps(a, b string) bool {
	return a != "" && b != "" && (strings.Contains(a, b) || strings.Contains(b, a))
}

// noTermsObjection checks that nothing the site published counts a
// sentence of its terms as an objection to AI training: the verdict in
// signals.json (ai_use.verdict, ai_use.refused_crawlers) and sites.json
// (ai_use), the sources (ai_use.sources[kind=terms].objects), the "look
// twice" entries, and the page's words. robots.txt allows all and no other
// signal of vilkaar.test objects, so the verdict is "no objection found".
func noTermsObjection(t *testing.T, r *termsSite) {
	t.Helper()
	u := r.site.AIUse
	var objecting []string
	for i, src := range u.Sources {
		if src.Kind == "terms" && (src.Objects != "" || len(src.Crawlers) > 0 || src.Term != "") {
			objecting = append(objecting, fmt.Sprintf("ai_use.sources[%d] objects=%q term=%q: %q (%s)", i, src.Objects, src.Term, src.Says, src.URL))
		}
	}
	if len(objecting) > 0 {
		t.Errorf("a sentence of the terms counts as an objection:\n  %s", strings.Join(objecting, "\n  "))
	}
	if u.Verdict != signals.AINoObjection || len(u.Refused) != 0 {
		t.Errorf("ai_use.verdict = %q (refused_crawlers %d), want %q: %s", u.Verdict, len(u.Refused), signals.AINoObjection, u.Why)
	}
	if r.aiUse != signals.AINoObjection {
		t.Errorf("sites.json ai_use = %q, want %q", r.aiUse, signals.AINoObjection)
	}
	if hasContradiction(r.site, "robots-allows-terms-objects") {
		t.Errorf("contradictions: a look-twice entry says the terms object: %+v", r.site.Contradictions)
	}
	if !strings.Contains(r.page, `<span class="ai ai-`+signals.AINoObjection+`">`+signals.AIWord(signals.AINoObjection)+`</span>`) {
		t.Errorf("the page's AI training answer is not %q", signals.AIWord(signals.AINoObjection))
	}
	for _, says := range []string{
		"a sentence of the terms objects", // the verdict's reason, the look-twice entry
		"a sentence of the terms (",       // a source row naming the kind of objecting term
		"<strong>scraping ban</strong>",   // a quote's caption naming it an objecting term
		"<strong>AI/TDM reservation</strong>",
	} {
		if strings.Contains(r.page, says) {
			t.Errorf("the page says the terms object: it has %q", says)
		}
	}
}

func TestTermsReaderEndToEnd(t *testing.T) {
	r := crawlTermsHost(t)
	for _, p := range termsPages {
		d := docFor(r.site, "https://"+termsHost+p)
		if d == nil || d.Status != 200 || d.Role != signals.RolePolicy || d.Chars == 0 || d.NotReadForMeaning {
			t.Fatalf("%s%s: read %+v, want a policy document read for meaning", termsHost, p, d)
		}
	}

	// Design §2.5.1, "who is bound decides whether a prohibition objects":
	// a duty the service takes on itself, its processors' duties and a
	// warning to uploaders never object, whatever words of prohibition
	// they hold.
	t.Run("a promise is not an objection", func(t *testing.T) {
		promises := []sentence{
			{"/personvern", "Vi kommer aldri til å bruke bildene og tekstene du laster opp i reisedagboken til å trene språkmodeller."},
			{"/personvern", "Databehandlerne våre har ikke lov til å bruke personopplysningene dine til å utvikle egne KI-modeller."},
			{"/personvern", "If you turn off sharing in the app, your chat messages will not be used to train our AI models."},
			{"/personvern", "Our subcontractors shall not use passenger data to train machine learning models."},
			{"/personvern", "Tredjeparter kan samle inn og skrape bilder du gjør offentlige i reisedagboken."},
			{"/vilkar", "Vi kommer ikke til å bruke det du skriver til kundeservice til å trene opp kunstig intelligens."},
		}
		for _, s := range promises {
			notAnObjection(t, r, s)
			for i, q := range quotesOf(r.site, s) {
				if q.Stance == stanceProhibits && q.Subject == subjectSite {
					t.Errorf("%s: quotes[%d] read as prohibiting about the site's own content (words %q)", s, i, q.Words)
				}
			}
		}
		// Nothing else on vilkaar.test objects (the next subtest's
		// sentences permit): the site's verdict is no objection found, and
		// its page says so.
		noTermsObjection(t, r)
	})

	// A negated prohibition permits: "is not prohibited" is no ban.
	t.Run("a negated prohibition permits", func(t *testing.T) {
		negated := []sentence{
			{"/vilkar", "Det er ikke forbudt å hente rutetidene våre med roboter eller skript."},
			{"/vilkar", "Automatisk innsamling av ruter og priser fra nettstedet er ikke forbudt, og du trenger ikke å be om samtykke først."},
			{"/vilkar", "Automated collection of the timetables on this website is not prohibited."},
		}
		shown := 0
		for _, s := range negated {
			notAnObjection(t, r, s)
			for i, q := range quotesOf(r.site, s) {
				shown++
				if q.Stance != stancePermits || q.Objects != "" || q.Kind != "" {
					t.Errorf("%s: quotes[%d] stance %q, objects_to_ai %q, kind %q (words %q); want stance %q and no objection",
						s, i, q.Stance, q.Objects, q.Kind, q.Words, stancePermits)
				}
			}
			for _, c := range captionsOf(r.page, s) {
				if !strings.HasPrefix(c, "permits or grants") {
					t.Errorf("%s: the page's caption is %q, want it read as permits", s, c)
				}
			}
		}
		// On topic and about the site's content, such a sentence is one a
		// reader needs: at least one of them is shown.
		if shown == 0 {
			t.Errorf("none of the negated prohibitions is quoted: %v", negated)
		}
	})

	// A grant is a construction: a sentence that grants reuse of the
	// site's content or access to its API is "permits", never "only
	// describes".
	t.Run("a grant is a grant", func(t *testing.T) {
		grants := []struct {
			sentence
			topic, caption string
		}{
			{sentence{"/apne-data", "Ruteinformasjonen på nettstedet er fritt tilgjengelig for bruk i egne apper og tjenester."}, signals.TopicLicence, "permits or grants · licence"},
			{sentence{"/apne-data", "Alle rutedata er åpne for viderebruk under CC BY 4.0."}, signals.TopicLicence, "permits or grants · licence"},
			{sentence{"/utviklere", "Du kan hente sanntidsposisjonene til fergene gjennom vårt åpne API."}, signals.TopicAPI, "permits or grants · API, feed or export"},
			{sentence{"/utviklere", "Rutetabellene kan du laste ned som JSON gjennom det åpne API-et vårt."}, signals.TopicAPI, "permits or grants · API, feed or export"},
		}
		for _, g := range grants {
			qs := quotesOf(r.site, g.sentence)
			if len(qs) == 0 {
				t.Errorf("%s: not among the quotes", g.sentence)
				continue
			}
			for i, q := range qs {
				if !q.Verified || q.Topic != g.topic || q.Stance != stancePermits || q.Objects != "" {
					t.Errorf("%s: quotes[%d] topic %q stance %q objects_to_ai %q (words %q); want topic %q, stance %q",
						g.sentence, i, q.Topic, q.Stance, q.Objects, q.Words, g.topic, stancePermits)
				}
			}
			cs := captionsOf(r.page, g.sentence)
			if len(cs) == 0 {
				t.Errorf("%s: not quoted on the page", g.sentence)
			}
			for _, c := range cs {
				if !strings.HasPrefix(c, g.caption) {
					t.Errorf("%s: the page's caption is %q, want %q", g.sentence, c, g.caption)
				}
			}
		}
	})

	// A licence's steward is not the site: the notices a licence text
	// carries about Creative Commons are not the site's terms and are
	// never shown as its licence; the site's grant is.
	t.Run("a licence's steward's notice is not quoted", func(t *testing.T) {
		steward := []sentence{
			{"/lisens", "Creative Commons står ikke som part i lisensavtalen og gir ingen garantier for materialet som lisensieres."},
			{"/lisens", "Creative Commons er ikke et advokatfirma og gir ikke juridiske råd om bruk av lisensene."},
			{"/lisens", "Spørsmål om selve lisensteksten kan rettes til Creative Commons på creativecommons.org."},
			{"/lisens", "Creative Commons is not a party to this licence and gives no warranty for the licensed material."},
		}
		for _, s := range steward {
			for i, q := range quotesOf(r.site, s) {
				t.Errorf("%s: shown as quotes[%d] (topic %q, stance %q, words %q)", s, i, q.Topic, q.Stance, q.Words)
			}
			for i, l := range r.site.Licences {
				if strings.Contains(s.text, l.Quote) || strings.Contains(l.Quote, s.text) {
					t.Errorf("%s: shown as licences[%d] (%s)", s, i, l.Name)
				}
			}
			if q := r.site.OpenByDesign.Licence; q != nil && s.shows(*q) {
				t.Errorf("%s: shown as open_by_design.licence", s)
			}
			// The page publishes quotes, never whole pages: the
			// steward's words are nowhere on it.
			if strings.Contains(r.page, s.text) {
				t.Errorf("%s: on the site's page", s)
			}
		}
		grant := sentence{"/lisens", "Tekstene og bildene på nettstedet er lisensiert under Creative Commons Navngivelse 4.0 Internasjonal."}
		qs := quotesOf(r.site, grant)
		if len(qs) == 0 {
			t.Errorf("%s: the site's grant is not among the quotes", grant)
		}
		for i, q := range qs {
			if !q.Verified || q.Topic != signals.TopicLicence || q.Stance != stancePermits {
				t.Errorf("%s: quotes[%d] topic %q stance %q; want %q, %q", grant, i, q.Topic, q.Stance, signals.TopicLicence, stancePermits)
			}
		}
		named := false
		for _, l := range r.site.Licences {
			named = named || (l.URL == grant.url() && l.Name == "CC BY 4.0" && l.Quote == grant.text)
		}
		if !named {
			t.Errorf("licences: CC BY 4.0 is not shown with the site's grant %q: %+v", grant.text, r.site.Licences)
		}
		if cs := captionsOf(r.page, grant); len(cs) == 0 || !strings.HasPrefix(cs[len(cs)-1], "permits or grants · licence") {
			t.Errorf("%s: on the page as %q, want it quoted as a licence grant", grant, cs)
		}
	})
}
