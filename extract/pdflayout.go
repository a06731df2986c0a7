package extract

import (
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
)

// piece is a run of glyphs on one baseline, with no gap wider than
// pieceGap.
type piece struct {
	glyphs         []glyph
	x0, x1, y, top float64 // extent along the line; baseline; top of the box
	bottom, size   float64
}

// layoutPage returns the text of one page's glyphs: upright text first,
// then each turned direction.
func layoutPage(glyphs []glyph, joinHyphens bool) string {
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
		pieces := readingOrder(linePieces(group))
		writePieces(&b, pieces, joinHyphens)
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
		}
		cur.glyphs = append(cur.glyphs, g)
		cur.x1 = max(cur.x1, g.x+g.w)
		if g.size > cur.size && !g.space {
			cur.size, cur.y = g.size, g.y
		}
	}
	for _, p := range pieces {
		if p.size == 0 { // only spaces
			p.size, p.y = p.glyphs[0].size, p.glyphs[0].y
		}
		p.top = p.y + 0.7*p.size
		p.bottom = p.y - 0.2*p.size
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
	return ps
}

// cutColumns splits at the widest vertical band no piece crosses, when it
// is at least gutterGap wide.
func cutColumns(ps []*piece) (left, right []*piece, ok bool) {
	sorted := slices.Clone(ps)
	slices.SortStableFunc(sorted, func(a, b *piece) int {
		switch {
		case a.x0 < b.x0:
			return -1
		case a.x0 > b.x0:
			return 1
		}
		return 0
	})
	best, at := 0.0, -1
	reach := sorted[0].x1
	for i := 1; i < len(sorted); i++ {
		p := sorted[i]
		if gap := p.x0 - reach; gap > gutterGap*p.size && gap > best {
			best, at = gap, i
		}
		reach = max(reach, p.x1)
	}
	if at < 0 {
		return nil, nil, false
	}
	return sorted[:at], sorted[at:], true
}

// cutRows splits at the widest horizontal band no piece crosses; among
// equally wide bands, the highest.
func cutRows(ps []*piece) (upper, lower []*piece, ok bool) {
	sorted := slices.Clone(ps)
	slices.SortStableFunc(sorted, func(a, b *piece) int {
		switch {
		case a.top > b.top:
			return -1
		case a.top < b.top:
			return 1
		}
		return 0
	})
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
// a line break otherwise. A word hyphenated at a line end is joined when
// joinHyphens allows it (see joinsHyphen).
func writePieces(b *strings.Builder, ps []*piece, joinHyphens bool) {
	var texts []string
	for _, p := range ps {
		texts = append(texts, pieceText(p))
	}
	for i, p := range ps {
		t := texts[i]
		if i+1 == len(ps) {
			b.WriteString(t)
			break
		}
		next := ps[i+1]
		sameLine := abs(next.y-p.y) < baselineTolerance*min(p.size, next.size) && next.x0 >= p.x1
		switch {
		case sameLine:
			b.WriteString(t)
			b.WriteByte(' ')
		case joinsHyphen(t, texts[i+1], joinHyphens):
			_, n := utf8.DecodeLastRuneInString(t)
			b.WriteString(t[:len(t)-n])
		default:
			b.WriteString(t)
			b.WriteByte('\n')
		}
	}
}

// joinsHyphen reports whether a line ending in line and followed by next
// ends in a word broken by a hyphen: a soft hyphen (U+00AD, the PDF's own
// mark of a break inside a word) always; a hyphen-minus only when
// hyphenMinus is set; in both cases after a letter and before a
// lower-case letter.
func joinsHyphen(line, next string, hyphenMinus bool) bool {
	last, n := utf8.DecodeLastRuneInString(line)
	if last != '\u00ad' && (last != '-' || !hyphenMinus) {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(line[:len(line)-n])
	first, _ := utf8.DecodeRuneInString(next)
	return unicode.IsLetter(before) && unicode.IsLower(first)
}

// pieceText writes a piece's glyphs, with a space where a space glyph was
// drawn or the gap between two glyphs is wider than wordGap.
func pieceText(p *piece) string {
	var b strings.Builder
	for i, g := range p.glyphs {
		if g.space {
			b.WriteByte(' ')
			continue
		}
		if i > 0 {
			prev := p.glyphs[i-1]
			if !prev.space && g.x-(prev.x+prev.w) > wordGap*max(g.size, prev.size) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(g.text)
	}
	return strings.TrimSpace(b.String())
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

const joinLineEndHyphens = true
