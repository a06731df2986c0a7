package terms

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
)

// words is a sentence as cue patterns see it: lower-case words of letters
// and digits, each with where it stands in the sentence (byte offsets), so
// a match can name the words of the sentence that made it.
type words struct {
	text  string
	w     []string
	start []int
	end   []int
	// byWord lists the word positions sorted by word, so a cue looks up
	// where its first word stands instead of trying every position: a
	// document's sentences meet some four hundred cues each.
	byWord []int
}

// tokenize cuts text into words. Invisible format characters (soft
// hyphens, zero-width joiners) are part of no word and split none:
// "Vil\u00ADkår" is the word "vilkår". An apostrophe inside a word is kept
// ("don't", "company's"), as typographic ones are, so patterns can name
// contractions.
func tokenize(text string) words {
	ws := words{text: text}
	var cur strings.Builder
	start := -1
	flush := func(end int) {
		if start >= 0 && cur.Len() > 0 {
			ws.w = append(ws.w, cur.String())
			ws.start = append(ws.start, start)
			ws.end = append(ws.end, end)
		}
		cur.Reset()
		start = -1
	}
	rs := []rune(text)
	off := 0
	for i, r := range rs {
		size := len(string(r))
		switch {
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r):
			if start < 0 {
				start = off
			}
			cur.WriteRune(unicode.ToLower(r))
		case unicode.Is(unicode.Cf, r):
			// invisible: neither part of a word nor a break
		case (r == '\'' || r == '’') && start >= 0 && i+1 < len(rs) && unicode.IsLetter(rs[i+1]):
			cur.WriteRune('\'')
		case r == '.' && start >= 0 && i+1 < len(rs) && unicode.IsLetter(rs[i+1]) && unicode.IsLetter(rs[i-1]):
			cur.WriteRune('.') // a name or an address: "Copy.AI", "example.com"
		default:
			flush(off)
		}
		off += size
	}
	flush(off)
	return ws
}

// splitWords cuts text into words and indexes them for cue lookups.
func splitWords(text string) words {
	ws := tokenize(text)
	ws.byWord = make([]int, len(ws.w))
	for i := range ws.byWord {
		ws.byWord[i] = i
	}
	slices.SortFunc(ws.byWord, func(a, b int) int { return cmp.Or(strings.Compare(ws.w[a], ws.w[b]), cmp.Compare(a, b)) })
	return ws
}

// first is the index into byWord of the first word not before w.
func (ws words) first(w string) int {
	lo, _ := slices.BinarySearchFunc(ws.byWord, w, func(i int, w string) int { return strings.Compare(ws.w[i], w) })
	return lo
}

// span is the text of words i..j (inclusive) as written.
func (ws words) span(i, j int) string {
	return ws.text[ws.start[i]:ws.end[j]]
}
