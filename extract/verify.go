package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Normalize prepares text for quoting and quote checks (design §2.5): Unicode
// NFC, every run of white space folded to one ASCII space, leading and
// trailing white space removed. White space is what Unicode calls White_Space
// (ASCII spaces, tabs and line ends, U+0085, the no-break space U+00A0, the
// typographic spaces U+2000–U+200A, U+202F, U+205F, U+3000, and the line and
// paragraph separators). Nothing else changes: case, quotation marks, dashes,
// soft hyphens and zero-width characters stay as they are.
func Normalize(text string) string {
	// ASCII text, most of any page, is NFC as it stands, and so is text
	// below U+0300 (Latin-1, Latin Extended, IPA: æ, ø, å, é, ß …): skip
	// the check.
	if !isASCII(text) && !belowCombining(text) && !norm.NFC.IsNormalString(text) {
		text = norm.NFC.String(text)
	}
	return foldOnce(text)
}

// belowCombining reports whether s is well-formed UTF-8 of characters below
// U+0300, where the combining diacritics start. Each of them is NFC alone
// and none combines with a character before it (TestBelowCombiningIsNFC),
// so such a text is NFC whatever their order. Their UTF-8 is ASCII or a
// lead byte C2–CB and one continuation byte.
func belowCombining(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < utf8.RuneSelf {
			continue
		}
		if c < 0xC2 || c > 0xCB || i+1 >= len(s) || s[i+1]&0xC0 != 0x80 {
			return false
		}
		i++
	}
	return true
}

// foldOnce is s itself when s is already folded (no leading, trailing or
// repeated white space, none but U+0020: the common case for text we
// produced ourselves), and foldSpace(s) otherwise, in one pass for most
// texts: it reads s up to the first white space foldSpace would change,
// then folds only the rest. Checking first and folding from the start
// again read the part before that twice (a text node is often a whole line
// of a paragraph before its first newline).
func foldOnce(s string) string {
	prevSpace := true // a leading space is not folded
	bad := false      // s holds a byte that is not UTF-8
	for i := 0; i < len(s); {
		c := s[i]
		if ' ' < c && c < utf8.RuneSelf { // the usual byte: one test
			prevSpace = false
			i++
			continue
		}
		size, space := 1, false
		switch {
		case c == ' ':
			space = prevSpace // a single space between words is folded
		case c < utf8.RuneSelf:
			space = asciiSpace[c]
		default:
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			bad = bad || r == utf8.RuneError && size == 1
			space = unicode.IsSpace(r)
		}
		if !space {
			prevSpace = c == ' '
			i += size
			continue
		}
		// s[i] starts white space that foldSpace changes. A folded text is
		// kept as it is, broken bytes and all, but foldSpace replaces them:
		// with one seen, the whole text is folded the usual way.
		if bad {
			return foldSpace(s)
		}
		if prevSpace && i > 0 {
			i-- // the space before it is part of the same run
		}
		return foldSpaceFrom(s, i)
	}
	if prevSpace && s != "" && !bad {
		return s[:len(s)-1] // only a final space to drop
	}
	if prevSpace && s != "" {
		return foldSpace(s)
	}
	return s
}

// isASCII reports whether s is all ASCII; it ORs the bytes eight at a
// time rather than testing each.
func isASCII(s string) bool {
	var or8 uint64
	i := 0
	for ; i+8 <= len(s); i += 8 {
		or8 |= uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
	}
	var or byte
	for ; i < len(s); i++ {
		or |= s[i]
	}
	return or8&0x8080808080808080 == 0 && or < utf8.RuneSelf
}

// foldSpace folds every run of white space in s to one ASCII space and
// drops it at both ends; a byte that is not UTF-8 becomes U+FFFD. It
// copies the runs between spaces whole rather than rune by rune: page
// text is mostly ASCII words between newlines and indentation.
func foldSpace(s string) string { return foldSpaceFrom(s, 0) }

// foldSpaceFrom is foldSpace(s) when s[:from] is already folded, does not
// end in white space, and s[from] (if from > 0) starts a run of it: s[:from]
// is copied as it stands.
func foldSpaceFrom(s string, from int) string {
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:from])
	pendingSpace := false
	start := -1 // where the run of non-space not yet copied began
	for i := from; i < len(s); {
		c := s[i]
		size, space, bad := 1, false, false
		if c < utf8.RuneSelf {
			space = asciiSpace[c]
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			bad = r == utf8.RuneError && size == 1
			space = !bad && unicode.IsSpace(r)
		}
		if space {
			if start >= 0 {
				b.WriteString(s[start:i])
				start = -1
			}
			pendingSpace = b.Len() > 0
		} else {
			if start < 0 {
				if pendingSpace {
					b.WriteByte(' ')
					pendingSpace = false
				}
				start = i
			}
			if bad {
				b.WriteString(s[start:i])
				b.WriteString("\uFFFD")
				start = -1
			}
		}
		i += size
	}
	if start >= 0 {
		b.WriteString(s[start:])
	}
	return b.String()
}

