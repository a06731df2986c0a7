package pdf

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The text layer is rebuilt from where glyphs sit, as a reader's eye does:
// glyphs that share a baseline make a line, read left to right whatever
// order they were drawn in; a line is cut into pieces where a gap is too
// wide to be a word space (a column gutter, a table cell); the pieces are
// put in reading order by cutting the page along its widest empty bands,
// columns before rows, so two columns are read one after the other. All
// thresholds are fractions of the font size, so they hold at any scale.
const (
	// baselineTolerance: glyphs whose baselines differ by less than this
	// share a line (superscripts and subscripts included).
	baselineTolerance = 0.4
	// wordGap: a gap wider than this between two glyphs is a word space.
	// Kerning and tracking stay well below it; a space glyph is a space
	// whatever its width.
	wordGap = 0.15
	// pieceGap: a gap wider than this cuts a line into pieces, which may
	// belong to different columns.
	pieceGap = 1.0
	// gutterGap: the least empty width between two columns.
	gutterGap = 0.5
	// maxCutPieces: a page with more pieces than this (a scatter of
	// glyphs, not a text) is read top to bottom without looking for
	// columns, as cutting costs time that grows with the square of the
	// count.
	maxCutPieces = 4000
)

// piece is a run of glyphs on one baseline, with no gap wider than
// pieceGap.
type piece struct {
	glyphs         []glyph
	x0, x1, y, top float64 // extent along the line; baseline; top of the box
	bottom, size   float64
	marker         bool // a list marker (see isMarker)
}

// layoutPage returns the text of one page's glyphs: upright text first,
// then each turned direction.
func layoutPage(glyphs []glyph) string {
	var b strings.Builder
	for dir := range uint8(4) {
		var group []glyph
		for _, g := range glyphs {
			if g.dir == dir {
				group = append(group, g)
			}
		}
		if len(group) == 0 {
			continue
		}
		pieces := linePieces(group)
		if len(pieces) <= maxCutPieces {
			pieces = readingOrder(pieces)
		} else {
			sortTopDown(pieces)
		}
		writePieces(&b, pieces)
		b.WriteByte('\n')
	}
	return b.String()
}

// linePieces groups glyphs into lines by baseline, orders each line by x
// and cuts it at wide gaps.
func linePieces(glyphs []glyph) []*piece {
	slices.SortStableFunc(glyphs, func(a, b glyph) int {
		switch {
		case a.y > b.y:
			return -1
		case a.y < b.y:
			return 1
		}
		return 0
	})
	var pieces []*piece
	for start := 0; start < len(glyphs); {
		bottom := glyphs[start].y
		end := start + 1
		for ; end < len(glyphs); end++ {
			g := glyphs[end]
			if g.y < bottom-baselineTolerance*max(g.size, glyphs[end-1].size) {
				break
			}
			bottom = min(bottom, g.y)
		}
		line := glyphs[start:end]
		slices.SortStableFunc(line, func(a, b glyph) int {
			switch {
			case a.x < b.x:
				return -1
			case a.x > b.x:
				return 1
			}
			return 0
		})
		pieces = appendPieces(pieces, line)
		start = end
	}
	return pieces
}

