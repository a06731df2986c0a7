package terms

import "testing"

// The constructions of design §2.5.1, each on sentences written for this
// test in every language the reader claims: who is bound, negation's
// scope, grants, a licence's steward, bans in forms a word list misses,
// and the unsure middle. want is the stance of the sentence shown ("" when
// nothing is shown), and whether it objects.
func TestConstructions(t *testing.T) {
	cases := []struct {
		name, html string
		topic      string
		stance     string // of the sentence shown; "" when none is shown
		objects    bool
	}{
		// Who is bound: a duty the service takes on about its users' data,
		// or a warning, never objects; a ban on the reader does.
		{"en promise, future passive", `<p>Once you switch this setting off, your future chats will not be used to train our models.</p>`, "", "", false},
		{"en promise, named provider", `<p>The Supplier shall not use Customer Content to train or fine-tune any machine learning model.</p>`, "", "", false},
		{"en promise, processors", `<p>Our subprocessors are required not to use your data for training their own AI models.</p>`, "", "", false},
		{"en warning to uploaders", `<p>Be aware that third parties may scrape the images you post publicly.</p>`, "", "", false},
		{"nb promise", `<p>Vi vil ikke bruke samtalene dine til å trene modellene våre.</p>`, "", "", false},
		{"nn promise", `<p>Vi vil ikkje bruke innhaldet ditt til å trene KI-modellar.</p>`, "", "", false},
		{"da promise", `<p>Vi bruger ikke dine data til at træne AI-modeller.</p>`, "", "", false},
		{"sv promise", `<p>Vi kommer inte att använda dina uppgifter för att träna AI-modeller.</p>`, "", "", false},
		{"en ban on users", `<p>Users must not use the content of this site to train artificial intelligence systems.</p>`, TopicAI, Prohibits, true},
		{"en impersonal ban", `<p>It is prohibited to use automated tools to copy listings from the site.</p>`, TopicScraping, Prohibits, true},
		{"nb ban", `<p>Det er ikke tillatt å bruke innholdet på nettstedet til å trene kunstig intelligens.</p>`, TopicAI, Prohibits, true},
		{"nn ban", `<p>Det er ikkje lov å bruke innhaldet til trening av KI-modellar.</p>`, TopicAI, Prohibits, true},
		{"da ban", `<p>Det er forbudt at bruge indholdet til at træne AI-modeller.</p>`, TopicAI, Prohibits, true},
		{"sv ban", `<p>Det är förbjudet att använda innehållet för att träna AI-modeller.</p>`, TopicAI, Prohibits, true},

		// A negated prohibition permits.
		{"en not prohibited", `<p>Crawling and scraping of this website are not prohibited.</p>`, TopicScraping, Permits, false},
		{"en nothing prohibits", `<p>Nothing in these terms prohibits text and data mining of the articles on this site.</p>`, TopicAI, Permits, false},
		{"en permitted without consent", `<p>Automated access to the articles on this site is permitted without our consent.</p>`, TopicScraping, Permits, false},
		{"en do not prohibit", `<p>We do not prohibit scraping of the public pages of the website.</p>`, TopicScraping, Permits, false},
		{"nb ikke forbudt", `<p>Skraping av nettstedet er ikke forbudt.</p>`, TopicScraping, Permits, false},
		{"nb fritt tillatt uten samtykke", `<p>Automatisk innhenting av dataene er fritt tillatt uten samtykke.</p>`, TopicScraping, Permits, false},
		{"sv inte förbjuden", `<p>Automatiserad insamling av innehållet är inte förbjuden.</p>`, TopicScraping, Permits, false},
		{"da ikke forbudt", `<p>Automatisk indsamling af indholdet er ikke forbudt.</p>`, TopicScraping, Permits, false},

		// A grant is a construction: who grants, to whom, what.
		{"en hereby grants", `<p>Acme hereby grants you a non-exclusive licence to access the Acme API.</p>`, TopicAPI, Permits, false},
		{"en you may … using", `<p>You may download the timetable data using our public API.</p>`, TopicAPI, Permits, false},
		{"nb du kan hente", `<p>Du kan hente avgangstidene gjennom det åpne API-et vårt.</p>`, TopicAPI, Permits, false},
		{"nb kan du laste ned", `<p>Kartdataene kan du laste ned som CSV fra vårt åpne API.</p>`, TopicAPI, Permits, false},
		{"en API as a defined term", `<p>These terms govern the Harbour Data application programming interface (“API”) and its documentation.</p>`, TopicAPI, Describes, false},
		{"en licensed under", `<p>The statistics are licensed under CC BY 4.0.</p>`, TopicLicence, Permits, false},
		{"en free to adapt", `<p>You are free to adapt and republish them, also for commercial purposes.</p>`, TopicLicence, Permits, false},
		{"nb fritt tilgjengelig for bruk", `<p>Informasjonen om rutetidene er fritt tilgjengelig for bruk i egne tjenester.</p>`, TopicLicence, Permits, false},
		{"nb åpne for viderebruk", `<p>Tabellene er åpne for viderebruk under NLOD.</p>`, TopicLicence, Permits, false},
		{"nn open for gjenbruk", `<p>Innhaldet er ope for gjenbruk under CC BY 4.0.</p>`, TopicLicence, Permits, false},
		{"da frit genbrug", `<p>Indholdet må frit genbruges under CC BY 4.0.</p>`, TopicLicence, Permits, false},
		{"sv får använda", `<p>Du får använda och dela uppgifterna fritt enligt CC BY 4.0.</p>`, TopicLicence, Permits, false},

		// A licence's steward is not the site.
		{"en steward", `<p>Creative Commons is not a party to this public licence and gives no warranties.</p>`, "", "", false},
		{"nb steward", `<p>Creative Commons er ikke part i denne lisensen og gir ingen garantier.</p>`, "", "", false},
		{"sv steward", `<p>Creative Commons kan kontaktas via sin webbplats.</p>`, "", "", false},
		{"en licence named after its steward", `<p>Content on this site is available under a Creative Commons Attribution licence.</p>`, TopicLicence, Permits, false},

		// Bans in forms a word list misses.
		{"en engines and agents in a list", `<p>You agree not to:</p><ul><li>deploy any engine, agent, spider or other automated tool to read the site.</li></ul>`, TopicScraping, Prohibits, true},
		{"en engines and agents without a spider", `<p>You agree not to:</p><ul><li>access any part of the site through any engine, software, tool, agent or mechanism.</li></ul>`, TopicScraping, Prohibits, true},
		{"nn robotar i ei liste", `<p>Som brukar av tenesta skal du ikkje:</p><ul><li>bruke robotar, edderkoppar eller andre automatiske verktøy for å hente innhald frå nettstaden.</li></ul>`, TopicScraping, Prohibits, true},
		{"da robotter i en liste", `<p>Du må ikke:</p><ul><li>bruge robotter, spiders eller andre automatiserede værktøjer til at hente indhold fra hjemmesiden.</li></ul>`, TopicScraping, Prohibits, true},
		{"sv robotar i en lista", `<p>Du får inte:</p><ul><li>använda robotar, spindlar eller andra automatiserade verktyg för att hämta innehåll från webbplatsen.</li></ul>`, TopicScraping, Prohibits, true},
		{"en large-scale copying", `<p>Large-scale copying of the listings is prohibited.</p>`, TopicScraping, Prohibits, true},
		{"en systematic retrieval", `<p>Systematic retrieval of articles from the archive is not allowed.</p>`, TopicScraping, Prohibits, true},
		{"en people with a browser", `<p>The website is intended solely for people reading it in a web browser.</p>`, TopicScraping, Prohibits, true},
		{"nb mennesker", `<p>Nettstedet er kun beregnet for mennesker som bruker en nettleser.</p>`, TopicScraping, Prohibits, true},
		{"sv webbläsare", `<p>Webbplatsen är endast avsedd att användas av människor via en webbläsare.</p>`, TopicScraping, Prohibits, true},
		{"en by its consequence", `<p>Using scrapers on the site may result in termination of your account.</p>`, TopicScraping, Prohibits, true},
		{"sv by its consequence", `<p>Automatiserad insamling av innehåll kan leda till avstängning.</p>`, TopicScraping, Prohibits, true},
		{"en list after a full stop", `<p>Members shall not engage in any of the following acts.</p><ol><li>Harvesting the profiles of other members with bots,</li></ol>`, TopicScraping, Prohibits, true},

		// Sentences that rule nothing of their own, and a lead-in that takes
		// a grant back.
		{"en acceptance", `<p>By using the service you agree to be bound by these terms and by the licence of its content.</p>`, "", "", false},
		{"nb acceptance", `<p>Ved å bruke tjenesten godtar du å være bundet av disse vilkårene og lisensen for innholdet.</p>`, "", "", false},
		{"sv definition", `<p>Med Licensgivaren avses den som beviljar rättigheter enligt denna licens.</p>`, "", "", false},
		{"en lead-in takes the grant back", `<p>Browsing the site does not</p><ul><li>grant you any right to reproduce the content of the site.</li></ul>`, TopicLicence, Prohibits, false},
		{"en content subject to a licence", `<p>The content of this site is subject to the Open Photo Licence of the publisher.</p>`, TopicLicence, Describes, false},

		// The DSM Directive's opt-out, and other forms of a reservation.
		{"en TDM reservation", `<p>We expressly reserve our rights to use the content of this website for text and data mining under Article 4(3) of Directive (EU) 2019/790.</p>`, TopicAI, Prohibits, true},
		{"en all rights to TDM", `<p>The publisher reserves all rights to text and data mining of its articles.</p>`, TopicAI, Prohibits, true},
		{"nb reserverer seg mot TDM", `<p>Vi reserverer oss mot tekst- og datautvinning, jf. åndsverkloven § 13 b.</p>`, TopicAI, Prohibits, true},
		{"en fine-tune on our content", `<p>Any use of our content to train, fine-tune or evaluate machine learning models is prohibited without a written licence.</p>`, TopicAI, Prohibits, true},
		{"en crawling welcome", `<p>Crawling of the site is welcome, provided that you respect robots.txt.</p>`, TopicScraping, Permits, false},
		{"nb kan fritt brukes", `<p>Dataene kan fritt brukes og deles, også kommersielt, så lenge kilden oppgis.</p>`, TopicLicence, Permits, false},
		{"nb ikke gjengis", `<p>Artiklene kan deles med lenke, men ikke gjengis i sin helhet.</p>`, TopicLicence, Prohibits, false},

		// A list's lead-in that grants gives its items: what is granted
		// stands after the colon.
		{"en grant through a lead-in", `<p>2.1 We grant you a right to access and use the following services of the platform under these terms: Public API access to the timetable data, and bulk downloads of the same data.</p>`, TopicAPI, Permits, false},
		{"en grant in a list", `<p>Subject to these terms, we grant you a licence to:</p><ul><li>the Open Data API and its documentation.</li></ul>`, TopicAPI, Permits, false},
		{"nb grant in a list", `<p>Vi gir deg rett til å bruke følgende tjenester fra oss:</p><ul><li>API-et for rutetider og dokumentasjonen av det.</li></ul>`, TopicAPI, Permits, false},

		// Export control is no data export.
		{"en export control", `<p>You may not use the service in any manner that violates any laws about exporting data or software to and from any countries.</p>`, "", "", false},
		{"nb eksportkontroll", `<p>Du kan ikke bruke tjenesten i strid med regler om eksport av data eller programvare til andre land.</p>`, "", "", false},

		// The unsure middle: on topic, about the site's content, undecided.
		{"en undecided AI sentence", `<p>The content of this site is sometimes used to train AI models by third parties.</p>`, TopicAI, Describes, false},
		{"nb undecided AI sentence", `<p>Forlaget har ikke inngått avtaler om bruk av artiklene til trening av kunstig intelligens.</p>`, TopicAI, Describes, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Read(page(t, "<html><body>"+c.html+"</body></html>"), c.name[:2]) // as the page's lang attribute
			if !r.Read {
				t.Fatalf("language %q not read", r.Language)
			}
			if c.stance == "" {
				for _, s := range r.Found {
					t.Errorf("shown %s/%s objects=%v (words %q): %q; want nothing shown", s.Topic, s.Stance, s.Objects, s.Words, s.Text)
				}
				return
			}
			if len(r.Found) == 0 {
				t.Fatalf("nothing shown (others: %+v); want %s/%s", r.Others, c.topic, c.stance)
			}
			s := r.Found[0]
			if s.Topic != c.topic || s.Stance != c.stance || s.Objects != c.objects {
				t.Errorf("shown %s/%s objects=%v (words %q); want %s/%s objects=%v", s.Topic, s.Stance, s.Objects, s.Words, c.topic, c.stance, c.objects)
			}
			if len(s.Words) == 0 {
				t.Error("no words named as deciding")
			}
		})
	}
}

