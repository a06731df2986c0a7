package extract

import (
	"strings"
	"unicode"
)

// Block is one block of a page's visible text: a paragraph, a heading, a
// list item, a table cell or a line, with what kind of box holds it. A
// sentence never crosses a block (design §2.5.1), and what a block is
// decides whether it can be a quote at all: a heading, a menu entry or a
// link list never is.
type Block struct {
	Text string
	Box  string // BoxText, BoxHeading, BoxItem, BoxCell or BoxLabel
	// Depth is how many lists hold the block: 0 outside any, 1 for an item
	// of a list, 2 for an item of a list inside an item, and so on. The
	// lead-in of an item is the nearest block before it of smaller depth.
	Depth int
	// Nav is set inside navigation: <nav>, <menu>, role=navigation or
	// menu, and a page's own <header> and <footer> (not an article's).
	Nav bool
	// Letters counts the block's letters and digits; Linked those inside
	// links. A block that is all link text is a menu entry or a link list.
	Letters, Linked int
}

// The boxes a block can be in.
const (
	BoxText    = "text"    // a paragraph, a div, a line: prose
	BoxHeading = "heading" // h1–h6, summary, a table header cell
	BoxItem    = "item"    // a list item, or a definition
	BoxCell    = "cell"    // a table data cell
	BoxLabel   = "label"   // a caption, legend, term (dt) or option
)

// openBox is an open block element as the walker sees it.
type openBox struct {
	kind  string
	depth int
	nav   bool
}

// boxOf says what kind of block an element opens, inheriting list depth
// and navigation from the box around it.
func (w *walker) boxOf(name, attrRole string) openBox {
	b := openBox{kind: BoxText}
	if k := len(w.boxes); k > 0 {
		b.depth, b.nav = w.boxes[k-1].depth, w.boxes[k-1].nav
		b.kind = w.boxes[k-1].kind
	}
	role := strings.ToLower(attrRole)
	switch name {
	case "h1", "h2", "h3", "h4", "h5", "h6", "summary", "th":
		b.kind = BoxHeading
	case "li", "dd":
		b.kind = BoxItem
		b.depth++
	case "td":
		b.kind = BoxCell
	case "dt", "caption", "figcaption", "legend", "option", "optgroup":
		b.kind = BoxLabel
	case "p", "blockquote", "pre", "div":
		// a paragraph inside a list item or a cell is still part of it
		if b.kind != BoxItem && b.kind != BoxCell {
			b.kind = BoxText
		}
	case "nav", "menu":
		b.nav = true
	case "header", "footer":
		if w.articleDepth == 0 && !w.inMain() {
			b.nav = true
		}
	}
	if hasToken(role, "heading") {
		b.kind = BoxHeading
	}
	if hasToken(role, "navigation") || hasToken(role, "menu") || hasToken(role, "menubar") || hasToken(role, "tablist") {
		b.nav = true
	}
	return b
}

// inMain reports whether the walk is inside a <main> or role=main element.
func (w *walker) inMain() bool { return w.mainDepth > 0 }

// joinBlocks is the page text: the blocks' texts joined by single spaces.
func joinBlocks(blocks []Block) string {
	var b strings.Builder
	n := 0
	for _, bl := range blocks {
		n += len(bl.Text) + 1
	}
	b.Grow(n)
	for i, bl := range blocks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(bl.Text)
	}
	return b.String()
}

// LineBlocks cuts a plain text or a PDF's text into blocks as a reader
// sees them: lines run together into a paragraph until a blank line, and
// Markdown marks (as in a .txt copy of a page's source) give the kind and
// start a block of their own: "#" a heading, "-", "*", "+" or "1." a list
// item, "|" a table row. A hard-wrapped text is read as its paragraphs,
// not cut at every line end.
func LineBlocks(text string) []Block {
	var out []Block
	var cur []string
	curBlock := Block{Box: BoxText}
	flush := func() {
		if len(cur) == 0 {
			return
		}
		b := curBlock
		b.Text = Normalize(strings.Join(cur, " "))
		for _, r := range b.Text {
			if unicode.IsLetter(r) || unicode.IsNumber(r) {
				b.Letters++
			}
		}
		if b.Text != "" {
			out = append(out, b)
		}
		cur, curBlock = nil, Block{Box: BoxText}
	}
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if strings.TrimSpace(trimmed) == "" {
			flush()
			continue
		}
		indent := len(line) - len(trimmed)
		// a heading or a table row is a block of one line
		single := ""
		switch {
		case strings.HasPrefix(trimmed, "#"):
			single = BoxHeading
		case strings.HasPrefix(trimmed, "|"):
			single = BoxCell
		case markdownItem(trimmed):
			flush()
			curBlock = Block{Box: BoxItem, Depth: 1 + indent/2}
		}
		if single != "" {
			flush()
			curBlock, cur = Block{Box: single}, []string{line}
			flush()
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return out
}

// markdownItem reports whether a line starts a Markdown list item.
func markdownItem(s string) bool {
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
		return true
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i < 4 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' '
}