// appendPieces cuts one line (sorted by x) at wide gaps, dropping glyphs
// drawn twice at nearly the same place (a bold effect some producers use).
func appendPieces(pieces []*piece, line []glyph) []*piece {
	first := len(pieces) // the pieces before are done: finish only this line's
	// The line's pieces share one array: each holds a run of it, in order.
	buf := make([]glyph, 0, len(line))
	start := 0
	var cur *piece
	for _, g := range line {
		if cur != nil {
			last := cur.glyphs[len(cur.glyphs)-1]
			if g.text == last.text && g.x-last.x < 0.3*max(last.w, 0.1*last.size) && abs(g.y-last.y) < 0.2*g.size {
				continue
			}
			if g.x-cur.x1 > pieceGap*max(g.size, last.size) {
				cur = nil
			}
		}
		if cur == nil {
			cur = &piece{x0: g.x, x1: g.x + g.w}
			pieces = append(pieces, cur)
			start = len(buf)
		}
		buf = append(buf, g)
		cur.glyphs = buf[start:len(buf):len(buf)]
		cur.x1 = max(cur.x1, g.x+g.w)
		if g.size > cur.size && !g.space {
			cur.size, cur.y = g.size, g.y
		}
	}
	for _, p := range pieces[first:] {
		if p.size == 0 { // only spaces
			p.size, p.y = p.glyphs[0].size, p.glyphs[0].y
		}
		p.top = p.y + 0.7*p.size
		p.bottom = p.y - 0.2*p.size
		p.marker = isMarker(p.glyphs)
	}
	return pieces
}

// readingOrder orders pieces by cutting the set recursively: along the
// widest empty vertical band first (columns), else along the widest empty
// horizontal band (rows); pieces that cannot be separated are read top to
// bottom and left to right.
func readingOrder(ps []*piece) []*piece {
	if len(ps) <= 1 {
		return ps
	}
	if left, right, ok := cutColumns(ps); ok {
		return append(readingOrder(left), readingOrder(right)...)
	}
	if upper, lower, ok := cutRows(ps); ok {
		return append(readingOrder(upper), readingOrder(lower)...)
	}
	sortTopDown(ps)
	return ps
}

// sortTopDown orders pieces top to bottom, and left to right on a line.
func sortTopDown(ps []*piece) {
	slices.SortStableFunc(ps, func(a, b *piece) int {
		if abs(a.y-b.y) < baselineTolerance*min(a.size, b.size) {
			switch {
			case a.x0 < b.x0:
				return -1
			case a.x0 > b.x0:
				return 1
			}
			return 0
		}
		if a.y > b.y {
			return -1
		}
		return 1
	})
}

// cutColumns splits at the widest vertical band no piece crosses, when it
// is at least gutterGap wide and the two sides are columns: they run
// alongside each other (a piece beside others but on a row of its own,
// "Last update: ..." right-aligned under a title, is read in its row), and
// neither is only list markers (bullets and numbers are read with their
// items). A column of labels (terms beside their definitions) is a
// column: a label can wrap to a second line, which must not land inside
// the definition's sentence.
func cutColumns(ps []*piece) (left, right []*piece, ok bool) {
	sorted := slices.Clone(ps)
	slices.SortStableFunc(sorted, func(a, b *piece) int { return cmp.Compare(a.x0, b.x0) })
	best, at := 0.0, -1
	reach := sorted[0].x1
	for i := 1; i < len(sorted); i++ {
		p := sorted[i]
		gap := p.x0 - reach
		if gap > gutterGap*p.size && gap > best && sideBySide(sorted[:i], sorted[i:]) &&
			!allMarkers(sorted[:i]) && !allMarkers(sorted[i:]) {
			best, at = gap, i
		}
		reach = max(reach, p.x1)
	}
	if at < 0 {
		return nil, nil, false
	}
	return sorted[:at], sorted[at:], true
}

func allMarkers(ps []*piece) bool {
	for _, p := range ps {
		if !p.marker {
			return false
		}
	}
	return true
}

// isMarker tells a list marker ("•", "1.", "1.1.", "a)", "iv)") from
// text: at most five characters, at most three of them letters.
func isMarker(gs []glyph) bool {
	chars, letters := 0, 0
	for _, g := range gs {
		for _, r := range g.text {
			switch {
			case unicode.IsSpace(r):
			case unicode.IsLetter(r):
				letters++
				chars++
			default:
				chars++
			}
		}
		if chars > 5 || letters > 3 {
			return false // counts only grow: a line of text is decided at once
		}
	}
	return true
}

