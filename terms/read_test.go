package terms

import (
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract"
)

func page(t *testing.T, html string) []extract.Block {
	t.Helper()
	p, err := extract.HTML([]byte(html), "text/html; charset=utf-8", nil)
	if err != nil {
		t.Fatal(err)
	}
	return p.Blocks
}

// One sentence per case, read on its own or with its list: topic, stance,
// subject and whether it objects.
func TestClassify(t *testing.T) {
	cases := []struct {
		name, html          string
		topic, stance, subj string
		objects, shown      bool
	}{
		{"en ban", `<p>You may not use any robot, spider or scraper to access the site.</p>`, TopicScraping, Prohibits, SubjectSite, true, true},
		{"en will not", `<p>You will not harvest or scrape data from the Service.</p>`, TopicScraping, Prohibits, SubjectSite, true, true},
		{"en lead-in decides", `<p>You agree not to:</p><ul><li>use automated means to access or collect content from the Services;</li></ul>`, TopicScraping, Prohibits, SubjectSite, true, true},
		{"en train models", `<p>You may not use output from the Service to develop models that compete with us.</p>`, TopicAI, Prohibits, SubjectSite, true, true},
		{"en service's own AI", `<p>We use artificial intelligence and machine learning models to detect fraud on the platform.</p>`, "", "", "", false, false},
		{"en service's promise", `<p>We will not use your content to train any AI models without your consent.</p>`, TopicAI, Describes, SubjectUser, false, false},
		{"en bots register accounts", `<p>Accounts registered by bots or other automated methods are not permitted.</p>`, "", "", "", false, false},
		{"en user's licence", `<p>You grant us a worldwide licence to host and display the content you upload.</p>`, TopicLicence, Permits, SubjectUser, false, false},
		{"en renewal", `<p>Your subscription automatically renews each month until you cancel it.</p>`, "", "", "", false, false},
		{"en not a rule", `<p>The generated output may not be unique and others may receive similar output.</p>`, "", "", "", false, false},
		{"en licence grant", `<p>All content on this site is licensed under the Creative Commons Attribution 4.0 licence.</p>`, TopicLicence, Permits, SubjectSite, false, true},
		{"en passive ban", `<p>No portion of the Services may be reproduced in any form or by any means.</p>`, TopicLicence, Prohibits, SubjectSite, false, true},
		{"en definition", `<p>“Partner Integration” means any product that connects to the Platform through our application programming interfaces.</p>`, "", "", "", false, false},
		{"en company describes itself", `<p>Northwind (“Northwind”) is a generative AI research company that builds models you can use to draft letters.</p>`, TopicAI, Permits, SubjectService, false, false},
		{"en disclaimer on output", `<p>Material used to train AI models can be incomplete or biased, so check every answer.</p>`, TopicAI, Describes, SubjectService, false, false},
		{"en negated AI use", `<p>An article created entirely without AI assistance carries no label on the site.</p>`, "", "", "", false, false},
		{"en verb without the site's content", `<p>You will not use the forum to harass members, including by distributing messages that promote gambling.</p>`, "", "", "", false, false},
		{"en long enumeration of verbs", `<p>You may not copy, adapt, translate, sell, rent, lease, transmit, broadcast, perform, display or otherwise exploit any part of the Content.</p>`, TopicLicence, Prohibits, SubjectSite, false, true},
		{"en defined term is no verb", `<p>You agree not to combine the Syndication Content with material that is defamatory or unlawful.</p>`, "", "", "", false, false},
		{"en driving licence", `<p>Do not upload identity documents such as passports or driver's licenses to the chat.</p>`, "", "", "", false, false},
		{"en others' rights", `<p>You must not upload, copy or distribute any copyrighted work without the permission of the person who owns it.</p>`, "", "", "", false, false},
		{"en confidentiality item", `<p>Confidential Information excludes information that is:</p><ul><li>in the public domain;</li><li>already known to the recipient.</li></ul>`, "", "", "", false, false},
		{"en api item under its lead-in", `<p>The timetable data is available:</p><ul><li>as a nightly CSV export</li></ul>`, TopicAPI, Describes, SubjectSite, false, true},
		{"en database right", `<p>Visitors may not extract or re-utilise a substantial part of the contents of our listings database without a licence.</p>`, TopicScraping, Prohibits, SubjectSite, true, true},
		{"nb database right", `<p>Det er ikke tillatt å gjøre uttrekk av vesentlige deler av databasen uten avtale med oss.</p>`, TopicScraping, Prohibits, SubjectSite, true, true},
		{"en assignment of the contract", `<p>The Publisher may assign these Terms, including the licence you granted us, to a successor with or without your consent.</p>`, "", "", "", false, false},
		{"en hypothetical prohibition", `<p>By training AI models on public posts from the forum, you waive any rules of your own website that would otherwise prohibit the same use of your pages.</p>`, TopicAI, Describes, SubjectUser, false, false},
		{"en content listed with its software", `<p>Any reproduction of the content of the Application, such as the software, texts and photos, is prohibited without our written authorisation.</p>`, TopicLicence, Prohibits, SubjectSite, false, true},
		{"en software licence alone", `<p>The software is licensed to you, not sold, and you may not redistribute the software to others.</p>`, "", "", "", false, false},
		{"en licence not yet chosen", `<p>The licence for the survey tables has not been decided yet.</p>`, TopicLicence, Describes, SubjectSite, false, true},
		{"nb licence not decided", `<p>Lisensen for kartene og tabellene er foreløpig ikke avklart.</p>`, TopicLicence, Describes, SubjectSite, false, true},
		{"nb ban", `<p>Det er ikke tillatt å hente ut innhold fra nettstedet ved hjelp av roboter eller skrapere.</p>`, TopicScraping, Prohibits, SubjectSite, true, true},
		{"nb lead-in", `<p>Som bruker godtar du å ikke:</p><ul><li>bruke datautvinning eller lignende verktøy på nettstedet.</li></ul>`, TopicScraping, Prohibits, SubjectSite, true, true},
		{"nb licence", `<p>Dataene er publisert under Norsk lisens for offentlige data (NLOD) og kan fritt gjenbrukes.</p>`, TopicLicence, Permits, SubjectSite, false, true},
		{"nn ban", `<p>Det er ikkje tillate å kopiere innhaldet med automatiserte verktøy eller robotar frå nettstaden.</p>`, TopicScraping, Prohibits, SubjectSite, true, true},
		{"da ban", `<p>Det er ikke tilladt at bruge robotter eller skrabere til at hente indhold fra hjemmesiden.</p>`, TopicScraping, Prohibits, SubjectSite, true, true},
		{"sv ban", `<p>Det är förbjudet att använda robotar för automatiserad insamling av innehåll från webbplatsen.</p>`, TopicScraping, Prohibits, SubjectSite, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Read(page(t, "<html><body>"+c.html+"</body></html>"), "")
			all := append(append([]Sentence{}, r.Found...), r.Others...)
			if c.topic == "" {
				for _, s := range r.Found {
					t.Errorf("shown %+v; want nothing shown", s)
				}
				return
			}
			var got *Sentence
			for i := range all {
				if all[i].Topic != "" {
					got = &all[i]
				}
			}
			if got == nil {
				t.Fatalf("no sentence read (language %q, read %v)", r.Language, r.Read)
			}
			if got.Topic != c.topic || got.Stance != c.stance || got.Subject != c.subj || got.Objects != c.objects {
				t.Errorf("read %s/%s/%s objects=%v (words %q); want %s/%s/%s objects=%v", got.Topic, got.Stance, got.Subject, got.Objects, got.Words, c.topic, c.stance, c.subj, c.objects)
			}
			if len(got.Words) == 0 {
				t.Error("no words named as deciding")
			}
			if shown := len(r.Found) > 0; shown != c.shown {
				t.Errorf("shown %v, want %v", shown, c.shown)
			}
		})
	}
}

