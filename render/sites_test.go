package render

import (
	"fmt"

	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
)

// Synthetic findings for the render tests: built here, not crawled, so the
// golden files change only when the templates do.

func ptr[T any](v T) *T { return &v }

// hist is a site's history: the batches that read it, oldest first.
func hist(batches ...string) []signals.BatchVerdicts {
	var out []signals.BatchVerdicts
	for _, b := range batches {
		out = append(out, signals.BatchVerdicts{Batch: b, AIUse: "no-objection-found", Disallowed: []string{}, Unknown: []string{}})
	}
	return out
}

func testAgents(aiAllowed bool, line int) []signals.Agent {
	return []signals.Agent{
		{Agent: "crawlsignals", ParserToken: "crawlsignals", Operator: "crawlsignals", Purpose: "this directory", Category: "ours", Group: "own", RootAllowed: ptr(true), Line: 4},
		{Agent: "Googlebot", ParserToken: "Googlebot", Operator: "Google", Purpose: "crawls for Google Search", Category: "search", Group: "star", RootAllowed: ptr(true)},
		{Agent: "GPTBot", ParserToken: "GPTBot", Operator: "OpenAI", Purpose: "collects pages that may train OpenAI's models", Category: "ai-training", Group: "own", RootAllowed: ptr(aiAllowed), Line: line},
		{Agent: "Google-Extended", ParserToken: "Google-Extended", Note: "A token only.", Operator: "Google", Purpose: "decides whether pages may train Gemini", Category: "ai-training", Group: "star", RootAllowed: ptr(true)},
		{Agent: "ia_archiver", ParserToken: "ia_archiver", Operator: "Internet Archive", Purpose: "archive crawls", Category: "archive", Group: "star", RootAllowed: ptr(true)},
	}
}

// unknownAgents is what a file we could not read says to each agent:
// nobody knows.
func unknownAgents(agents []signals.Agent) []signals.Agent {
	for i := range agents {
		agents[i].RootAllowed, agents[i].Group, agents[i].Line = nil, "unknown", 0
	}
	return agents
}