// sideBySide reports whether most pieces of the side with fewer pieces
// share some height with a piece of the other side.
func sideBySide(a, b []*piece) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	beside := 0
	for _, p := range a {
		for _, q := range b {
			if p.bottom < q.top && q.bottom < p.top {
				beside++
				break
			}
		}
	}
	return 2*beside >= len(a)
}

// cutRows splits at the widest horizontal band no piece crosses; among
// equally wide bands, the highest.
func cutRows(ps []*piece) (upper, lower []*piece, ok bool) {
	sorted := slices.Clone(ps)
	slices.SortStableFunc(sorted, func(a, b *piece) int { return cmp.Compare(b.top, a.top) }) // top down
	best, at := 0.0, -1
	floor := sorted[0].bottom
	for i := 1; i < len(sorted); i++ {
		p := sorted[i]
		if gap := floor - p.top; gap > 0 && gap > best+0.01 {
			best, at = gap, i
		}
		floor = min(floor, p.bottom)
	}
	if at < 0 {
		return nil, nil, false
	}
	return sorted[:at], sorted[at:], true
}

// writePieces writes pieces in order: a space between pieces on one line,
// a line break otherwise, and words broken at a line end joined (see
// lineEndHyphen).
func writePieces(b *strings.Builder, ps []*piece) {
	texts := make([]string, len(ps))
	for i, p := range ps {
		texts[i] = pieceText(p)
	}
	for i, p := range ps {
		t := texts[i]
		if i+1 == len(ps) {
			b.WriteString(t)
			break
		}
		next := ps[i+1]
		if abs(next.y-p.y) < baselineTolerance*min(p.size, next.size) && next.x0 >= p.x1 {
			b.WriteString(t)
			b.WriteByte(' ')
			continue
		}
		switch lineEndHyphen(t, texts[i+1]) {
		case softBreak:
			_, n := utf8.DecodeLastRuneInString(t)
			b.WriteString(t[:len(t)-n])
		case maybeBreak:
			b.WriteString(t)
			b.WriteRune(hyphenMark)
		case keepHyphen:
			b.WriteString(t)
		default:
			b.WriteString(t)
			b.WriteByte('\n')
		}
	}
}

// What a hyphen at the end of a line means.
const (
	noHyphen   = iota
	softBreak  // a soft hyphen (U+00AD): the PDF marks a break inside a word
	maybeBreak // letter, hyphen-minus, lower-case letter (or capitals on both sides): a broken word or a compound
	keepHyphen // a hyphen by a digit, or before a capital after a small letter ("L335-2", "Jean-Pierre")
)

// hyphenMark follows a hyphen-minus that may be a word break, until
// resolveHyphens decides. It is a private-use character, which glyph text
// never holds (cleanGlyphText removes them).
const hyphenMark = '\uE000'

