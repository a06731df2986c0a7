package terms

import (
	"strings"

	"github.com/crawlsignals/crawlsignals/extract"
)

// Languages whose terms we read for meaning (design §2.5.1).
var readLanguages = map[string]string{
	"en": "English", "nb": "Norwegian Bokmål", "nn": "Norwegian Nynorsk", "da": "Danish", "sv": "Swedish",
}

// LanguageName is the reader's name for a language code we read, or "".
func LanguageName(code string) string { return readLanguages[code] }

// markers are short, frequent words that tell languages apart. Words two
// languages share ("og" in Norwegian and Danish) are listed for both.
var markers = map[string][]string{
	"en": {"the", "and", "of", "to", "you", "your", "is", "are", "that", "we", "our", "with", "not", "or", "any", "for", "this", "be", "by", "may"},
	"nb": {"og", "ikke", "av", "til", "det", "som", "på", "med", "er", "du", "vi", "har", "eller", "deg", "din", "dine", "vår", "våre", "hvis", "kan", "skal", "ved", "fra", "om", "også", "etter", "for", "i"},
	"nn": {"og", "ikkje", "av", "til", "det", "som", "på", "med", "er", "du", "vi", "har", "eller", "deg", "din", "dine", "vår", "våre", "dersom", "kan", "skal", "ved", "frå", "om", "òg", "eit", "ein", "korleis", "kva", "for", "i"},
	"da": {"og", "ikke", "af", "til", "det", "som", "på", "med", "er", "du", "vi", "har", "eller", "dig", "din", "dine", "vores", "hvis", "kan", "skal", "ved", "fra", "om", "også", "efter", "jeg", "for", "i"},
	"sv": {"och", "inte", "av", "till", "det", "som", "på", "med", "är", "du", "vi", "har", "eller", "dig", "din", "dina", "vår", "våra", "om", "kan", "ska", "vid", "från", "också", "efter", "för", "i"},
	"de": {"und", "der", "die", "das", "nicht", "sie", "wir", "ist", "mit", "von", "zu", "den", "für", "auf", "oder", "ihre", "uns"},
	"fr": {"et", "le", "la", "les", "des", "de", "vous", "nous", "est", "pas", "pour", "sur", "ou", "une", "un", "votre", "vos", "dans"},
	"fi": {"ja", "on", "tai", "ei", "että", "se", "tämä", "ovat", "kanssa", "mukaan", "tietoja", "käyttö", "palvelun", "voi"},
	"es": {"el", "los", "las", "del", "que", "usted", "para", "por", "con", "una", "sus", "está"},
	"nl": {"het", "een", "van", "niet", "wij", "zijn", "voor", "met", "uw", "deze", "worden"},
}

// detectOrder is the order languages are weighed in: the first of two
// equal scores wins.
var detectOrder = [...]string{"en", "nb", "nn", "da", "sv", "de", "fr", "fi", "es", "nl"}

// markerOf maps each marker word to the languages it marks, by their place
// in detectOrder, so a text's words are counted in an array.
var markerOf = func() map[string][]int {
	m := map[string][]int{}
	for i, lang := range detectOrder {
		for _, w := range markers[lang] {
			m[w] = append(m[w], i)
		}
	}
	return m
}()

// maybeMarker says of most words that they are no marker, without the map:
// more than half of a text's words are none.
var maybeMarker = func() (f wordFilter) {
	for w := range markerOf {
		f.add(w)
	}
	return f
}()

// detectBytes is how much of a text DetectLanguage reads.
const detectBytes = 40000

// DetectLanguage says which language a text is written in, from how often
// the marker words of each language occur in its first few thousand words;
// hint (a page's lang attribute) decides between languages the words
// cannot tell apart. It returns "" for a text with too few words to tell.
func DetectLanguage(text, hint string) string {
	if len(text) > detectBytes {
		text = text[:detectBytes] // enough words to tell; a cut rune only ends a word
	}
	var c markerCount
	c.add(text)
	return c.language(hint)
}

// detectBlocks is DetectLanguage of the blocks' texts joined by spaces, as
// far as the first detectBytes: each block's words counted where it
// stands, without the joined text (a space between blocks ends a word, as
// the end of a block's text does, and starts none).
func detectBlocks(blocks []extract.Block, hint string) string {
	c := countBlocks(blocks)
	return c.language(hint)
}

// countBlocks counts the words of the blocks as detectBlocks reads them.
func countBlocks(blocks []extract.Block) *markerCount {
	c := &markerCount{}
	n := 0 // the joined text's length so far
	for _, b := range blocks {
		if n >= detectBytes {
			break
		}
		t := b.Text[:min(len(b.Text), detectBytes-n)]
		c.add(t)
		n += len(t)
		if n < detectBytes {
			n++ // the space after it
		}
	}
	return c
}

// markerCount counts a text's words and its marker words by language.
type markerCount struct {
	words int
	score [len(detectOrder)]int
	spell []byte // scanWords' scratch
}

func (c *markerCount) add(text string) {
	scanWords(text, &c.spell, func(w string, low []byte, _, _ int) {
		c.words++
		var langs []int
		if low == nil {
			if maybeMarker.mayHold(w) {
				langs = markerOf[w]
			}
		} else if maybeMarker.mayHold(string(low)) {
			langs = markerOf[string(low)] // looked up without a copy
		}
		for _, i := range langs {
			c.score[i]++
		}
	})
}

// language is the language the counts say, hint deciding a close call.
func (c *markerCount) language(hint string) string {
	if c.words < 8 {
		return strings.ToLower(primary(hint))
	}
	best, bestN := "", 0
	for i, lang := range detectOrder {
		n := c.score[i]
		if h := primary(hint); h == lang || (h == "no" && lang == "nb") {
			n += n / 20 // a small push: the words decide when they can
		}
		if n > bestN {
			best, bestN = lang, n
		}
	}
	if bestN*20 < c.words {
		return strings.ToLower(primary(hint))
	}
	return best
}

// primary is the language of a BCP 47 tag ("nb-NO" → "nb").
func primary(tag string) string {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if i := strings.IndexAny(tag, "-_"); i >= 0 {
		tag = tag[:i]
	}
	if tag == "no" {
		return "nb"
	}
	return tag
}