// asciiSpace marks the ASCII bytes unicode.IsSpace takes.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// isWordChar is what may not touch either end of a verified quote: a letter,
// a digit (any Unicode number), or a combining mark, which belongs to the
// letter before it, so a match ending just before one would cut a character.
func isWordChar(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// Verifier checks many quotes against one text, normalising the text once.
type Verifier struct {
	text string // normalised
	// words and index (word key → positions in words) are built on the
	// first failed quote, for the closest-passage search.
	words []span
	index map[string][]int
}

// NewVerifier normalises text for repeated Verify calls.
func NewVerifier(text string) *Verifier {
	return &Verifier{text: Normalize(text)}
}

// NewVerifierNormalized is NewVerifier for a text that is Normalize's
// output already, such as a Page's Text: it is taken as it is, sparing a
// pass over the whole page to find it needs no change. A caller that is
// not sure of its text calls NewVerifier.
func NewVerifierNormalized(text string) *Verifier {
	return &Verifier{text: text}
}

// Text returns the normalised text quotes are checked against.
func (v *Verifier) Text() string { return v.text }

// Verify reports whether quote appears in text word for word on word
// boundaries, both normalised with Normalize: the characters just before and
// just after the match must not be Unicode letters, digits or combining
// marks. at is the byte offset of the match in Normalize(text), or -1.
// When the quote is not found, closest is the passage of the text most like
// it (empty when nothing is alike), for error messages; when it is found,
// closest is the matched passage.
func Verify(text, quote string) (ok bool, at int, closest string) {
	return NewVerifier(text).Verify(quote)
}

// Verify is the package-level Verify against the verifier's text.
func (v *Verifier) Verify(quote string) (ok bool, at int, closest string) {
	q := Normalize(quote)
	if q == "" || v.text == "" {
		return false, -1, ""
	}
	t := v.text
	firstMiss := -1
	for from := 0; from <= len(t)-len(q); {
		i := strings.Index(t[from:], q)
		if i < 0 {
			break
		}
		i += from
		if onBoundary(t, i, i+len(q)) {
			return true, i, t[i : i+len(q)]
		}
		if firstMiss < 0 {
			firstMiss = i
		}
		// Step one character, not one byte, so the next search starts on a
		// rune boundary.
		_, n := utf8.DecodeRuneInString(t[i:])
		from = i + n
	}
	if firstMiss >= 0 {
		// The words are there but cut into a longer word: show the whole
		// words around them, which is what the quote should have said.
		start, end := firstMiss, firstMiss+len(q)
		for start > 0 {
			r, n := utf8.DecodeLastRuneInString(t[:start])
			if !isWordChar(r) {
				break
			}
			start -= n
		}
		for end < len(t) {
			r, n := utf8.DecodeRuneInString(t[end:])
			if !isWordChar(r) {
				break
			}
			end += n
		}
		return false, -1, t[start:end]
	}
	return false, -1, v.closest(q)
}

// onBoundary reports whether t[start:end] is not glued to a word character
// on either side.
func onBoundary(t string, start, end int) bool {
	if start > 0 {
		if r, _ := utf8.DecodeLastRuneInString(t[:start]); isWordChar(r) {
			return false
		}
	}
	if end < len(t) {
		if r, _ := utf8.DecodeRuneInString(t[end:]); isWordChar(r) {
			return false
		}
	}
	return true
}

// span is a word's byte range in the normalised text, and its comparison key.
type span struct {
	start, end int
	key        string
}

// splitWords cuts a normalised string at its spaces, keying each word by
// its letters and digits in lower case, so that a changed quotation mark or
// a case difference does not hide an otherwise matching word.
func splitWords(s string) []span {
	var out []span
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if i > start {
				out = append(out, span{start, i, wordKey(s[start:i])})
			}
			start = i + 1
		}
	}
	return out
}

func wordKey(w string) string {
	var b strings.Builder
	for _, r := range w {
		if isWordChar(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	if b.Len() == 0 {
		return w
	}
	return b.String()
}

// closest finds the run of text words, as many as the quote has, that agrees
// with the quote in the most positions, trying every alignment; a word added
// or dropped in the quote still leaves the half before it aligned. Ties go
// to the earliest passage, so the answer is deterministic.
func (v *Verifier) closest(q string) string {
	qw := splitWords(q)
	if len(qw) == 0 {
		return ""
	}
	if v.words == nil {
		v.words = splitWords(v.text)
		v.index = make(map[string][]int)
		for i, w := range v.words {
			v.index[w.key] = append(v.index[w.key], i)
		}
	}
	tw := v.words
	if len(tw) == 0 {
		return ""
	}
	// score[off+len(qw)] counts the quote words that line up when quote
	// word 0 sits at text word off; only shared words are visited.
	score := make([]int32, len(tw)+len(qw))
	best, bestScore := 0, int32(0)
	for j, w := range qw {
		for _, i := range v.index[w.key] {
			k := i - j + len(qw)
			score[k]++
			if s := score[k]; s > bestScore || s == bestScore && k < best {
				best, bestScore = k, s
			}
		}
	}
	if bestScore == 0 {
		return ""
	}
	off := best - len(qw)
	first := max(off, 0)
	last := min(off+len(qw), len(tw)) - 1
	return v.text[tw[first].start:tw[last].end]
}
