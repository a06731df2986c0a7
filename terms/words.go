package terms

import (
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
}

// splitWords cuts text into words. Invisible format characters (soft
// hyphens, zero-width joiners) are part of no word and split none:
// "Vil\u00ADkår" is the word "vilkår". An apostrophe inside a word is kept
// ("don't", "company's"), as typographic ones are, so patterns can name
// contractions.
func splitWords(text string) words {
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

// span is the text of words i..j (inclusive) as written.
func (ws words) span(i, j int) string {
	return ws.text[ws.start[i]:ws.end[j]]
}