// Sentences that must never be read as an objection, whatever else they
// are shown as: promises, warnings, AI named in passing, negated bans.
func TestNoFalseObjection(t *testing.T) {
	for _, c := range []struct{ name, html string }{
		{"en attributive AI", `<p>You agree not to:</p><ul><li>sell copies of the sample images used to train the models of our partners.</li></ul>`},
		{"en opted out", `<p>Where possible, the platform has opted out of model training with every provider it uses.</p>`},
		{"en user's choice", `<p>You can opt out of training at any time, and your chats will then not be used to improve our models.</p>`},
		{"en no longer identifiable", `<p>Data that can no longer identify you may be used by us for research and model training.</p>`},
		{"en no reservation", `<p>We do not reserve any rights against text and data mining of the articles on this site.</p>`},
		{"en the service's own right", `<p>We reserve the right to use publicly available posts to train and improve our models.</p>`},
		{"en a licence of another model", `<p>You will not use the Foo-Derived Model or any output of it to train, improve, or fine-tune any other model.</p>`},
		{"en purpose clause", `<p>Label generated images so as not to mislead others about how they were made with AI.</p>`},
		{"en piracy", `<p>You may not post pirated computer programs or links to another person's copyrighted work.</p>`},
		{"nb promise", `<p>Leverandørene våre skal ikke bruke dataene dine til å trene egne KI-modeller.</p>`},
		{"nb our processors", `<p>Underleverandørene våre har ikke lov til å bruke opplysningene dine til å trene KI-modeller.</p>`},
		{"nb never", `<p>Vi kommer aldri til å bruke tekstene du sender inn til å trene KI.</p>`},
		{"en our contractors", `<p>Our contractors must not use traveller data to train language models.</p>`},
		{"en the member's own data", `<p>When you sign in with a phone number, no information on the Member may be automatically collected from other networks.</p>`},
		{"nb not forbidden", `<p>Det er ikke forbudt å bruke automatiske verktøy for å lese nettstedet.</p>`},
		{"sv promise", `<p>Vi kommer inte att använda ditt innehåll för att träna AI-modeller.</p>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Read(page(t, "<html><body>"+c.html+"</body></html>"), c.name[:2])
			for _, s := range r.Found {
				if s.Objects {
					t.Errorf("counted as an objection (%s/%s, words %q): %q", s.Topic, s.Stance, s.Words, s.Text)
				}
			}
		})
	}
}

// Sentences that grant nothing to the reader: a relative clause naming
// what the terms cover, a limit, the service's own permission.
func TestNoGrantRead(t *testing.T) {
	for _, c := range []struct{ name, html string }{
		{"en relative clause", `<p>These terms set out the conditions under which you may use, copy and share the content of the site.</p>`},
		{"en limit", `<p>You may only use the content of the site for your own private reading.</p>`},
		{"en service's own permission", `<p>We may use, copy and modify the content you upload to improve the service.</p>`},
		{"en suggestions", `<p>We will be free to use, copy, publish or redistribute any suggestions you send us.</p>`},
		{"nb tjenestens egen bruk", `<p>Vi kan fritt bruke og kopiere innholdet du laster opp.</p>`},
		{"en conceded grant", `<p>Although these terms grant you permission to read the articles, we are not granting you any rights in the content, data or intellectual property of the site.</p>`},
		{"nb conceded grant", `<p>Selv om du kan lese artiklene, gir vi deg ingen lisens til innholdet på nettstedet.</p>`},
		{"sv conceded grant", `<p>Även om du får läsa artiklarna ger vi dig ingen licens till innehållet på webbplatsen.</p>`},
		{"en no rights granted", `<p>Reading the site grants you no licence to copy its content.</p>`},
		{"da ingen licens", `<p>Brugen af hjemmesiden giver dig ingen licens til indholdet.</p>`},
		{"en ceasing", `<p>If you remove from the site any content covered by this licence, our systems will stop making that content publicly available.</p>`},
		{"en the member grants the service", `<p>The Member grants the company a free-of-charge licence to reproduce the photos the Member uploads.</p>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Read(page(t, "<html><body>"+c.html+"</body></html>"), c.name[:2])
			for _, s := range r.Found {
				if s.Stance == Permits {
					t.Errorf("read as a grant to the reader (%s, words %q): %q", s.Topic, s.Words, s.Text)
				}
			}
		})
	}
}
