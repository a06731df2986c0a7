package signals

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/sites"
)

func TestFindLicences(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"Dataene er publisert under Norsk lisens for offentlige data (NLOD) 2.0, og kan brukes fritt.", []string{"NLOD 2.0"}},
		{"Alle data er lisensiert under Creative Commons Navngivelse 4.0 Internasjonal (CC BY 4.0).", []string{"CC BY 4.0"}},
		{"Content is available under CC BY-SA 3.0 unless otherwise noted.", []string{"CC BY-SA 3.0"}},
		{"The map data is licensed under the Open Database License (ODbL) 1.0 by the foundation.", []string{"ODbL 1.0"}},
		{"We dedicate the metadata to the public domain under CC0 so anyone may use it.", []string{"CC0 1.0"}},
		{"Reuse follows Commission Decision 2011/833/EU on the reuse of documents.", []string{"EU Commission Decision 2011/833"}},
		{"Du finner data under NLOD og CC BY 4.0 på denne siden i dag.", []string{"NLOD", "CC BY 4.0"}},
		{"Our accessibility statement says nothing of licences at all.", nil},
		{"An NLODX token is not a licence name at all here.", nil},
	}
	for _, c := range cases {
		got := findLicences("https://x.test/", c.text, nil, nil)
		var names []string
		for _, l := range got {
			names = append(names, l.Name)
			if ok, _, _ := extract.Verify(c.text, l.Quote); !ok {
				t.Errorf("quote %q does not verify", l.Quote)
			}
		}
		if len(names) != len(c.want) {
			t.Errorf("%q: got %v, want %v", c.text, names, c.want)
			continue
		}
		for i := range names {
			if names[i] != c.want[i] {
				t.Errorf("%q: got %v, want %v", c.text, names, c.want)
			}
		}
	}
}

func TestLicenceByURL(t *testing.T) {
	text := "Innholdet kan gjenbrukes. Lisens: CC-lisens fire punkt null."
	links := []extract.Link{{URL: "https://creativecommons.org/licenses/by/4.0/deed.no", Text: "CC-lisens fire punkt null"}}
	got := findLicences("https://x.test/", text, nil, links)
	if len(got) != 1 || got[0].Name != "CC BY 4.0" || got[0].Via != "link" {
		t.Fatalf("got %+v", got)
	}
	for u, want := range map[string]string{
		"https://data.norge.no/nlod/no/2.0":                 "NLOD 2.0",
		"https://opendatacommons.org/licenses/odbl/1-0/":    "ODbL",
		"https://creativecommons.org/publicdomain/zero/1.0": "CC0",
		"https://creativecommons.org/about/":                "",
	} {
		if got := licenceOfURL(u); got != want {
			t.Errorf("licenceOfURL(%s) = %q, want %q", u, got, want)
		}
	}
}

// The words mayNameLicence looks for must be in every text licencePattern
// matches: otherwise a licence named on a page would go unseen. Each phrase
// of the pattern is tried in three cases, inside a sentence, with and
// without a version.
func TestLicenceWordsCoverThePattern(t *testing.T) {
	phrases := []string{
		"CC0", "cc0 1.0", "CC BY", "CC-BY 4.0", "cc by-sa 3.0", "CC-BY-SA", "Creative Commons Attribution 4.0 International",
		"Creative Commons Attribution-ShareAlike", "Creative Commons Navngivelse 4.0 Internasjonal",
		"Creative Commons Navngivelse-DelPåSammeVilkår", "Creative Commons Zero", "NLOD 2.0", "Norsk lisens for offentlige data (NLOD) 2.0",
		"Norwegian Licence for Open Government Data", "Norwegian License for Open Government Data (NLOD)", "ODbL 1.0",
		"Open Database License (ODbL) v1.0", "Open Database Licence", "Commission Decision 2011/833/EU",
		"Kommisjonens beslutning 2011/833", "2011/833/EU",
	}
	for _, p := range phrases {
		for _, variant := range []string{p, strings.ToUpper(p), strings.ToLower(p)} {
			text := "Data på denne siden er lisensiert under " + variant + " for alle."
			if !licencePattern.MatchString(text) {
				t.Errorf("%q: the pattern itself does not match; the test's phrase is wrong", variant)
				continue
			}
			if !mayNameLicence(text) {
				t.Errorf("%q: matched by the pattern, but mayNameLicence says no licence can be named", variant)
			}
		}
	}
	// Case-blind matching folds ſ into s: such a text is always looked through.
	if odd := "Norſk liſens for offentlige data"; licencePattern.MatchString(odd) && !mayNameLicence(odd) {
		t.Errorf("%q: matched by the pattern, but skipped", odd)
	}
	if mayNameLicence("Our accessibility statement says nothing of licences; accept the account's access terms.") {
		t.Error("a text naming no licence is looked through")
	}
}

