package terms

import (
	"cmp"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/crawlsignals/crawlsignals/extract"
)

// The reader's short ways (ASCII in tokenize, words counted without
// making them, valid UTF-8 cut into sentences in place, the prefix tree of
// the cue index, whole-word tests for abbreviations) must read every text
// as the plain ways below do, which are the reader as it was before them.
// They are compared on the real terms documents, when present, and on
// texts made to hit the edges.

// edgeTexts are made to reach every branch of the short ways.
var edgeTexts = []string{
	"", ".", "a.", "A. B", "Hi! There? Yes.", "Don't SCRAPE. We’re here.", "Copy.AI's terms, e.g. Here.",
	"See art. 5. Then more.", "(etc.) No", "Inc. Corp. Ltd. Next", "J. Smith wrote it. Then", "§ 3. The rule",
	"End.” Next", "End.) Next", "End.»  Next", "Stop.\"“Quoted", "Stop. «Fransk»", "x. 1 two", "Vil\u00ADkår. Og",
	"ÅPNE DATA. Øl", "bl.a. Noe", "naïve café. Ünder", "\u212Aelvin. K", "a\u0301b. C", "...", ". . .", "a .B", "Word. ",
	"Long sentence with many words before the abbr f.eks. Ja", "e.g. I.E. Vs. Mr. Dr. No. NR. Ok",
	"UPPER CASE ONLY. MORE", "mixed.Case.Words here. And", "tab\tsep. New", "a'b 'c d' e’f g’", "x.y.z 1.2.3 ab.c.",
	"\xffbad. Next", "ok. \xfe Bad", "end with apostrophe'", "DIGITS 123ABC abc123. 9 lives", " \t\v\f\r\n x\u00a0y\u0085z\u2003w\u3000 ", "\x85\xa0 bad \xc2", "  ",
}

// enumTexts are lists inside a sentence, and brackets that open none.
var enumTexts = []string{
	"(a) first (b) second", "You may not: (i) copy it; (ii) sell it; or (iii) scrape it.", "x (1) one, (2) two",
	"(see below) and (this)", "a(b) c(d) e", "not (a) this and (b) that", "((a) x; (b) y", "(", ")(", "ends in (a)",
	"Users must not (a) crawl, (b) index, (c) mirror the site", "to (iv) x; (v) y; (vi) z", "list: (A) big (B) bigger",
}

