package terms

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// words is a sentence as cue patterns see it: lower-case words of letters
// and digits, each with where it stands in the sentence (byte offsets), so
// a match can name the words of the sentence that made it.
type words struct {
	text  string
	w     []string
	start []int
	end   []int
	// hits are the matches of every cue list (by the list's id), found in
	// one pass: a sentence meets some four hundred cues.
	hits [][]cueHit
}

// tokenize cuts text into words. Invisible format characters (soft
// hyphens, zero-width joiners) are part of no word and split none:
// "Vil\u00ADkår" is the word "vilkår". An apostrophe inside a word is kept
// ("don't", "company's"), as typographic ones are, so patterns can name
// contractions.
func tokenize(text string) words {
	return tokenizeInto(&words{}, text)
}

// tokenizeInto is tokenize into buf's slices, grown as needed: a reader
// tokenizes every sentence of a document, most of them only to find they
// are on none of its topics, and one set of slices serves them all. The
// words returned share buf's memory until its next use.
func tokenizeInto(buf *words, text string) words {
	if n := len(text)/6 + 1; cap(buf.w) < n { // about a word in six bytes
		buf.w, buf.start, buf.end = make([]string, 0, n), make([]int, 0, n), make([]int, 0, n)
	}
	ws := words{text: text, w: buf.w[:0], start: buf.start[:0], end: buf.end[:0]}
	scanWords(text, func(w string, start, end int) {
		ws.w = append(ws.w, w)
		ws.start = append(ws.start, start)
		ws.end = append(ws.end, end)
	})
	buf.w, buf.start, buf.end = ws.w, ws.start, ws.end // grown, for the next text
	return ws
}

// scanWords hands each word of text to emit, as tokenize cuts them, with
// where it stands: language detection counts them without keeping them.
func scanWords(text string, emit func(w string, start, end int)) {
	start := -1
	plain := true // the word as written is already its lower-case form
	var cur strings.Builder
	flush := func(end int) {
		if start >= 0 {
			w := text[start:end]
			if !plain {
				w = cur.String()
			}
			emit(w, start, end)
		}
		start, plain = -1, true
		cur.Reset()
	}
	// spell switches a word to being built rune by rune, from what it
	// held so far as written.
	spell := func(upTo int) {
		if plain {
			plain = false
			cur.WriteString(text[start:upTo])
		}
	}
	prev := rune(0)
	for off := 0; off < len(text); {
		// ASCII letters, digits and breaks, most of a text, take the
		// short way; an apostrophe or a full stop looks at the next rune.
		if c := text[off]; c < utf8.RuneSelf && c != '\'' && c != '.' {
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				if start < 0 {
					start = off
				} else if !plain {
					cur.WriteByte(c)
				}
			case 'A' <= c && c <= 'Z':
				if start < 0 {
					start = off
				}
				spell(off)
				cur.WriteByte(c + 'a' - 'A')
			default:
				if start >= 0 {
					flush(off)
				}
			}
			prev = rune(c)
			off++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[off:])
		next, _ := utf8.DecodeRuneInString(text[off+size:])
		switch {
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r):
			if start < 0 {
				start = off
			}
			if l := unicode.ToLower(r); l != r {
				spell(off)
				cur.WriteRune(l)
			} else if !plain {
				cur.WriteRune(r)
			}
		case unicode.Is(unicode.Cf, r):
			// invisible: neither part of a word nor a break
			if start >= 0 {
				spell(off)
			}
		case (r == '\'' || r == '’') && start >= 0 && unicode.IsLetter(next):
			if r != '\'' {
				spell(off)
				cur.WriteRune('\'')
			} else if !plain {
				cur.WriteRune(r)
			}
		case r == '.' && start >= 0 && unicode.IsLetter(next) && unicode.IsLetter(prev):
			// a name or an address: "Copy.AI", "example.com"
			if !plain {
				cur.WriteRune('.')
			}
		default:
			if start >= 0 {
				flush(off)
			}
		}
		prev = r
		off += size
	}
	if start >= 0 {
		flush(len(text))
	}
}

// splitWords cuts text into words and finds every cue in them.
func splitWords(text string) words {
	ws := tokenize(text)
	ws.hits = matchAll(ws)
	return ws
}

// span is the text of words i..j (inclusive) as written.
func (ws words) span(i, j int) string {
	return ws.text[ws.start[i]:ws.end[j]]
}
