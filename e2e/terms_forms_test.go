package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/signals"
)

// Bans in forms a word list misses (issue "The terms read right on
// documents the reader was never tuned to", design §2.5.1), end to end: the
// fixture web's forbud.test (testdata/web/README.md) states its bans as a
// numbered list after a sentence ending in "følgende.", a Nynorsk list
// with the verb before its subject, "storskala kopiering", an English list
// item of "any engine, software, tool, agent", a use reserved to people at
// a browser, and a rule stated by its consequence. Each is published as a
// quote that objects, of the kind "scraping ban", and the site's AI use is
// refused on the strength of them alone (robots.txt allows all).
func TestBansInOtherFormsEndToEnd(t *testing.T) {
	const list = `[[site]]
name = "Fjellposten"
url = "https://forbud.test/"
hosts = ["forbud.test"]
category = "news"
notes = "bans in forms a word list misses"
`
	var site signals.Site
	synctest.Test(t, func(t *testing.T) {
		l, batches, _ := crawlWeb(t, crawlsignals.FixtureWeb(), list, "")
		out := buildTo(t, l, batches, derived.Options{})
		raw, err := os.ReadFile(filepath.Join(out, "sites", "forbud.test", "signals.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &site); err != nil {
			t.Fatal(err)
		}
	})
	bans := []string{
		"Hente ut artikler fra nettstedet med roboter eller andre automatiserte verktøy.",
		"bruke robotar eller andre automatiske verktøy for å hente innhald frå nettstaden.",
		"Storskala kopiering av artiklane våre er forbode.",
		"access any part of the site through any engine, software, tool, agent or other mechanism;",
		"The website is intended solely for people reading it in a web browser.",
		"Automatisert innsamling av innhold fra nettstedet kan føre til utestenging.",
	}
	for _, ban := range bans {
		var found *signals.Quote
		for i, q := range site.Quotes {
			if strings.Contains(ban, q.Text) || strings.Contains(q.Text, ban) {
				found = &site.Quotes[i]
			}
		}
		switch {
		case found == nil:
			t.Errorf("not quoted: %q", ban)
		case found.Objects == "" || found.Kind != "scraping ban" || found.Stance != "prohibits":
			t.Errorf("%q: quoted as %s/%s, objects_to_ai %q, kind %q; want a scraping ban that objects", ban, found.Topic, found.Stance, found.Objects, found.Kind)
		}
	}
	for _, q := range site.Quotes {
		if strings.Contains(q.Text, "abonnementet") {
			t.Errorf("a rule on reselling a subscription is quoted: %q (%s/%s)", q.Text, q.Topic, q.Stance)
		}
	}
	if site.AIUse.Verdict != signals.AIRefused {
		t.Errorf("ai_use.verdict = %q, want %q: %s", site.AIUse.Verdict, signals.AIRefused, site.AIUse.Why)
	}
}

// The demo's two sentences the issue names: a licence sentence of
// register.test is a grant, not a description; the AI sentence of
// avis.test's licensing page, about the site's content and deciding
// nothing, is quoted as describing.
func TestDemoTermsSentencesReadRight(t *testing.T) {
	r := crawlFixtureWeb(t)
	cases := []struct {
		host, text, topic, stance string
	}{
		{"register.test", "Dataene er åpne for gjenbruk under CC BY 4.0", signals.TopicLicence, "permits"},
		{"avis.test", "Vi inngår ikke avtaler om bruk av innhold til trening av språkmodeller.", signals.TopicAI, "describes"},
	}
	for _, c := range cases {
		s := r.sites[c.host]
		if s == nil {
			t.Fatalf("%s: no signals.json", c.host)
		}
		var got *signals.Quote
		for i, q := range s.Quotes {
			if strings.Contains(q.Text, c.text) {
				got = &s.Quotes[i]
			}
		}
		if got == nil {
			t.Errorf("%s: %q is not quoted", c.host, c.text)
			continue
		}
		if got.Topic != c.topic || got.Stance != c.stance || got.Objects != "" {
			t.Errorf("%s: %q quoted as %s/%s objects %q; want %s/%s, no objection", c.host, c.text, got.Topic, got.Stance, got.Objects, c.topic, c.stance)
		}
	}
}