// realTexts are the block texts of the real terms documents (none when
// the folder is absent).
func realTexts(t *testing.T) []string {
	var out []string
	files, _ := filepath.Glob(filepath.Join(realTerms, "*.*"))
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(f) {
		case ".html":
			p, err := extract.HTML(body, "text/html; charset=utf-8", nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range p.Blocks {
				out = append(out, b.Text)
			}
			out = append(out, p.Text)
		case ".txt":
			for _, b := range extract.LineBlocks(string(body)) {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

// realBlocks are the blocks of the real terms documents (none when the
// folder is absent).
func realBlocks(t *testing.T) [][]extract.Block {
	var out [][]extract.Block
	files, _ := filepath.Glob(filepath.Join(realTerms, "*.*"))
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(f) {
		case ".html":
			p, err := extract.HTML(body, "text/html; charset=utf-8", nil)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p.Blocks)
		case ".txt":
			out = append(out, extract.LineBlocks(string(body)))
		}
	}
	return out
}

// edgeBlocks are documents made to meet detectBlocks' edges: the edge
// texts as blocks, words cut at the end of a block, and documents whose
// joined text reaches detectBytes inside a block, at its end, at the space
// after it, and inside a rune.
func edgeBlocks() [][]extract.Block {
	var edges []extract.Block
	for _, s := range edgeTexts {
		edges = append(edges, extract.Block{Text: s})
	}
	out := [][]extract.Block{edges, {{Text: "Copy."}, {Text: "AI and the"}, {Text: "don'"}, {Text: "t you"}}}
	en := strings.Repeat("the terms of your use and ", 40)       // 1,040 bytes
	nb := strings.Repeat("vilkår for bruk av tjenesten og ", 30) // 1,020 bytes
	for _, pad := range []int{0, 1, 2, 3, 37} {
		var doc []extract.Block
		n := 0
		for i := 0; n < detectBytes+3000; i++ {
			t := en
			if i%3 == 1 {
				t = nb
			}
			if i == 5 {
				t += strings.Repeat("x", pad) + "å"
			}
			doc = append(doc, extract.Block{Text: t})
			n += len(t) + 1
		}
		// a block ending where the joined text reaches detectBytes, then
		// one ending a byte before, and one inside "å"
		for _, cut := range []int{0, -1, 1} {
			d := slices.Clone(doc)
			k, n := 0, 0
			for ; n+len(d[k].Text)+1 <= detectBytes; k++ {
				n += len(d[k].Text) + 1
			}
			d[k].Text = strings.Repeat("og ", (detectBytes-n+cut)/3) + "ø" + strings.Repeat("i", pad)
			out = append(out, d)
		}
		out = append(out, doc)
	}
	return out
}

func TestShortWaysReadAsThePlainWays(t *testing.T) {
	texts := append(realTexts(t), edgeTexts...)
	var sents []string
	for _, text := range texts {
		if got, want := tokenize(text), tokenizeRunes(text); !reflect.DeepEqual(got, want) {
			t.Errorf("tokenize(%.80q) = %q, the plain way %q", text, got.w, want.w)
		}
		got := splitSentences(text)
		if want := splitSentenceRunes(text); !slices.Equal(got, want) {
			t.Errorf("splitSentences(%.80q) = %q, the plain way %q", text, got, want)
		}
		sents = append(sents, got...)
		rs := []rune(text)
		for i := range rs {
			if rs[i] != '.' || !utf8.ValidString(text) {
				continue
			}
			// what stands more than 13 runes before the stop matters to
			// neither way; 30 keep both short and long candidates
			c := rs[max(0, i-30) : i+1]
			if got, want := abbreviation(c), abbreviationAsWritten(c); got != want {
				t.Errorf("abbreviation(%q) = %v, the plain way %v", string(c), got, want)
			}
			if got, want := abbreviationText(string(c)), abbreviationAsWritten(c); got != want {
				t.Errorf("abbreviationText(%q) = %v, the plain way %v", string(c), got, want)
			}
		}
	}
	for _, text := range texts {
		for _, hint := range []string{"", "nb", "en-GB"} {
			if got, want := DetectLanguage(text, hint), detectFromTokens(text, hint); got != want {
				t.Errorf("DetectLanguage(%.80q, %q) = %q, from tokenize's words %q", text, hint, got, want)
			}
		}
	}
	docs := append(realBlocks(t), edgeBlocks()...)
	for _, blocks := range docs {
		var joined markerCount
		joined.add(joinText(blocks, detectBytes))
		if got := countBlocks(blocks); got.words != joined.words || got.score != joined.score {
			t.Errorf("countBlocks(%d blocks) = %d words %v, of the joined text %d %v", len(blocks), got.words, got.score, joined.words, joined.score)
		}
		for _, hint := range []string{"", "nb", "en-GB"} {
			if got, want := detectBlocks(blocks, hint), DetectLanguage(joinText(blocks, detectBytes), hint); got != want {
				t.Errorf("detectBlocks(%d blocks, %q) = %q, of the joined text %q", len(blocks), hint, got, want)
			}
		}
	}
	for _, s := range append(texts, sents...) {
		n := len(strings.Fields(s))
		for _, upTo := range []int{1, 2, 3, 11, len(s) + 1} {
			if got, want := countFields(s, upTo), min(n, upTo); got != want {
				t.Errorf("countFields(%.80q, %d) = %d, strings.Fields %d", s, upTo, got, n)
			}
		}
	}
	for _, s := range append(sents, enumTexts...) {
		h, items := enumeration(s)
		if wh, witems := enumerationByteByByte(s); h != wh || !slices.Equal(items, witems) {
			t.Errorf("enumeration(%.80q) = %q %q, byte by byte %q %q", s, h, items, wh, witems)
		}
	}
	for _, s := range sents {
		ws := tokenize(s)
		all := matchAllByMap(ws)
		if got := matchAll(ws); !reflect.DeepEqual(got, all) {
			t.Errorf("matchAll(%.80q) = %v, by map %v", s, got, all)
		}
		// classify's early way out: matchesAny finds a topic list's cue
		// exactly when matching every list does, and when it finds none,
		// none of classify's topic tests would have held
		none := true
		for _, l := range topicLists {
			none = none && len(all[l.id]) == 0
		}
		if got := matchesAny(ws); got == none {
			t.Errorf("matchesAny(%.80q) = %v; matching every list finds topic hits: %v", s, got, !none)
		}
		if none {
			full := splitWords(s)
			_, _, scrape := firstHit(full, scrapingCues)
			_, _, ai := firstHit(full, aiCues)
			_, _, lic := firstHit(full, licenceStrong)
			_, _, weak, _ := firstWeak(full)
			_, _, api := firstHit(full, apiCues)
			if scrape || ai || lic || weak || api {
				t.Errorf("%.80q: no topic list matches, yet classify's topic tests hold", s)
			}
		}
	}
	if len(texts) == len(edgeTexts) {
		t.Logf("real terms not found at %s: compared on the made texts only", realTerms)
	}
}

// matchAllByMap is matchAll with the prefixes looked up in a map, every
// beginning of every word.
func matchAllByMap(ws words) [][]cueHit {
	m := cueMaps()
	exact, prefix, maxPrefix := m.exact, m.prefix, m.maxPrefix
	out := make([][]cueHit, len(allLists))
	try := func(refs []cueRef, i int) {
		for _, r := range refs {
			if j, ok := allLists[r.list].cues[r.n].matchAt(ws, 0, i); ok {
				out[r.list] = append(out[r.list], cueHit{hit{i, j}, r.n})
			}
		}
	}
	for i, w := range ws.w {
		try(exact[w], i)
		for k := 1; k <= len(w) && k <= maxPrefix; k++ {
			if refs, ok := prefix[w[:k]]; ok {
				try(refs, i)
			}
		}
	}
	for _, hs := range out {
		if len(hs) > 1 {
			slices.SortFunc(hs, func(a, b cueHit) int { return cmp.Or(cmp.Compare(a.i, b.i), cmp.Compare(a.n, b.n)) })
		}
	}
	return out
}

// cueMaps files each cue under its first word, whole or as a prefix.
var cueMaps = sync.OnceValue(func() cueMapsOf {
	exact, prefix, maxPrefix := map[string][]cueRef{}, map[string][]cueRef{}, 0
	for li, l := range allLists {
		for n, c := range l.cues {
			for _, a := range c.parts[0].alts {
				if a.prefix {
					prefix[a.word] = append(prefix[a.word], cueRef{li, n})
					maxPrefix = max(maxPrefix, len(a.word))
				} else {
					exact[a.word] = append(exact[a.word], cueRef{li, n})
				}
			}
		}
	}
	return cueMapsOf{exact, prefix, maxPrefix}
})

type cueMapsOf struct {
	exact, prefix map[string][]cueRef
	maxPrefix     int
}

// tokenizeRunes is tokenize read rune by rune throughout.
func tokenizeRunes(text string) words {
	n := len(text)/6 + 1 // about a word in six bytes
	ws := words{text: text, w: make([]string, 0, n), start: make([]int, 0, n), end: make([]int, 0, n)}
	start := -1
	plain := true // the word as written is already its lower-case form
	var cur strings.Builder
	flush := func(end int) {
		if start >= 0 {
			w := text[start:end]
			if !plain {
				w = cur.String()
			}
			ws.w = append(ws.w, w)
			ws.start = append(ws.start, start)
			ws.end = append(ws.end, end)
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
	return ws
}

// abbreviationAsWritten is abbreviation with each whole-word test spelt out.
func abbreviationAsWritten(rs []rune) bool {
	tail := rs[max(0, len(rs)-12):] // no abbreviation is longer: the rest cannot matter
	s := strings.ToLower(string(tail))
	if len(tail) < len(rs) {
		s = " " + s[strings.IndexByte(s, ' ')+1:] // a whole word at the start
	}
	for _, a := range abbreviations {
		if strings.HasSuffix(s, " "+a) || s == a || strings.HasSuffix(s, "("+a) {
			return true
		}
	}
	n := len(rs)
	if n >= 2 && unicode.IsUpper(rs[n-2]) && (n == 2 || rs[n-3] == ' ') {
		return true
	}
	return false
}

// Every language with marker words is weighed: one missing from
// detectOrder would never be detected.
func TestDetectOrderHoldsEveryMarkedLanguage(t *testing.T) {
	for lang := range markers {
		if !slices.Contains(detectOrder[:], lang) {
			t.Errorf("%s has marker words but is not in detectOrder", lang)
		}
	}
}

// enumerationByteByByte is enumeration looking at every byte for a mark.
func enumerationByteByByte(s string) (head string, items []string) {
	var at []int // where each mark starts
	var after []int
	for i := 0; i < len(s); i++ {
		if s[i] != '(' || (i > 0 && !strings.ContainsRune(":;, ", rune(s[i-1]))) {
			continue
		}
		j := strings.IndexByte(s[i:], ')')
		if j < 2 || j > 5 || i+j+2 > len(s) || s[i+j+1] != ' ' {
			continue
		}
		mark := s[i+1 : i+j]
		if !enumMark(mark) {
			continue
		}
		if i > 0 {
			k := strings.TrimRight(s[:i], " ")
			if k != "" && !strings.ContainsRune(":;,", rune(k[len(k)-1])) && !strings.HasSuffix(k, " or") && !strings.HasSuffix(k, " and") && !strings.HasSuffix(k, " to") && !strings.HasSuffix(k, " not") {
				continue
			}
		}
		at = append(at, i)
		after = append(after, i+j+2)
	}
	if len(at) < 2 || at[0] > 400 {
		return "", nil
	}
	head = strings.TrimSpace(s[:at[0]])
	for n := range at {
		end := len(s)
		if n+1 < len(at) {
			end = at[n+1]
		}
		it := strings.TrimSpace(s[after[n]:end])
		for _, tail := range []string{"; and", "; or", ", and", ", or", ";", ",", " and", " or"} {
			it = strings.TrimSpace(strings.TrimSuffix(it, tail))
		}
		if it != "" {
			items = append(items, it)
		}
	}
	if countFields(head, 2) < 2 {
		head = ""
	}
	return head, items
}

// detectFromTokens is DetectLanguage counting the words tokenize keeps.
func detectFromTokens(text, hint string) string {
	if len(text) > 40000 {
		text = text[:40000]
	}
	ws := tokenize(text).w
	if len(ws) < 8 {
		return strings.ToLower(primary(hint))
	}
	var score [len(detectOrder)]int
	for _, w := range ws {
		for _, i := range markerOf[w] {
			score[i]++
		}
	}
	best, bestN := "", 0
	for i, lang := range detectOrder {
		n := score[i]
		if h := primary(hint); h == lang || (h == "no" && lang == "nb") {
			n += n / 20
		}
		if n > bestN {
			best, bestN = lang, n
		}
	}
	if bestN*20 < len(ws) {
		return strings.ToLower(primary(hint))
	}
	return best
}

// joinText is the blocks' texts joined by spaces, as far as the first max
// bytes: what detectBlocks reads, made one text.
func joinText(blocks []extract.Block, max int) string {
	n := 0
	for _, b := range blocks {
		n += len(b.Text) + 1
	}
	var buf strings.Builder
	buf.Grow(min(n, max))
	for _, b := range blocks {
		if buf.Len() >= max {
			break
		}
		buf.WriteString(b.Text[:min(len(b.Text), max-buf.Len())])
		if buf.Len() < max {
			buf.WriteByte(' ')
		}
	}
	return buf.String()
}

// A word filter holds every word it was given: the indexes' filters hold
// every first word of their exact maps, and the markers' every marker.
func TestWordFiltersHoldTheirWords(t *testing.T) {
	for name, ix := range map[string]*cueIndex{"index": index(), "topicIndex": topicIndex()} {
		for w := range ix.exact {
			if !ix.maybe.mayHold(w) {
				t.Errorf("%s: the filter says %q is none of its words", name, w)
			}
		}
	}
	for w := range markerOf {
		if !maybeMarker.mayHold(w) {
			t.Errorf("maybeMarker says %q is no marker", w)
		}
	}
	// and it says no of some words, or it would filter nothing
	var f wordFilter
	f.add("licence")
	if f.mayHold("the") || f.mayHold("and") || !f.mayHold("licence") {
		t.Errorf("a filter of \"licence\" holds the %v, and %v, licence %v", f.mayHold("the"), f.mayHold("and"), f.mayHold("licence"))
	}
}
