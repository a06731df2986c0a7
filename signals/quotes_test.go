package signals

import (
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract"
)

func TestTopicOf(t *testing.T) {
	cases := map[string]string{
		"Dataene er publisert under Norsk lisens for offentlige data.":          TopicLicence,
		"Vårt API er gratis å bruke.":                                           TopicAPI,
		"Automatisert innsamling av innhold er ikke tillatt.":                   TopicScraping,
		"Innholdet kan ikke brukes til å trene kunstig intelligens.":            TopicAI,
		"You may not reproduce or redistribute the content.":                    TopicReuse,
		"Kapitalen i fondet økte i fjor.":                                       "", // "api" inside a word
		"Vi oppdaterer nettsiden hver uke med nyheter fra kommunen.":            "",
		"Text and data mining of this site is reserved under Article 4 of DSM.": TopicAI,
	}
	for s, want := range cases {
		if got := topicOf(s); got != want {
			t.Errorf("topicOf(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestSentences(t *testing.T) {
	got := sentences("Vilkår for bruk\nDette er første setning. Her er nr. 2 i rekken! Og f.eks. denne? Siste linje")
	want := []string{"Vilkår for bruk", "Dette er første setning.", "Her er nr. 2 i rekken!", "Og f.eks. denne?", "Siste linje"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sentences:\n got %q\nwant %q", got, want)
	}
}

func TestFindQuotesVerifiedAndCapped(t *testing.T) {
	var blocks []string
	for i := range 20 {
		blocks = append(blocks, "Lisens nummer "+strings.Repeat("x", i%3+1)+" gjelder for dataene som publiseres her.")
	}
	blocks = append(blocks, "Automatisert innsamling av innhold fra nettstedet er ikke tillatt uten samtykke.")
	text := strings.Join(blocks, " ")
	qs := findQuotes(text, blocks)
	if len(qs) != maxQuotesPerPage {
		t.Fatalf("%d quotes, want the cap %d", len(qs), maxQuotesPerPage)
	}
	topics := map[string]bool{}
	for _, q := range qs {
		topics[q.Topic] = true
		if ok, _, _ := extract.Verify(text, q.Text); !ok || !q.Verified || q.Source != "found" {
			t.Errorf("quote %+v does not verify", q)
		}
	}
	if !topics[TopicScraping] {
		t.Error("the cap crowded out the one scraping sentence: topics should be taken in turn")
	}
}