// fullSite has something in every section of a site's page.
func fullSite() *signals.Site {
	q := func(url, text, topic string) signals.Quote {
		return signals.Quote{URL: url, Text: text, Topic: topic, Source: "found", Verified: true, ReadAt: "2026-12-01T06:00:10Z"}
	}
	api := q("https://kommune.test/apne-data", "Alle datasettene er tilgjengelige gjennom kommunens åpne API, gratis og uten nøkkel.", "api")
	lic := q("https://kommune.test/apne-data", "Dataene er publisert under Norsk lisens for offentlige data (NLOD) 2.0.", "licence")
	scraping := q("https://kommune.test/apne-data", "Automatisert innsamling av innhold er ikke tillatt uten skriftlig samtykke.", "scraping")
	scraping.Objects = "prohibits"
	// As the terms reader reads them (design §2.5.1): the prohibition is
	// the strongest, then the grant, then the API.
	scraping.Stance, scraping.Subject, scraping.Kind, scraping.Rank = "prohibits", "site", "scraping ban", 1
	scraping.Words = []string{"Automatisert innsamling", "ikke tillatt"}
	lic.Stance, lic.Subject, lic.Rank, lic.Words = "permits", "site", 2, []string{"lisens", "NLOD"}
	api.Stance, api.Subject, api.Rank, api.Words = "permits", "site", 3, []string{"åpne API", "gratis"}
	return &signals.Site{
		Host: "kommune.test", Name: "Eksempel kommune", URL: "https://kommune.test/", Category: "public-sector",
		Hosts: []string{"kommune.test", "data.kommune.test"}, Batch: "20261201T060000Z", ReadAt: ptr("2026-12-01T06:00:00Z"),
		History: hist("20261101T060000Z", "20261201T060000Z"),
		Notes:   "A municipality with open data.",
		Robots: signals.Robots{
			Host: "kommune.test", URL: "https://kommune.test/robots.txt", Status: 200, Outcome: "rules",
			Meaning: "robots.txt answered HTTP 200 with rules; the table shows what they say to each crawler.",
			SHA256:  "95749183eba99ed1570d6d86e2cd8c84018a509eb7d01aa74ac89718d4116dc4", CrawlDelaySeconds: ptr(3.0),
			Sitemaps: []string{"https://kommune.test/sitemap.xml"}, Agents: testAgents(false, 9),
			CommentQuotes: []string{"Automatisert innhenting av innhold er forbudt uten samtykke."},
			Groups: []signals.Group{
				{Agents: []string{"crawlsignals"}, FirstLine: 3, LastLine: 5, Disallows: 1, ExampleDisallowed: []string{"/sok"}, CrawlDelay: ptr(3.0)},
				{Agents: []string{"GPTBot", "CCBot"}, FirstLine: 8, LastLine: 9, Disallows: 1, ExampleDisallowed: []string{"/"}, DisallowsRoot: true},
				{Agents: []string{"*"}, FirstLine: 11, LastLine: 13, Allows: 1, Disallows: 2, ExampleDisallowed: []string{"/sok", "/intern/"}},
			},
			ContentSignals: []signals.ContentSignal{{Kind: "Content-Signal", Agents: []string{"*"}, Line: 12, Text: "search=yes, ai-train=no", Values: map[string]string{"search": "yes", "ai-train": "no"}}},
			ContentType:    "text/plain; charset=utf-8",
			Lines: []string{"# Fjordvik kommune", "# Automatisert innhenting av innhold er forbudt uten samtykke.", "User-agent: crawlsignals",
				"Crawl-delay: 3", "Disallow: /sok", "", "User-agent: GPTBot", "User-agent: CCBot", "Disallow: /", "",
				"User-agent: *", "Content-Signal: search=yes, ai-train=no", "Disallow: /sok"},
			LineCount: 13,
		},
		OtherRobots: []signals.Robots{{Host: "data.kommune.test", URL: "https://data.kommune.test/robots.txt", Status: 404, Outcome: "none",
			Meaning: "robots.txt answered HTTP 404: no rules, so every crawler may read everything.", Agents: testAgents(true, 0)}},
		Read: []signals.Document{
			{URL: "https://kommune.test/", FinalURL: "https://kommune.test/", Status: 200, ContentType: "text/html", FoundVia: "home", Role: "home", Title: "Fjordvik kommune", SHA256: "06c7", Chars: 922, ReadAt: "2026-12-01T06:00:02Z"},
			{URL: "https://kommune.test/apne-data", FinalURL: "https://kommune.test/apne-data/", Status: 200, ContentType: "text/html", FoundVia: "footer", Role: "policy", LinkText: "Åpne data", Title: "Åpne data – Fjordvik kommune", SHA256: "09ae", Chars: 893, ReadAt: "2026-12-01T06:00:10Z"},
			{URL: "https://kommune.test/nutzung", FinalURL: "https://kommune.test/nutzung", Status: 200, ContentType: "text/html", FoundVia: "hop", Role: "policy", LinkText: "Nutzungsbedingungen", Title: "Nutzungsbedingungen", SHA256: "3f1e", Chars: 4120, ReadAt: "2026-12-01T06:00:12Z", Language: "de", NotReadForMeaning: true},
			{URL: "https://kommune.test/vilkar.pdf", FinalURL: "https://kommune.test/vilkar.pdf", Status: 200, ContentType: "application/pdf", FoundVia: "hop", Role: "policy", LinkText: "Vilkår (PDF)", SHA256: "14d7", ReadAt: "2026-12-01T06:00:14Z", TextError: "the PDF has no text layer"},
			{URL: "https://kommune.test/.well-known/security.txt", FinalURL: "https://kommune.test/.well-known/security.txt", Status: 200, ContentType: "text/plain", FoundVia: "well-known", Role: "file", SHA256: "582b", Chars: 249, ReadAt: "2026-12-01T06:00:16Z"},
			{URL: "https://kommune.test/llms.txt", FinalURL: "https://kommune.test/llms.txt", Status: 200, ContentType: "text/plain", FoundVia: "llms", Role: "file", SHA256: "8ca6", Chars: 497, ReadAt: "2026-12-01T06:00:18Z"},
			{URL: "https://kommune.test/sitemap.xml", FinalURL: "https://kommune.test/sitemap.xml", Status: 200, ContentType: "application/xml", FoundVia: "robots-named", Role: "listing", SHA256: "9c1b", Chars: 926, ReadAt: "2026-12-01T06:00:20Z"},
		},
		NotRead: []signals.Gap{
			{URL: "https://kommune.test/personvern", Reason: "robots-disallowed", Detail: "https://kommune.test/robots.txt line 5 disallows crawlsignals", FoundVia: "footer", LinkText: "Personvern"},
			{URL: "https://kommune.test/.well-known/api-catalog", Reason: "server-error", Detail: "HTTP 500", FoundVia: "well-known", Status: 500},
			{URL: "https://facebook.test/kommune", Reason: "off-list", Detail: "facebook.test is not reviewed for this site", FoundVia: "footer", LinkText: "Facebook"},
		},
		NotPublished: []string{"https://kommune.test/.well-known/tdmrep.json", "https://kommune.test/.well-known/gpc.json"},
		Quotes: []signals.Quote{api, lic,
			scraping,
			{URL: "https://kommune.test/om", Text: "Vi deler data fritt.", Topic: "licence", Source: "curated", Verified: false, ReadAt: "2026-12-01T06:00:12Z", File: "content/sites/kommune.test.md", Line: 4, Problem: "not found"},
		},
		OpenByDesign: signals.OpenVerdict{Verdict: ptr(true), Why: "Open API, feed or export and a stated licence, both quoted.", API: &api, Licence: &lic},
		AIUse: signals.AIUse{Verdict: "refused", Why: "robots.txt disallows 1 of 2 AI training crawlers (GPTBot); a Content-Signal line objects; a sentence of the terms objects.",
			Refused: []string{"GPTBot", "Google-Extended"}, RobotsRefused: []string{"GPTBot"}, RobotsAllowed: []string{"Google-Extended"},
			Sources: []signals.AISource{
				{Kind: "robots", Says: "Disallows / for GPTBot", URL: "https://kommune.test/robots.txt", Line: 9, Objects: "some", WholeSite: true},
				{Kind: "content-signal", Says: "Content-Signal: search=yes, ai-train=no (for *)", URL: "https://kommune.test/robots.txt", Line: 12, Objects: "some", WholeSite: true},
				{Kind: "tdmrep", Says: "Text and data mining rights reserved (header)", URL: "https://kommune.test/", Objects: "all", WholeSite: true},
				{Kind: "terms", Says: scraping.Text, URL: scraping.URL, Objects: "all", Term: "scraping ban", WholeSite: true},
			},
			Crawlers: []signals.AICrawler{
				{Agent: "GPTBot", Robots: "disallowed", Group: "own", Refused: true, Objections: []int{0, 2, 3}},
				{Agent: "Google-Extended", Robots: "allowed", Group: "star", Refused: true, Objections: []int{1, 2, 3}},
			}},
		Signals: signals.Signals{
			SecurityTxt:    &signals.SecurityTxt{URL: "https://kommune.test/.well-known/security.txt", Contact: []string{"mailto:sikkerhet@kommune.test", "https://kommune.test/sikkerhet"}, Expires: "2026-01-01T00:00:00Z", Expired: true},
			LLMsTxt:        &signals.LLMsTxt{URL: "https://kommune.test/llms.txt", Title: "Fjordvik kommune", Summary: "Åpne data og tjenester.", Links: []signals.LLMLink{{Text: "API", URL: "https://data.kommune.test/api"}}},
			TDMReservation: &signals.TDMRep{Source: "header", URL: "https://kommune.test/", Reservation: true},
			TDM:            []signals.TDMRep{{Source: "header", URL: "https://kommune.test/", Reservation: true}, {Source: "meta", URL: "https://kommune.test/", Reservation: false}},
			Headers:        []signals.HeaderSignal{{URL: "https://kommune.test/", Source: "header", Name: "tdm-reservation", Value: "1"}},
		},
		Licences: []signals.Licence{{Name: "NLOD 2.0", URL: "https://kommune.test/apne-data", Quote: lic.Text, Via: "text"}},
		Contradictions: []signals.Contradiction{{Kind: "tdm-reservation-without-policy", What: "Text and data mining rights are reserved without a policy."},
			{Kind: "robots-allows-content-signal-objects", What: "robots.txt lets 1 of 2 AI training crawlers read the home page (Google-Extended), while a Content-Signal line objects to AI training.", Quotes: []string{"Content-Signal: search=yes, ai-train=no (for *)"}}},
		Changes: []signals.Change{{Batch: "20261201T060000Z", Previous: "20261101T060000Z", ReadAt: "2026-12-01T06:00:00Z",
			Items: []string{"GPTBot may no longer read /.", "Open by design: now yes."}, Kinds: []string{"agents", "verdict"},
			Diffs: []signals.Diff{
				{URL: "https://kommune.test/robots.txt", What: "robots", Added: []string{"User-agent: GPTBot", "Disallow: /"}, Removed: []string{}},
				{URL: "https://kommune.test/vilkar", What: "document", Added: []string{"Dataene er publisert under NLOD 2.0."}, Removed: []string{"Alle rettigheter forbeholdt."}, MoreRemoved: 2},
			}}},
	}
}

