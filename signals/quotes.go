package signals

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crawlsignals/crawlsignals/extract"
)

// Topics of found quotes, in the order a site's page prefers them.
const (
	TopicLicence  = "licence"
	TopicAPI      = "api"
	TopicReuse    = "reuse"
	TopicScraping = "scraping"
	TopicAI       = "ai"
)

// topicWords are lower-case stems whose presence puts a sentence under a
// topic, in English and Norwegian. A stem marked with a leading space must
// start a word (so "api" does not match "kapital").
var topicWords = []struct {
	topic string
	words []string
}{
	{TopicLicence, []string{"lisens", "licence", "license", "creative commons", "cc by", "cc0", "nlod", "odbl", "2011/833", "public domain"}},
	{TopicAPI, []string{" api", " feed", " rss", "eksport", "export", "datasett", "dataset", "grensesnitt", "endepunkt", "endpoint"}},
	{TopicScraping, []string{"skrap", "scrap", "automatisert", "automatic", "automated", "robot", "crawl", "høsting", "harvest", "innsamling"}},
	{TopicAI, []string{"kunstig intelligens", "artificial intelligence", " ai ", " ai-", "maskinlæring", "machine learning", "tekst- og datautvinning", "text and data mining", " tdm", "språkmodell", "language model"}},
	{TopicReuse, []string{"gjenbruk", "viderebruk", "reuse", "re-use", "redistribu", "videreformidl", "republish", "kopier", "reproduc", "åndsverk", "copyright", "opphavsrett"}},
}

// Found quotes are kept readable: so many per page, of a sensible length.
const (
	maxQuotesPerPage = 6
	minQuoteRunes    = 25
	maxQuoteRunes    = 400
)

// addresses are e-mail and web addresses, which name no topic: the
// "lisens" of "lisens@avis.test" is not a sentence about a licence.
var addresses = regexp.MustCompile(`[^\s<>()]+@[^\s<>()]+|https?://[^\s<>()]+|www\.[^\s<>()]+`)

// topicText is a sentence as topic words are looked for in it.
func topicText(sentence string) string {
	if strings.Contains(sentence, "@") || strings.Contains(sentence, "://") || strings.Contains(sentence, "www.") {
		sentence = addresses.ReplaceAllString(sentence, " ") // most sentences hold no address
	}
	return " " + strings.ToLower(sentence) + " "
}

// topicOf returns the first topic a sentence speaks of, or "".
func topicOf(sentence string) string {
	s := topicText(sentence)
	for _, t := range topicWords {
		for _, w := range t.words {
			if strings.Contains(s, w) {
				return t.topic
			}
		}
	}
	return ""
}

// speaksOf says whether a sentence has a word of the topic, wherever it
// stands (topicOf gives only the first topic).
func speaksOf(sentence, topic string) bool {
	s := topicText(sentence)
	for _, t := range topicWords {
		if t.topic != topic {
			continue
		}
		for _, w := range t.words {
			if strings.Contains(s, w) {
				return true
			}
		}
	}
	return false
}

// findQuotes picks the sentences of a page's text blocks that speak of our
// topics, each verified against the page's whole text before it is returned.
func findQuotes(text string, blocks []string) []Quote {
	byTopic := map[string][]string{}
	v := extract.NewVerifier(text) // normalises the page once for all its sentences
	for _, s := range sentences(strings.Join(blocks, "\n")) {
		n := utf8.RuneCountInString(s)
		if n < minQuoteRunes || n > maxQuoteRunes {
			continue
		}
		if t := topicOf(s); t != "" {
			if ok, _, _ := v.Verify(s); ok {
				byTopic[t] = append(byTopic[t], s)
			}
		}
	}
	var out []Quote
	// Take one of each topic first, then more, so a page's quotes cover
	// what it says rather than repeat one thing.
	for round := 0; len(out) < maxQuotesPerPage; round++ {
		added := false
		for _, t := range topicWords {
			if list := byTopic[t.topic]; round < len(list) && len(out) < maxQuotesPerPage {
				out = append(out, Quote{Text: list[round], Topic: t.topic, Source: "found", Verified: true})
				added = true
			}
		}
		if !added {
			break
		}
	}
	return out
}

// sentences splits text at sentence ends: ". ", "! ", "? " followed by an
// upper-case letter or digit, and at line breaks.
func sentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		rs := []rune(line)
		start := 0
		for i := 0; i < len(rs); i++ {
			if rs[i] != '.' && rs[i] != '!' && rs[i] != '?' {
				continue
			}
			if i+2 < len(rs) && rs[i+1] == ' ' && (unicode.IsUpper(rs[i+2]) || unicode.IsDigit(rs[i+2])) && !abbreviation(rs[start:i+1]) {
				out = appendSentence(out, string(rs[start:i+1]))
				start = i + 2
			}
		}
		out = appendSentence(out, string(rs[start:]))
	}
	return out
}

func appendSentence(out []string, s string) []string {
	if s = strings.TrimSpace(s); s != "" {
		out = append(out, s)
	}
	return out
}

// abbreviation reports whether a sentence candidate ends in a common
// abbreviation ("f.eks.", "e.g.", "nr.") rather than a sentence end.
func abbreviation(rs []rune) bool {
	s := strings.ToLower(string(rs))
	for _, a := range []string{"f.eks.", "e.g.", "i.e.", "nr.", "no.", "bl.a.", "mv.", "osv.", "jf.", "ca.", "kap.", "art.", "pkt."} {
		if strings.HasSuffix(s, " "+a) || s == a {
			return true
		}
	}
	return false
}
