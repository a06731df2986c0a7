package signals

import (
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crawlsignals/crawlsignals/extract"
)

// licencePattern finds a standard licence named in text, with its version
// when one follows: "CC BY 4.0", "CC BY-SA 3.0", "NLOD 2.0", "ODbL 1.0",
// "Creative Commons Navngivelse 4.0", "Norsk lisens for offentlige data".
var licencePattern = regexp.MustCompile(`(?i)\b(cc0(?:\s*1\.0)?|cc[ -]by[ -]sa(?:\s*\d\.\d)?|cc[ -]by(?:\s*\d\.\d)?|creative commons (?:attribution-sharealike|navngivelse-delpåsammevilkår|attribution|navngivelse|zero)(?:\s*\d\.\d)?(?:\s*(?:international|internasjonal))?|nlod(?:\s*\d\.\d)?|norsk lisens for offentlige data(?:\s*\(nlod\))?(?:\s*\d\.\d)?|norwegian licen[cs]e for open government data(?:\s*\(nlod\))?(?:\s*\d\.\d)?|odbl(?:\s*\d\.\d)?|open database licen[cs]e(?:\s*\(odbl\))?(?:\s*v?\d\.\d)?|(?:commission|kommisjonens) (?:implementing )?(?:decision|beslutning) 2011/833(?:/eu)?|2011/833/eu)`)

// licenceWords are pieces of text every match of licencePattern holds, in
// lower case: a page without any of them names no licence, and is not
// looked through sentence by sentence (the pattern, case-blind and without
// a literal prefix, cost a tenth of a cold build run on every sentence).
var licenceWords = []string{"cc0", "cc by", "cc-by", "creative commons", "nlod", "norsk lisens", "norwegian licen", "odbl", "open database licen", "2011/833"}

// mayNameLicence reports whether text may hold a match of licencePattern.
// Case-blind matching also folds the long s (ſ) and the Kelvin sign (K)
// into s and k, which no ASCII folding does: a text holding either is
// always looked through. Otherwise one pass over the text looks for every
// word from where each could start: it runs on every sentence of a page
// that names a licence, so it must cost less than the pattern it spares.
// A place is held up against the words only when its first two bytes
// begin one of them in some ASCII case ("cc", "Cr", "NO", "20"…), which few
// places of real text do; the first byte alone ("c", "n" or "o") let many
// through. On the sentences of the real terms pages the pass ran at 4.5 ns
// a byte, and runs at 1.5.
func mayNameLicence(text string) bool {
	if strings.Contains(text, "ſ") || strings.Contains(text, "K") {
		return true
	}
	for i := 0; i+1 < len(text); i++ {
		c0, c1 := text[i], text[i+1]
		if licencePairs[c0][c1>>6]&(1<<(c1&63)) == 0 {
			continue
		}
		for _, w := range licenceByFirst[lowerASCII(c0)] {
			if hasPrefixFoldASCII(text[i:], w) {
				return true
			}
		}
	}
	return false
}

// licenceByFirst lists the licence words by the byte they start with, in
// lower case.
var licenceByFirst = func() (by [256][]string) {
	for _, w := range licenceWords {
		by[w[0]] = append(by[w[0]], w)
	}
	return by
}()

// licencePairs is the set of two-byte beginnings of the licence words in
// every ASCII case, as a bit set: licencePairs[a][b>>6] has bit b&63 when a
// word starts with a, b in some case.
var licencePairs = func() (set [256][4]uint64) {
	for _, w := range licenceWords {
		for _, a := range asciiCases(w[0]) {
			for _, b := range asciiCases(w[1]) {
				set[a][b>>6] |= 1 << (b & 63)
			}
		}
	}
	return set
}()

// asciiCases is c (lower-case ASCII or another byte) in each of its cases.
func asciiCases(c byte) []byte {
	if 'a' <= c && c <= 'z' {
		return []byte{c, c - 'a' + 'A'}
	}
	return []byte{c}
}