// directorySites is a small directory: every kind of row.
func directorySites() []*signals.Site {
	blocked := &signals.Site{Host: "stopp.test", Name: "Stoppet AS", URL: "https://stopp.test/", Category: "other", Hosts: []string{"stopp.test"},
		Batch: "20261201T060000Z", Blocked: true, BlockedSince: "2026-11-15",
		AIUse:        signals.AIUse{Verdict: "unknown", Why: "The site asked us to stop, so we sent no request and do not know what its robots.txt says."},
		Robots:       signals.Robots{Host: "stopp.test", Outcome: "not-read", Meaning: "Not read: the site asked us to stop on 2026-11-15."},
		NotRead:      []signals.Gap{{URL: "https://stopp.test/", Reason: "asked-to-stop", Detail: "blocked since 2026-11-15", FoundVia: "home"}},
		OpenByDesign: signals.OpenVerdict{Why: "The site asked us to stop, so we read nothing."}}
	down := &signals.Site{Host: "nede.test", Name: "Nede AS", URL: "https://nede.test/", Category: "other", Hosts: []string{"nede.test"},
		Batch: "20261201T060000Z", ReadAt: ptr("2026-12-01T06:00:03Z"), History: hist("20261201T060000Z"),
		Robots: signals.Robots{Host: "nede.test", URL: "https://nede.test/robots.txt", Status: 503, Outcome: "not-read", Reason: "robots-unavailable",
			Meaning: "robots.txt answered HTTP 503, a server error, so we do not know what it says to any crawler.", Agents: unknownAgents(testAgents(false, 0))},
		NotRead:      []signals.Gap{{URL: "https://nede.test/robots.txt", Reason: "robots-unavailable", Detail: "HTTP 503", FoundVia: "robots", Status: 503}},
		AIUse:        signals.AIUse{Verdict: "unknown", Why: "robots.txt was not read (it answered HTTP 503), so we do not know what it says to any crawler."},
		OpenByDesign: signals.OpenVerdict{Why: "robots.txt was not read, so we read no page of the site."}}
	shop := &signals.Site{Host: "butikk.test", Name: "Ærlig butikk", URL: "https://butikk.test/", Category: "shop", Hosts: []string{"butikk.test"},
		Batch: "20261101T060000Z", ReadAt: ptr("2026-11-01T06:00:00Z"), History: hist("20261101T060000Z"),
		Robots:       signals.Robots{Host: "butikk.test", URL: "https://butikk.test/robots.txt", Status: 404, Outcome: "none", Meaning: "No robots.txt.", Agents: testAgents(true, 0)},
		Read:         []signals.Document{{URL: "https://butikk.test/", FoundVia: "home", Role: "home", Status: 200, ReadAt: "2026-11-01T06:00:01Z"}},
		AIUse:        signals.AIUse{Verdict: "no-objection-found", Why: "robots.txt lets every AI training crawler we report on read the home page, and nothing else we read objects to AI training.", RobotsAllowed: []string{"GPTBot", "Google-Extended"}},
		OpenByDesign: signals.OpenVerdict{Verdict: ptr(false), Why: "Licence stated, no official API found."}}
	fresh := &signals.Site{Host: "ny.test", Name: "Østre register", URL: "https://ny.test/", Category: "public-sector", Hosts: []string{"ny.test"},
		Robots: signals.Robots{Outcome: "not-read", Meaning: "Not read yet."},
		AIUse:  signals.AIUse{Verdict: "unknown", Why: "Not read yet."}, OpenByDesign: signals.OpenVerdict{Why: "The site has not been read yet."}}
	register := &signals.Site{Host: "register.test", Name: "Åpent register", URL: "https://register.test/", Category: "public-sector", Hosts: []string{"register.test"},
		Batch: "20261201T060000Z", ReadAt: ptr("2026-12-01T06:00:05Z"), History: hist("20261201T060000Z"),
		Robots: signals.Robots{Host: "register.test", URL: "https://register.test/robots.txt", Status: 200, Outcome: "rules", Meaning: "Rules.",
			Agents: append(testAgents(true, 2), signals.Agent{Agent: "CCBot", Category: "ai-training", Group: "own", RootAllowed: ptr(false), Line: 7})},
		AIUse: signals.AIUse{Verdict: "partly-refused", Why: "robots.txt disallows 1 of 3 AI training crawlers (CCBot).", Refused: []string{"CCBot"}, RobotsRefused: []string{"CCBot"}, RobotsAllowed: []string{"GPTBot", "Google-Extended"},
			Crawlers: []signals.AICrawler{{Agent: "GPTBot", Robots: "allowed"}, {Agent: "Google-Extended", Robots: "allowed"}, {Agent: "CCBot", Robots: "disallowed", Refused: true, Objections: []int{0}}},
			Sources:  []signals.AISource{{Kind: "robots", Says: "Disallows / for CCBot", URL: "https://register.test/robots.txt", Line: 7, Objects: "some"}}},
		OpenByDesign: signals.OpenVerdict{Verdict: ptr(false), Why: "API found, licence not stated."}}
	avis := &signals.Site{Host: "avis.test", Name: "avisa", URL: "https://avis.test/", Category: "news", Hosts: []string{"avis.test"},
		Batch: "20261201T060000Z", ReadAt: ptr("2026-12-01T06:00:04Z"), History: hist("20261201T060000Z"),
		Robots:       signals.Robots{Host: "avis.test", URL: "https://avis.test/robots.txt", Status: 200, Outcome: "rules", Meaning: "Rules.", Agents: testAgents(true, 3)},
		AIUse:        signals.AIUse{Verdict: "no-objection-found", Why: "robots.txt lets every AI training crawler we report on read the home page, and nothing else we read objects to AI training.", RobotsAllowed: []string{"GPTBot", "Google-Extended"}},
		OpenByDesign: signals.OpenVerdict{Verdict: ptr(false), Why: "Neither found."}}
	return []*signals.Site{fullSite(), blocked, down, shop, fresh, register, avis}
}