func lineEndHyphen(line, next string) int {
	last, n := utf8.DecodeLastRuneInString(line)
	if last != '\u00ad' && last != '-' {
		return noHyphen
	}
	before, _ := utf8.DecodeLastRuneInString(line[:len(line)-n])
	first, _ := utf8.DecodeRuneInString(next)
	switch {
	case !isAlnum(before) || !isAlnum(first):
		return noHyphen
	case last == '\u00ad':
		return softBreak
	case unicode.IsLetter(before) && unicode.IsLower(first), unicode.IsUpper(before) && unicode.IsUpper(first):
		return maybeBreak
	}
	return keepHyphen
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// resolveHyphens decides each hyphen at a line end between two lower-case
// letters with the document's own evidence: PDFs rarely mark a soft
// hyphen, so a hyphen-minus there is usually a word broken by the
// typesetter ("free-" "dom") and is removed, as pdftotext does; but when
// the document writes the same word with its hyphen mid-line
// ("tietosuoja-asetuksen"), the hyphen is part of the word and stays.
func resolveHyphens(text string) string {
	if !strings.ContainsRune(text, hyphenMark) {
		return text
	}
	fields := strings.Fields(text)
	hyphenated := map[string]bool{}
	for _, f := range fields {
		if strings.Contains(f, "-") && !strings.ContainsRune(f, hyphenMark) {
			hyphenated[strings.TrimFunc(f, notAlnum)] = true
		}
	}
	mark := string(hyphenMark)
	for i, f := range fields {
		if !strings.Contains(f, mark) {
			continue
		}
		if hyphenated[strings.TrimFunc(strings.ReplaceAll(f, mark, ""), notAlnum)] {
			fields[i] = strings.ReplaceAll(f, mark, "")
		} else {
			fields[i] = strings.ReplaceAll(f, "-"+mark, "")
		}
	}
	return strings.Join(fields, " ")
}

func notAlnum(r rune) bool { return !isAlnum(r) }

// pieceText writes a piece's glyphs, with a space where a space glyph was
// drawn or the gap between two glyphs is wider than wordGap. A
// letter-spaced piece ("T E R M S  O F  U S E", drawn with a space or a
// gap after every letter, and wider gaps between words) is read as a
// reader reads it: only the wider gaps are spaces.
func pieceText(p *piece) string {
	letters := make([]glyph, 0, len(p.glyphs))
	spaceBefore := make([]float64, 0, len(p.glyphs)) // width of a space glyph drawn before each letter, -1 for none
	space := -1.0
	for _, g := range p.glyphs {
		if g.space {
			if len(letters) > 0 {
				space = max(space, g.w/g.size)
			}
			continue
		}
		letters = append(letters, g)
		spaceBefore = append(spaceBefore, space)
		space = -1
	}
	gaps := make([]float64, len(letters))
	for i := 1; i < len(letters); i++ {
		gaps[i] = gapOf(letters[i-1], letters[i])
	}
	spaced, threshold := letterSpacing(gaps[min(1, len(gaps)):])
	var b strings.Builder
	wordStart := true // letters[i-1] began a word
	for i, g := range letters {
		if i > 0 {
			space := gaps[i] > threshold || !spaced && spaceShown(spaceBefore[i], gaps[i]) ||
				wordStart && raised(letters[i-1], g)
			if space {
				b.WriteByte(' ')
			}
			wordStart = space
		}
		b.WriteString(g.text)
	}
	return b.String()
}

// spaceShown tells whether a space glyph of width w (in font sizes, -1
// for none) drawn between two letters gap apart makes a word space: it
// does when the letters leave room for at least half of it. A space drawn
// over a letter (some producers draw one after a link, over its last
// letter) makes none; a space glyph without a width is trusted.
func spaceShown(w, gap float64) bool {
	return w == 0 || w > 0 && gap >= w/2
}

// raised tells whether a is a superscript before b on its baseline. When
// a begins a word it is a footnote mark at the start of a footnote
// ("¹https://..."), which reads as a word of its own; inside a word it is
// typography (the raised A of the LaTeX logo).
func raised(a, b glyph) bool {
	return a.size < 0.85*b.size && a.y-b.y > 0.2*b.size
}

// gapOf is the empty space between two glyphs of a line, in font sizes.
func gapOf(a, b glyph) float64 {
	return (b.x - (a.x + a.w)) / max(a.size, b.size)
}

// letterSpacing tells whether a piece is letter-spaced, and the gap above
// which two glyphs are in different words. Most gaps in a text are inside
// words, so the lower quartile of the gaps is the letter gap: zero in
// ordinary text. A piece is letter-spaced when that gap is wide and some
// gaps are wider still (the word gaps); a row of single letters or digits
// ("1 2 3") has no wider gaps and keeps its spaces.
func letterSpacing(gaps []float64) (spaced bool, threshold float64) {
	if len(gaps) < 4 {
		return false, wordGap
	}
	sorted := slices.Sorted(slices.Values(gaps))
	letter := sorted[len(sorted)/4]
	if letter < 0.1 || sorted[len(sorted)-1] <= letter+wordGap {
		return false, wordGap
	}
	return true, letter + wordGap
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
