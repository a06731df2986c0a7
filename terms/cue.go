package terms

import (
	"cmp"
	"slices"
	"strings"
	"sync"
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

// A cueList is one list of cues (the words of a topic, of a stance …).
type cueList struct {
	cues []cue
	id   int // its place in allLists, set when the index is built
}

func compile(patterns ...string) *cueList {
	l := &cueList{id: -1}
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
		l.cues = append(l.cues, c)
	}
	return l
}

// cueRef is one cue of one list.
type cueRef struct{ list, n int }

// cueIndex finds, for a word, the cues whose first word it can be: by the
// word itself, or by each of its beginnings for cues that name a prefix.
// With it a sentence is matched against every list in one pass over its
// words, instead of every cue trying every word.
type cueIndex struct {
	exact map[string][]cueRef
	// maybe says of most words that exact holds none of them, without the
	// map: most words of a text are no cue's first.
	maybe wordFilter
	// prefix is a tree of the prefixes' bytes (node 0 the root): a word
	// walks it byte by byte, meeting the cues of each of its beginnings in
	// order of length, and stops where no prefix goes on, instead of
	// looking up every beginning of every word in a map.
	prefix []prefixNode
	// root is the root's children by byte (0: none), as every word asks
	// the root first and it has the most children.
	root [256]int
}

type prefixNode struct {
	refs []cueRef     // the cues whose prefix ends here
	next []prefixEdge // its children, for a node other than the root
}

type prefixEdge struct {
	b  byte
	to int
}

// child is the node after n by byte b, or 0 when no prefix goes on so.
func (ix *cueIndex) child(n int, b byte) int {
	if n == 0 {
		return ix.root[b]
	}
	for _, e := range ix.prefix[n].next {
		if e.b == b {
			return e.to
		}
	}
	return 0
}

// addPrefix files ref under the prefix word.
func (ix *cueIndex) addPrefix(word string, ref cueRef) {
	n := 0
	for k := 0; k < len(word); k++ {
		c := ix.child(n, word[k])
		if c == 0 {
			c = len(ix.prefix)
			ix.prefix = append(ix.prefix, prefixNode{})
			if n == 0 {
				ix.root[word[k]] = c
			} else {
				ix.prefix[n].next = append(ix.prefix[n].next, prefixEdge{word[k], c})
			}
		}
		n = c
	}
	if n != 0 { // an empty prefix names no beginning of a word
		ix.prefix[n].refs = append(ix.prefix[n].refs, ref)
	}
}

// index is the index of every list, which gives the lists their ids.
var index = sync.OnceValue(func() *cueIndex {
	for li, l := range allLists {
		l.id = li
	}
	return indexOf(allLists)
})

// topicIndex is the index of topicLists alone, for classify's first test:
// its words are few, and rarely a text's common ones.
var topicIndex = sync.OnceValue(func() *cueIndex {
	index() // the lists' ids
	return indexOf(topicLists)
})

// indexOf indexes the cues of lists, each filed by its list's id.
func indexOf(lists []*cueList) *cueIndex {
	ix := &cueIndex{exact: map[string][]cueRef{}, prefix: []prefixNode{{}}}
	for _, l := range lists {
		for n, c := range l.cues {
			for _, a := range c.parts[0].alts {
				ref := cueRef{l.id, n}
				if a.prefix {
					ix.addPrefix(a.word, ref)
				} else {
					ix.exact[a.word] = append(ix.exact[a.word], ref)
					ix.maybe.add(a.word)
				}
			}
		}
	}
	return ix
}

// exactRefs are the cues whose first word is w itself.
func (ix *cueIndex) exactRefs(w string) []cueRef {
	if !ix.maybe.mayHold(w) {
		return nil
	}
	return ix.exact[w]
}

// wordFilter is a set of words as a bit for each word's length, first and
// last byte (hashed into 4,096 bits): a word whose bit is not set is none
// of them, one whose bit is set may be.
type wordFilter [64]uint64

func (f *wordFilter) add(w string) {
	b := filterBit(w)
	f[b/64] |= 1 << (b % 64)
}

func (f *wordFilter) mayHold(w string) bool {
	b := filterBit(w)
	return f[b/64]&(1<<(b%64)) != 0
}

func filterBit(w string) uint32 {
	if w == "" {
		return 0
	}
	x := uint32(len(w)) | uint32(w[0])<<8 | uint32(w[len(w)-1])<<16
	return (x * 0x9E3779B1) >> 20
}

// cueHit is a match of cue n of a list at words i..j.
type cueHit struct {
	hit
	n int
}

// matchesAny reports whether a cue of any of topicLists matches in ws: the
// candidates matchAll tries, only those of the lists, up to the first that
// matches.
func matchesAny(ws words) bool {
	ix := topicIndex()
	try := func(refs []cueRef, i int) bool {
		for _, r := range refs {
			if _, ok := allLists[r.list].cues[r.n].matchAt(ws, 0, i); ok {
				return true
			}
		}
		return false
	}
	for i, w := range ws.w {
		if try(ix.exactRefs(w), i) {
			return true
		}
		for k, n := 0, 0; k < len(w); k++ {
			if n = ix.child(n, w[k]); n == 0 {
				break
			}
			if try(ix.prefix[n].refs, i) {
				return true
			}
		}
	}
	return false
}

// matchAll finds every match of every cue of allLists in ws, by list,
// each list's matches ordered by where they start (then by the cue's
// place in its list).
func matchAll(ws words) [][]cueHit {
	ix := index()
	out := make([][]cueHit, len(allLists))
	try := func(refs []cueRef, i int) {
		for _, r := range refs {
			if j, ok := allLists[r.list].cues[r.n].matchAt(ws, 0, i); ok {
				out[r.list] = append(out[r.list], cueHit{hit{i, j}, r.n})
			}
		}
	}
	for i, w := range ws.w {
		try(ix.exactRefs(w), i)
		for k, n := 0, 0; k < len(w); k++ {
			if n = ix.child(n, w[k]); n == 0 {
				break
			}
			try(ix.prefix[n].refs, i)
		}
	}
	for _, hs := range out {
		if len(hs) > 1 {
			slices.SortFunc(hs, func(a, b cueHit) int { return cmp.Or(cmp.Compare(a.i, b.i), cmp.Compare(a.n, b.n)) })
		}
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

// hitsOf returns the matches of a list in a sentence.
func hitsOf(ws words, l *cueList) []cueHit {
	index() // lists get their ids with the index
	if l.id < 0 {
		panic("terms: a cue list missing from allLists")
	}
	return ws.hits[l.id]
}

// firstHit returns the earliest match of any of the list's cues, and the
// words of the sentence it covers.
func firstHit(ws words, l *cueList) (hit, string, bool) {
	hs := hitsOf(ws, l)
	if len(hs) == 0 {
		return hit{}, "", false
	}
	return hs[0].hit, ws.span(hs[0].i, hs[0].j), true
}

// allHits returns every match of the list's cues, in sentence order.
func allHits(ws words, l *cueList) []hit {
	hs := hitsOf(ws, l)
	out := make([]hit, len(hs))
	for k, h := range hs {
		out[k] = h.hit
	}
	return out
}