// manySites makes n synthetic sites as a big directory would have them:
// every section filled, names spread over the alphabet (Norwegian letters
// included), categories mixed.
func manySites(n int) []*signals.Site {
	agents := manyAgents()
	out := make([]*signals.Site, n)
	for i := range out {
		out[i] = manySite(i, agents)
	}
	return out
}

// manyAgents are every agent of the real list, as a real page has them.
func manyAgents() []signals.Agent {
	var agents []signals.Agent
	for i, a := range robots.Agents() {
		agents = append(agents, signals.Agent{Agent: a.Token, ParserToken: a.ParserToken(), Note: a.Note, Operator: a.Operator,
			Purpose: a.Purpose, Category: a.Category, Group: "star", RootAllowed: ptr(i%3 != 0), Line: 4 + i%5})
	}
	return agents
}

// manySite is site i of manySites, made on its own (a benchmark streams
// them without holding every one).
func manySite(i int, agents []signals.Agent) *signals.Site {
	cats := []string{"public-sector", "news", "reference", "legal", "education", "transport", "marketplace", "shop", "bank", "telecom", "technology", "other"}
	first := []string{"Aker", "Bergen", "Dal", "Eid", "Fjord", "Grønn", "Hav", "Is", "Kyst", "Li", "Mo", "Nord", "Os", "Sør", "Tind", "Vik", "Ærø", "Øy", "Ås"}
	s := fullSite()
	s.Robots.Agents = agents
	s.Host = fmt.Sprintf("site%05d.test", i)
	s.Name = fmt.Sprintf("%s %s %d", first[i%len(first)], first[(i/len(first))%len(first)], i)
	s.URL = "https://" + s.Host + "/"
	s.Category = cats[i%len(cats)]
	s.Hosts = []string{s.Host}
	s.OtherRobots = nil
	s.OpenByDesign.Verdict = ptr(i%7 == 0)
	if i%13 == 0 {
		s.NotRead = nil
	}
	return s
}