// hasPrefixFoldASCII reports whether s starts with word (lower-case
// ASCII), its ASCII letters in either case.
func hasPrefixFoldASCII(s, word string) bool {
	if len(s) < len(word) {
		return false
	}
	for j := 0; j < len(word); j++ {
		if lowerASCII(s[j]) != word[j] {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

var versionPattern = regexp.MustCompile(`\d\.\d`)

// licenceName turns a matched phrase into the licence's short name.
func licenceName(phrase string) string {
	p := strings.ToLower(phrase)
	version := versionPattern.FindString(p)
	name := ""
	switch {
	case strings.Contains(p, "cc0") || strings.Contains(p, "zero"):
		name, version = "CC0", "1.0"
	case strings.Contains(p, "by-sa"), strings.Contains(p, "by sa"), strings.Contains(p, "sharealike"), strings.Contains(p, "delpåsammevilkår"):
		name = "CC BY-SA"
	case strings.Contains(p, "cc") && strings.Contains(p, "by"), strings.Contains(p, "attribution"), strings.Contains(p, "navngivelse"):
		name = "CC BY"
	case strings.Contains(p, "nlod"), strings.Contains(p, "offentlige data"), strings.Contains(p, "open government data"):
		name = "NLOD"
	case strings.Contains(p, "odbl"), strings.Contains(p, "open database"):
		name = "ODbL"
	case strings.Contains(p, "2011/833"):
		return "EU Commission Decision 2011/833"
	}
	if version != "" {
		return name + " " + version
	}
	return name
}

// licenceURLs are the well-known addresses of the standard licences.
var licenceURLs = []struct {
	host, prefix, name string
}{
	{"creativecommons.org", "/publicdomain/zero/", "CC0"},
	{"creativecommons.org", "/licenses/by-sa/", "CC BY-SA"},
	{"creativecommons.org", "/licenses/by/", "CC BY"},
	{"data.norge.no", "/nlod", "NLOD"},
	{"opendatacommons.org", "/licenses/odbl", "ODbL"},
	{"eur-lex.europa.eu", "", "EU Commission Decision 2011/833"},
}

// licenceOfURL names the licence a link points to, or "".
func licenceOfURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	for _, l := range licenceURLs {
		if host != l.host || !strings.HasPrefix(strings.ToLower(u.Path), l.prefix) {
			continue
		}
		if l.host == "eur-lex.europa.eu" && !strings.Contains(raw, "2011") {
			continue
		}
		if v := versionPattern.FindString(u.Path); v != "" && l.name != "CC0" {
			return l.name + " " + v
		}
		return l.name
	}
	return ""
}

// findLicences lists the standard licences a page names in its text, or
// links to by their well-known addresses; each with a verified quote: the
// sentence that names it, or the link's text as the page shows it. text is
// the page's text, normalised (extract.Normalize) as readDocument gives it.
func findLicences(pageURL, text string, sents []string, links []extract.Link) []Licence {
	var out []Licence
	seen := map[string]bool{}
	v := extract.NewVerifierNormalized(text) // one for the page, not one a quote
	if sents == nil {
		sents = sentences(text)
	}
	if !mayNameLicence(text) {
		sents = nil // no sentence to look through
	}
	for _, s := range sents {
		if !mayNameLicence(s) {
			// A page that names a licence names it in few of its
			// sentences: the pattern on every other one cost a tenth
			// of a cold build on real pages.
			continue
		}
		for _, loc := range licencePattern.FindAllStringIndex(s, -1) {
			if r, _ := utf8.DecodeRuneInString(s[loc[1]:]); unicode.IsLetter(r) || unicode.IsDigit(r) {
				continue // "NLODX" is not NLOD
			}
			name := licenceName(s[loc[0]:loc[1]])
			if name == "" || seen[name] {
				continue
			}
			if ok, _, _ := v.Verify(s); !ok {
				continue
			}
			seen[name] = true
			out = append(out, Licence{Name: name, URL: pageURL, Quote: s, Via: "text"})
		}
	}
	for _, l := range links {
		name := licenceOfURL(l.URL)
		if name == "" || seen[name] || l.Text == "" {
			continue
		}
		if ok, _, _ := v.Verify(l.Text); !ok {
			continue
		}
		seen[name] = true
		out = append(out, Licence{Name: name, URL: pageURL, Quote: l.Text, Via: "link", LinksTo: l.URL})
	}
	return out
}
