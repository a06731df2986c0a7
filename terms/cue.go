package terms

import (
	"slices"
	"strings"
)

// A cue is a pattern of words that says something about a sentence: a
// topic, a stance, a subject. Patterns are written as lower-case words
// separated by spaces, where
//
//	word*   matches any word starting with "word" (scrap* matches scraper)
//	~       matches up to three words of any kind ("without ~ consent")
//	a|b     matches either word (each may end in *)
//
// Matching is on whole words, so "ai" never matches inside "said".
type cue struct {
	parts []cuePart
	text  string
}

type cuePart struct {
	gap  bool // ~
	alts []alt
}

type alt struct {
	word   string
	prefix bool
}

// maxGap is how many words a ~ may stand for.
const maxGap = 3

func compile(patterns ...string) []cue {
	out := make([]cue, 0, len(patterns))
	for _, p := range patterns {
		c := cue{text: p}
		for _, f := range strings.Fields(p) {
			if f == "~" {
				c.parts = append(c.parts, cuePart{gap: true})
				continue
			}
			var part cuePart
			for _, a := range strings.Split(f, "|") {
				part.alts = append(part.alts, alt{word: strings.TrimSuffix(a, "*"), prefix: strings.HasSuffix(a, "*")})
			}
			c.parts = append(c.parts, part)
		}
		out = append(out, c)
	}
	return out
}

func (a alt) matches(w string) bool {
	if a.prefix {
		return strings.HasPrefix(w, a.word)
	}
	return w == a.word
}

func (p cuePart) matches(w string) bool {
	for _, a := range p.alts {
		if a.matches(w) {
			return true
		}
	}
	return false
}

// hit is where a cue matched: words i..j of the sentence.
type hit struct{ i, j int }

// find returns the first place c matches in ws at or after word from. It
// tries only the positions where the cue's first word stands, found in the
// sentence's index, and keeps the earliest that matches.
func (c cue) find(ws words, from int) (hit, bool) {
	best, found := hit{}, false
	for _, a := range c.parts[0].alts {
		lo := ws.first(a.word)
		for k := lo; k < len(ws.byWord); k++ {
			i := ws.byWord[k]
			w := ws.w[i]
			if w != a.word && !(a.prefix && strings.HasPrefix(w, a.word)) {
				break
			}
			if i < from || found && i >= best.i {
				continue
			}
			if j, ok := c.matchAt(ws, 0, i); ok {
				best, found = hit{i, j}, true
			}
		}
	}
	return best, found
}

// matchAt matches parts[k:] starting at word i, returning the last word
// matched.
func (c cue) matchAt(ws words, k, i int) (int, bool) {
	if k == len(c.parts) {
		return i - 1, true
	}
	p := c.parts[k]
	if p.gap {
		for g := 0; g <= maxGap && i+g <= len(ws.w); g++ {
			if j, ok := c.matchAt(ws, k+1, i+g); ok {
				return j, true
			}
		}
		return 0, false
	}
	if i >= len(ws.w) || !p.matches(ws.w[i]) {
		return 0, false
	}
	return c.matchAt(ws, k+1, i+1)
}

// firstHit returns the earliest match of any of the cues, and the words of
// the sentence it covers.
func firstHit(ws words, cues []cue) (hit, string, bool) {
	best, found := hit{}, false
	for _, c := range cues {
		if h, ok := c.find(ws, 0); ok && (!found || h.i < best.i) {
			best, found = h, true
		}
	}
	if !found {
		return hit{}, "", false
	}
	return best, ws.span(best.i, best.j), true
}

// allHits returns every match of the cues, in sentence order (the first
// cue's first where two start at the same word).
func allHits(ws words, cues []cue) []hit {
	var out []hit
	for _, c := range cues {
		for from := 0; from < len(ws.w); {
			h, ok := c.find(ws, from)
			if !ok {
				break
			}
			out = append(out, h)
			from = h.j + 1
		}
	}
	slices.SortStableFunc(out, func(a, b hit) int { return a.i - b.i })
	return out
}
