package signals

import "testing"

// Sentences that prohibit AI use, text and data mining, scraping or
// automated collection count as objections (design §2.8); other
// prohibitions, and AI sentences that prohibit nothing, do not.
func TestProhibitsAI(t *testing.T) {
	cases := []struct {
		sentence string
		objects  bool
	}{
		{"Det er ikke tillatt å hente ut innhold fra nettstedet ved hjelp av roboter, skrapere eller andre automatiserte verktøy.", true},
		{"Automatisert innsamling av innhold fra nettstedet er ikke tillatt uten skriftlig samtykke.", true},
		{"Innholdet kan ikke brukes til trening av kunstig intelligens.", true},
		{"You may not use the Service to train artificial intelligence models.", true},
		{"Text and data mining of the content is prohibited.", true},
		{"Scraping the website is not permitted without written consent.", true},
		{"Accounts registered by \"bots\" or other automated methods are not permitted.", false},
		{"You must not share your password with anyone.", false},
		{"We use artificial intelligence to recommend articles.", false},
		{"Du kan ikke reservere deg mot nyhetsbrevet.", false},
	}
	for _, c := range cases {
		if got := prohibitsAI(c.sentence) != ""; got != c.objects {
			t.Errorf("%q: objects = %v, want %v", c.sentence, got, c.objects)
		}
	}
}