// Open by design reads the licences found, not only the quotes: a page
// that links its licence by its well-known address gives the licence half.
func TestOpenByDesignReadsLicencesFound(t *testing.T) {
	s := newSite(&sites.Site{Host: "x.test", URL: "https://x.test/"})
	s.Batch, s.Robots.Outcome = "20261201T060000Z", "rules"
	s.Read = []Document{{URL: "https://x.test/data", Role: RolePolicy, ReadAt: "2026-12-01T06:00:00Z"}}
	s.Quotes = []Quote{{URL: "https://x.test/data", Text: "Our API is free to use for anyone, with no key.", Topic: TopicAPI, Source: "found", Verified: true}}
	s.Licences = []Licence{{Name: "CC BY 4.0", URL: "https://x.test/data", Quote: "Creative Commons Attribution 4.0", Via: "link"}}
	v := openByDesign(s)
	if !v.IsOpen() || v.Licence == nil || v.Licence.Text != "Creative Commons Attribution 4.0" || v.Licence.ReadAt == "" {
		t.Errorf("open by design %+v (licence %+v); want yes, resting on the licence found", v, v.Licence)
	}
}

// mayNameLicence finds a word in any ASCII case, at any place, and
// nothing that is not one of the words.
func TestMayNameLicenceFoldsASCII(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"Licensed CC-By 4.0.", true},
		{"ODBL", true},
		{"under odb l", false},
		{"cc b", false},
		{"", false},
		{"see 2011/833/EU", true},
		{"NLO", false},
		{"ends in Open Database Licen", true},
		{"ends in Open Database Lice", false},
		{"NORWEGIAN LICENSE", true},
		{"Creative  Commons", false},
	} {
		if got := mayNameLicence(c.s); got != c.want {
			t.Errorf("mayNameLicence(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// refMayNameLicence is mayNameLicence as it was before its two-byte
// filter, kept as the reference the filter must agree with.
func refMayNameLicence(text string) bool {
	if strings.Contains(text, "ſ") || strings.Contains(text, "K") {
		return true
	}
	for i := 0; i < len(text); i++ {
		for _, w := range licenceWords {
			if len(text[i:]) >= len(w) && strings.EqualFold(text[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}

func TestMayNameLicenceAgreesWithReference(t *testing.T) {
	alphabet := []string{"c", "C", "c", "0", "o", "O", "d", "D", "b", "B", "l", "L", "n", "N", "2", "011/833", " ", "-", "by", "BY",
		"reative commons", "REATIVE COMMONS", "orsk lisens", "orwegian licen", "pen database licen", "x", "é", "\xff", "ſ", "K"}
	rng := rand.New(rand.NewSource(3))
	yes := 0
	for range 50000 {
		var b strings.Builder
		for range rng.Intn(10) {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		s := b.String()
		got, want := mayNameLicence(s), refMayNameLicence(s)
		if got != want {
			t.Errorf("mayNameLicence(%q) = %v, reference %v", s, got, want)
		}
		if want {
			yes++
		}
	}
	if yes < 1000 {
		t.Errorf("only %d of the random texts name a licence word: the test tries too few", yes)
	}
}