// Headings, menus and link lists are never quotes; a heading does not run
// into the paragraph after it.
func TestBlocksAreNotQuotes(t *testing.T) {
	r := Read(page(t, `<html><body>
<nav><a href="/api">API</a> · <a href="/p">Personvern</a></nav>
<h2>6.2 License Restrictions.</h2>
<p>You may not copy or redistribute any content of the site without our written permission.</p>
<p><a href="/a">Licence terms for the map data</a> | <a href="/b">Terms</a></p>
</body></html>`), "en")
	if len(r.Found) != 1 {
		t.Fatalf("found %d sentences, want 1: %+v", len(r.Found), r.Found)
	}
	if got := r.Found[0].Text; got != "You may not copy or redistribute any content of the site without our written permission." {
		t.Errorf("quote %q: a heading or menu glued to it", got)
	}
}

// A very long enumeration is quoted as the clause that carries the ban,
// marked as cut, and what is quoted stands word for word in the text.
func TestLongSentenceQuotedAsClause(t *testing.T) {
	var parts []string
	for i := range 30 {
		parts = append(parts, "engage in conduct number "+strings.Repeat("x", i%5+3)+" that harms other members")
	}
	long := "You agree that you will not " + strings.Join(parts[:15], ", ") + ", use any robot or scraper to collect content from the Services, " + strings.Join(parts[15:], ", ") + "."
	blocks := page(t, "<html><body><p>"+long+"</p></body></html>")
	r := Read(blocks, "en")
	if len(r.Found) == 0 {
		t.Fatal("the ban in a long sentence was dropped")
	}
	s := r.Found[0]
	if !strings.Contains(s.Text, "use any robot or scraper to collect content from the Services") || !(s.CutBefore || s.CutAfter) || len([]rune(s.Text)) > maxQuoteRunes {
		t.Errorf("clause %q (cut before %v, after %v)", s.Text, s.CutBefore, s.CutAfter)
	}
	if ok, _, _ := extract.Verify(long, s.Text); !ok {
		t.Errorf("clause %q does not verify", s.Text)
	}
	if !s.Objects {
		t.Error("the clause lost its prohibition")
	}
}

// A page in a language we do not read is not read for meaning.
func TestOtherLanguageNotRead(t *testing.T) {
	r := Read(page(t, `<html lang="fr"><body><p>Il est interdit de recourir à des robots pour lire automatiquement les données du site et de les copier.</p></body></html>`), "fr")
	if r.Read || r.Language != "fr" || len(r.Found) != 0 {
		t.Errorf("read %v language %q found %d; want French, not read", r.Read, r.Language, len(r.Found))
	}
}
