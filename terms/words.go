package terms

import (
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

// wordBuf is the memory a reader tokenizes every sentence of a document
// into (see tokenizeInto): the word slices, the lower-case forms of the
// words that are not written so, and the hits of every cue list.
type wordBuf struct {
	words
	spell []byte // scanWords' scratch for one word
	low   []byte // the lower-case forms of a sentence's words, one after another
	spelt []int  // for each word in low: its place in w, where it starts and ends in low
}

// tokenize cuts text into words. Invisible format characters (soft
// hyphens, zero-width joiners) are part of no word and split none:
// "Vil\u00ADkår" is the word "vilkår". An apostrophe inside a word is kept
// ("don't", "company's"), as typographic ones are, so patterns can name
// contractions.
func tokenize(text string) words {
	return tokenizeInto(&wordBuf{}, text)
}

// tokenizeInto is tokenize into buf's slices, grown as needed: a reader
// tokenizes every sentence of a document, most of them only to find they
// are on none of its topics, and one set of slices serves them all. The
// words returned share buf's memory until its next use.
//
// The words not written in lower case (every sentence's first) are made
// one string for the whole sentence, cut into them, rather than a string
// each: a string built for each capitalised word was a tenth of what a
// cold build's reader allocated.
func tokenizeInto(buf *wordBuf, text string) words {
	if n := len(text)/6 + 1; cap(buf.w) < n { // about a word in six bytes
		buf.w, buf.start, buf.end = make([]string, 0, n), make([]int, 0, n), make([]int, 0, n)
	}
	ws := words{text: text, w: buf.w[:0], start: buf.start[:0], end: buf.end[:0]}
	buf.low, buf.spelt = buf.low[:0], buf.spelt[:0]
	scanWords(text, &buf.spell, func(w string, low []byte, start, end int) {
		if low != nil {
			buf.spelt = append(buf.spelt, len(ws.w), len(buf.low), len(buf.low)+len(low))
			buf.low = append(buf.low, low...)
		}
		ws.w = append(ws.w, w)
		ws.start = append(ws.start, start)
		ws.end = append(ws.end, end)
	})
	if len(buf.spelt) > 0 {
		low := string(buf.low)
		for k := 0; k < len(buf.spelt); k += 3 {
			ws.w[buf.spelt[k]] = low[buf.spelt[k+1]:buf.spelt[k+2]]
		}
	}
	buf.w, buf.start, buf.end = ws.w, ws.start, ws.end // grown, for the next text
	return ws
}

// scanWords hands each word of text to emit, as tokenize cuts them, with
// where it stands: language detection counts them without keeping them.
// A word written in lower case already is w (text[start:end]), and low is
// nil; for any other, low is its lower-case form, built in *spell and
// valid only until emit returns (w is then "").
//
// The loop keeps its state in plain variables, not in closures that
// share them (which kept them in memory at every byte), and runs through
// a word's lower-case ASCII letters and digits, most of any text, in a
// loop of their own: the scan was a third of the reader's time.
func scanWords(text string, spell *[]byte, emit func(w string, low []byte, start, end int)) {
	start := -1
	plain := true // the word as written is already its lower-case form
	cur := (*spell)[:0]
	prev := rune(0)
	for off := 0; off < len(text); {
		// ASCII letters, digits and breaks take the short way; an
		// apostrophe or a full stop looks at the next rune.
		if c := text[off]; c < utf8.RuneSelf && c != '\'' && c != '.' {
			switch asciiKind[c] {
			case asciiLower:
				if start < 0 {
					start = off
				}
				if !plain {
					cur = append(cur, c)
					off++
				} else {
					for off++; off < len(text) && asciiKind[text[off]] == asciiLower; off++ {
					}
				}
				prev = rune(text[off-1])
				continue
			case asciiUpper:
				if start < 0 {
					start = off
				}
				if plain {
					plain, cur = false, append(cur, text[start:off]...)
				}
				cur = append(cur, c+'a'-'A')
			default:
				if start >= 0 {
					emitWord(emit, text, start, off, plain, cur)
					start, plain, cur = -1, true, cur[:0]
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
				if plain {
					plain, cur = false, append(cur, text[start:off]...)
				}
				cur = utf8.AppendRune(cur, l)
			} else if !plain {
				cur = utf8.AppendRune(cur, r)
			}
		case unicode.Is(unicode.Cf, r):
			// invisible: neither part of a word nor a break
			if start >= 0 && plain {
				plain, cur = false, append(cur, text[start:off]...)
			}
		case (r == '\'' || r == '’') && start >= 0 && unicode.IsLetter(next):
			if r != '\'' && plain {
				plain, cur = false, append(cur, text[start:off]...)
			}
			if !plain {
				cur = append(cur, '\'')
			}
		case r == '.' && start >= 0 && unicode.IsLetter(next) && unicode.IsLetter(prev):
			// a name or an address: "Copy.AI", "example.com"
			if !plain {
				cur = append(cur, '.')
			}
		default:
			if start >= 0 {
				emitWord(emit, text, start, off, plain, cur)
				start, plain, cur = -1, true, cur[:0]
			}
		}
		prev = r
		off += size
	}
	if start >= 0 {
		emitWord(emit, text, start, len(text), plain, cur)
	}
	*spell = cur // grown, for the next text
}

// emitWord hands emit the word text[start:end], spelt as cur unless it is
// plain.
func emitWord(emit func(w string, low []byte, start, end int), text string, start, end int, plain bool, cur []byte) {
	if plain {
		emit(text[start:end], nil, start, end)
	} else {
		emit("", cur, start, end)
	}
}

// The kinds of ASCII bytes scanWords tells apart: the rest break words.
// A byte of a longer rune is asciiBreak here, so a run of lower-case
// letters stops at it, and the rune it starts is read whole.
const (
	asciiBreak = iota
	asciiLower // a lower-case letter or a digit: a word's own form
	asciiUpper
)

var asciiKind = func() (k [256]uint8) {
	for c := range k {
		switch {
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
			k[c] = asciiLower
		case 'A' <= c && c <= 'Z':
			k[c] = asciiUpper
		}
	}
	return k
}()

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
