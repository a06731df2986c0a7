package extract

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// Style sheets and scripts are half the bytes of real pages (52% of
// ../shared/realweb's HTML: 29% scripts, 23% styles), and nothing of them
// is read: the walker skips <style> and <script>. The parser still reads
// their text byte by byte, copies it into strings and makes nodes of it, a
// sixth of what parsing a page cost. stripUnread takes that text out
// before the parser sees it, and with it more that nothing reads: the
// text of comments, the content of inline SVG images (the walker reads no
// SVG element, and only SVG drawing elements are cut, so no <link> or
// <meta> that other readers look for anywhere), and the attributes no
// code reads (see attrs.go).
//
// It must cut exactly where the parser's tokenizer (golang.org/x/net/html)
// would start and end the raw text, so it reads the markup as that
// tokenizer does: tags with their quoted attribute values, comments by the
// tokenizer's rules, "<!" and "<?" declarations, the raw text of the other
// elements whose text is not markup (iframe, noembed, noframes, noscript,
// textarea, title, xmp). Where the tree builder could read the text of a
// <style> or <script> otherwise (in SVG and MathML, in a frameset), or
// where the tokenizer's rules are ones it does not follow (<plaintext>, a
// document ending inside markup), it stops and leaves the rest as written.
// A script holding "<!--" is read by the tokenizer's own states for it
// (scriptEnd). TestStripUnreadKeepsTheTree holds it to the
// parser on the real pages and on random markup, and
// TestStripUnreadKeepsThePage holds what HTML returns to what it returns
// from the page as written.

// stripUnread returns data without the text of its <style> and <script>
// elements and its comments, the content of its inline SVG and its unread
// attributes, up to
// where it stops, as the pieces of data that are kept, in order: the
// parser reads them one after the other (see pieceReader), so the page is
// not copied.
func stripUnread(data []byte) [][]byte {
	var out [][]byte
	var attrs []attrSpan // of the tag being read
	kept := 0            // data[kept:] is not yet in out
	cut := func(from, to int) {
		out = append(out, data[kept:from])
		kept = to
	}
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 || i+j+1 >= len(data) {
			break
		}
		i += j
		c := data[i+1]
		switch {
		case isASCIILetter(c):
			attrs = attrs[:0]
			end, _, ok := readTag(data, i+2, &attrs)
			if !ok {
				return finish(out, data, kept)
			}
			name := tagName(data, i+1)
			if len(attrs) > 0 && dropsAttrs(name) {
				unreadAttrs(data, attrs, noneRead(data, name, attrs), cut)
			}
			switch {
			case nameIs(name, "style"), nameIs(name, "script"):
				text := rawTextEnd(data, end, name)
				if text >= 0 && nameIs(name, "script") && bytes.Contains(data[end:text], []byte("<!--")) {
					text = scriptEnd(data, end) // an escape may hide that end tag
				}
				if text < 0 {
					return finish(out, data, kept)
				}
				if text > end {
					cut(end, text)
				}
				i = text
			case nameIs(name, "iframe"), nameIs(name, "noembed"), nameIs(name, "noframes"), nameIs(name, "noscript"),
				nameIs(name, "textarea"), nameIs(name, "title"), nameIs(name, "xmp"):
				text := rawTextEnd(data, end, name)
				if text < 0 {
					return finish(out, data, kept)
				}
				i = text
			case nameIs(name, "svg"):
				closing, next, stand, ok := svgEnd(data, end)
				if !ok {
					return finish(out, data, kept)
				}
				// Nothing reads the attributes of an <svg> either, but a
				// "/" the tokenizer reads between them could end up before
				// the ">" and make the tag self-closing: then all stay.
				if len(attrs) > 0 && !hasSolidus(data, attrs) {
					unreadAttrs(data, attrs, true, cut)
				}
				switch {
				case stand == -1 && closing > end:
					cut(end, closing)
				case stand >= 0:
					// Text in SVG content turns off a later <frameset>:
					// one character of it does the same.
					if stand > end {
						cut(end, stand)
					}
					if closing > stand+1 {
						cut(stand+1, closing)
					}
				}
				i = next
			case nameIs(name, "plaintext"), nameIs(name, "math"), nameIs(name, "frameset"):
				return finish(out, data, kept)
			default:
				i = end
			}
		case c == '/':
			if i+2 >= len(data) {
				return finish(out, data, kept)
			}
			switch c := data[i+2]; {
			case c == '>': // "</>" is nothing
				i += 3
			case isASCIILetter(c):
				end, ok := tagEnd(data, i+3)
				if !ok {
					return finish(out, data, kept)
				}
				i = end
			default: // a bogus comment, to the first ">"
				k := bytes.IndexByte(data[i+2:], '>')
				if k < 0 {
					return finish(out, data, kept)
				}
				i += 2 + k + 1
			}
		case c == '!':
			if i+3 >= len(data) {
				return finish(out, data, kept)
			}
			if data[i+2] == '-' && data[i+3] == '-' {
				end := commentEnd(data, i+4)
				if end < 0 {
					return finish(out, data, kept)
				}
				// Nothing reads a comment's text: "<!--" and a closing
				// "-->" make the same comment, empty.
				if end-3 > i+4 && bytes.Equal(data[end-3:end], []byte("-->")) {
					cut(i+4, end-3)
				}
				i = end
				break
			}
			// A doctype or a bogus comment: to the first ">" either way
			// (CDATA sections are read as such only in foreign content).
			k := bytes.IndexByte(data[i+2:], '>')
			if k < 0 {
				return finish(out, data, kept)
			}
			i += 2 + k + 1
		case c == '?': // a bogus comment, to the first ">"
			k := bytes.IndexByte(data[i+1:], '>')
			if k < 0 {
				return finish(out, data, kept)
			}
			i += 1 + k + 1
		default: // a "<" of the text; the byte after it is read again
			i++
		}
	}
	return finish(out, data, kept)
}

// finish is what stripUnread returns: the pieces cut so far, and the
// rest of data.
func finish(out [][]byte, data []byte, kept int) [][]byte {
	return append(out, data[kept:])
}

// pieceReader reads pieces of bytes one after the other. A Read fills p
// from as many pieces as fit: the tokenizer moves the token it is in to the
// front of its buffer on every Read, and a page cut around its attributes
// is thousands of pieces.
type pieceReader [][]byte

func (r *pieceReader) Read(p []byte) (int, error) {
	n := 0
	for len(*r) > 0 && n < len(p) {
		k := copy(p[n:], (*r)[0])
		n += k
		if k == len((*r)[0]) {
			*r = (*r)[1:]
		} else {
			(*r)[0] = (*r)[0][k:]
		}
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isTagSpace is the white space of the tokenizer's tags.
func isTagSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' }

// tagName is the name of the tag whose first byte is data[at]: up to white
// space, "/" or ">".
func tagName(data []byte, at int) []byte {
	k := at
	for k < len(data) && !isTagSpace(data[k]) && data[k] != '/' && data[k] != '>' {
		k++
	}
	return data[at:k]
}

// nameIs compares a tag name with a lower-case one as the tokenizer does:
// only ASCII upper-case letters fold.
func nameIs(name []byte, lower string) bool {
	if len(name) != len(lower) {
		return false
	}
	for i, c := range name {
		if c != lower[i] && c != lower[i]-('a'-'A') {
			return false
		}
	}
	return true
}

// tagEnd is where the tag ends (just past its ">") whose name's second
// byte is data[at], reading its attributes as the tokenizer's readTag
// does; ok is false when the document ends first.
func tagEnd(data []byte, at int) (end int, ok bool) {
	end, _, ok = readTag(data, at, nil)
	return end, ok
}

// tagEndBare is tagEnd, and where the value of the tag's last attribute
// ends when it is written without quotes (-1 otherwise): the tokenizer
// does not read "<path d=a/>" as self-closing.
func tagEndBare(data []byte, at int) (end, bare int, ok bool) {
	return readTag(data, at, nil)
}

// attrSpan is where one attribute of a tag is written: its key is
// data[start:keyEnd], its value as written data[valStart:valEnd] (without
// quotes; empty when it has none), and the tokenizer reads it up to end
// (a "/" after a key without value included).
type attrSpan struct {
	start, keyEnd, valStart, valEnd, end int
}

// readTag is tagEndBare, and it appends to *attrs (when not nil) every
// attribute the tokenizer reads, in order, empty keys and repeated keys
// included (the tokenizer keeps neither).
func readTag(data []byte, at int, attrs *[]attrSpan) (end, bare int, ok bool) {
	bare = -1
	k := at
	// the name
	for k < len(data) && !isTagSpace(data[k]) && data[k] != '/' && data[k] != '>' {
		k++
	}
	if k < len(data) && isTagSpace(data[k]) {
		k++ // the white space ending a name is read with it
	}
	skip := func() {
		for k < len(data) && isTagSpace(data[k]) {
			k++
		}
	}
	skip()
	for {
		if k >= len(data) {
			return 0, -1, false
		}
		if data[k] == '>' {
			return k + 1, bare, true
		}
		bare = -1
		// an attribute's key: an "=" as its first byte belongs to it
		start := k
		for k < len(data) {
			c := data[k]
			if c == '=' && k == start {
				k++
				continue
			}
			if c == '=' || isTagSpace(c) || c == '/' || c == '>' {
				break
			}
			k++
		}
		a := attrSpan{start: start, keyEnd: k, valStart: k, valEnd: k}
		// its value
		skip()
		if k >= len(data) {
			return 0, -1, false
		}
		switch data[k] {
		case '/':
			k++
		case '=':
			k++
			skip()
			if k >= len(data) {
				return 0, -1, false
			}
			switch q := data[k]; q {
			case '>':
			case '\'', '"':
				e := bytes.IndexByte(data[k+1:], q)
				if e < 0 {
					return 0, -1, false
				}
				a.valStart, a.valEnd = k+1, k+1+e
				k += 1 + e + 1
			default:
				a.valStart = k
				for k < len(data) && !isTagSpace(data[k]) && data[k] != '>' {
					k++
				}
				a.valEnd = k
				bare = k
				if k < len(data) && isTagSpace(data[k]) {
					k++
				}
			}
		}
		a.end = k
		if attrs != nil {
			*attrs = append(*attrs, a)
		}
		skip()
	}
}

// hasSolidus reports a tag whose attributes include a "/" read on its own
// (as an attribute without key).
func hasSolidus(data []byte, attrs []attrSpan) bool {
	for _, a := range attrs {
		if a.keyEnd == a.start {
			return true
		}
	}
	return false
}

// svgElements are the SVG elements an inline image is drawn with, none
// of which ends SVG content when it starts (as <p> or <span> would), nor
// reads its content as HTML (as <foreignObject>, <desc> and <title> do);
// and <title> and <desc>, which svgEnd reads through while they hold no
// tag. Each maps to itself: svgName returns the name without making it.
var svgElements = func() map[string]string {
	m := map[string]string{}
	for _, name := range []string{"svg", "g", "path", "circle", "rect", "line", "polyline", "polygon",
		"ellipse", "defs", "use", "symbol", "clippath", "mask", "lineargradient",
		"radialgradient", "stop", "text", "tspan", "filter", "pattern", "image",
		"style", "metadata", "marker", "fegaussianblur", "feoffset", "feblend",
		"fecolormatrix", "fecomposite", "feflood", "femerge", "femergenode", "animate",
		"animatetransform", "title", "desc"} {
		m[name] = name
	}
	return m
}()

// svgName is the name of an element svgEnd reads through (svgElements),
// lower-cased in ASCII as the tokenizer does, and whether it is one.
func svgName(name []byte) (string, bool) {
	var buf [len("animatetransform")]byte
	if len(name) > len(buf) {
		return "", false
	}
	lower := buf[:len(name)]
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	known, ok := svgElements[string(lower)]
	return known, ok
}

// svgEnd is where the SVG content that starts at from (after an <svg>
// start tag in HTML) ends: closing is where the end tag that closes the
// last open SVG element starts, end is just past it, read as the parser
// reads foreign content, where no element's text is raw. ok is false where it could end otherwise or sooner than
// this reading says (an element that is not in svgElements, an end tag
// that closes no open SVG element, a <title> or <desc> holding a tag, the
// end of the document) and for a self-closing <svg/>.
func svgEnd(data []byte, from int) (closing, end, stand int, ok bool) {
	if data[from-2] == '/' {
		return 0, 0, 0, false
	}
	var stack [16]string
	open := append(stack[:0], "svg")
	stand = -1
	sets := false // some text may set the parser's frameset-ok flag
	for i := from; ; {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 || i+j+2 >= len(data) {
			return 0, 0, 0, false
		}
		if k := firstNonSpace(data[i : i+j]); k >= 0 {
			sets = true
			if c := data[i+k]; stand < 0 && c != '&' && c < utf8.RuneSelf {
				stand = i + k
			}
		}
		i += j
		switch c := data[i+1]; {
		case isASCIILetter(c):
			end, bare, ok := tagEndBare(data, i+2)
			if !ok {
				return 0, 0, 0, false
			}
			top := open[len(open)-1]
			name, known := svgName(tagName(data, i+1))
			if top == "title" || top == "desc" || !known {
				return 0, 0, 0, false
			}
			selfClosing := data[end-2] == '/'
			if selfClosing && bare == end-1 {
				return 0, 0, 0, false // "<path d=a/>": not self-closing, unless it ends with an attribute not kept
			}
			if !selfClosing {
				open = append(open, name)
			}
			i = end
		case c == '/':
			switch c := data[i+2]; {
			case c == '>':
				i += 3
			case isASCIILetter(c):
				end, ok := tagEnd(data, i+3)
				if !ok {
					return 0, 0, 0, false
				}
				name, _ := svgName(tagName(data, i+2))
				k := len(open) - 1
				for k >= 0 && open[k] != name {
					k--
				}
				if k < 0 {
					return 0, 0, 0, false
				}
				open = open[:k]
				if len(open) == 0 {
					if !sets {
						stand = -1
					} else if stand < 0 {
						stand = -2
					}
					return i, end, stand, true
				}
				i = end
			default:
				k := bytes.IndexByte(data[i+2:], '>')
				if k < 0 {
					return 0, 0, 0, false
				}
				i += 2 + k + 1
			}
		case c == '!':
			if i+3 >= len(data) {
				return 0, 0, 0, false
			}
			var end int
			switch {
			case data[i+2] == '-' && data[i+3] == '-':
				end = commentEnd(data, i+4)
			case bytes.HasPrefix(data[i+2:], []byte("[CDATA[")):
				if k := bytes.Index(data[i+9:], []byte("]]>")); k >= 0 {
					end = i + 9 + k + 3
					sets = sets || firstNonSpace(data[i+9:i+9+k]) >= 0
				} else {
					end = -1
				}
			default:
				if k := bytes.IndexByte(data[i+2:], '>'); k >= 0 {
					end = i + 2 + k + 1
				} else {
					end = -1
				}
			}
			if end < 0 {
				return 0, 0, 0, false
			}
			i = end
		case c == '?':
			k := bytes.IndexByte(data[i+1:], '>')
			if k < 0 {
				return 0, 0, 0, false
			}
			i += 1 + k + 1
		default: // a "<" of the text
			sets = true
			i++
		}
	}
}

// firstNonSpace is the index of the first byte of text that is neither
// white space nor NUL, the characters that leave the parser's frameset-ok
// flag as it is; -1 when there is none.
func firstNonSpace(text []byte) int {
	for k, c := range text {
		switch c {
		case ' ', '\t', '\n', '\r', '\f', 0:
		default:
			return k
		}
	}
	return -1
}

// rawTextEnd is where the raw text that starts at from ends: at the first
// "</" followed by name in any ASCII case and by white space, "/" or ">";
// -1 when the document ends first.
func rawTextEnd(data []byte, from int, name []byte) int {
	for k := from; ; {
		j := bytes.Index(data[k:], []byte("</"))
		if j < 0 {
			return -1
		}
		k += j
		m := k + 2
		for _, c := range name {
			if m >= len(data) {
				return -1
			}
			l := c | 0x20 // name is ASCII letters
			if data[m] != l && data[m] != l-('a'-'A') {
				break
			}
			m++
		}
		if m == k+2+len(name) {
			if m >= len(data) {
				return -1
			}
			switch data[m] {
			case ' ', '\n', '\r', '\t', '\f', '/', '>':
				return k
			}
		}
		k = m // the byte that did not match is read again
	}
}

// scriptEnd is where the text of a <script> that starts at from ends: at
// the "</" of the end tag that ends it, read as the tokenizer's readScript
// reads it, state by state (a "<!--" escape, and in it a "<script" that
// escapes again, hide end tags); -1 when the document ends first. The
// labels are readScript's.
func scriptEnd(data []byte, from int) int {
	k := from
	var c byte
	// next reads a byte as readByte does; at the end of data it returns
	// false and k stays.
	next := func() bool {
		if k >= len(data) {
			return false
		}
		c = data[k]
		k++
		return true
	}
	// endTag is readRawEndTag for "script": with ended, k is back at the
	// "<" of "</script".
	endTag := func() (ended, ok bool) {
		for i := range len("script") {
			if !next() {
				return false, false
			}
			if c != "script"[i] && c != "SCRIPT"[i] {
				k--
				return false, true
			}
		}
		if !next() {
			return false, false
		}
		switch c {
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			k -= 3 + len("script")
			return true, true
		}
		k--
		return false, true
	}
	var ended, ok bool

scriptData:
	if !next() {
		return -1
	}
	if c == '<' {
		goto scriptDataLessThanSign
	}
	goto scriptData

scriptDataLessThanSign:
	if !next() {
		return -1
	}
	switch c {
	case '/':
		goto scriptDataEndTagOpen
	case '!':
		goto scriptDataEscapeStart
	}
	k--
	goto scriptData

scriptDataEndTagOpen:
	if ended, ok = endTag(); ended {
		return k
	} else if !ok {
		return -1
	}
	goto scriptData

scriptDataEscapeStart:
	if !next() {
		return -1
	}
	if c == '-' {
		goto scriptDataEscapeStartDash
	}
	k--
	goto scriptData

scriptDataEscapeStartDash:
	if !next() {
		return -1
	}
	if c == '-' {
		goto scriptDataEscapedDashDash
	}
	k--
	goto scriptData

scriptDataEscaped:
	if !next() {
		return -1
	}
	switch c {
	case '-':
		goto scriptDataEscapedDash
	case '<':
		goto scriptDataEscapedLessThanSign
	}
	goto scriptDataEscaped

scriptDataEscapedDash:
	if !next() {
		return -1
	}
	switch c {
	case '-':
		goto scriptDataEscapedDashDash
	case '<':
		goto scriptDataEscapedLessThanSign
	}
	goto scriptDataEscaped

scriptDataEscapedDashDash:
	if !next() {
		return -1
	}
	switch c {
	case '-':
		goto scriptDataEscapedDashDash
	case '<':
		goto scriptDataEscapedLessThanSign
	case '>':
		goto scriptData
	}
	goto scriptDataEscaped

scriptDataEscapedLessThanSign:
	if !next() {
		return -1
	}
	if c == '/' {
		goto scriptDataEscapedEndTagOpen
	}
	if isASCIILetter(c) {
		goto scriptDataDoubleEscapeStart
	}
	k--
	goto scriptData

scriptDataEscapedEndTagOpen:
	if ended, ok = endTag(); ended {
		return k
	} else if !ok {
		return -1
	}
	goto scriptDataEscaped

scriptDataDoubleEscapeStart:
	k--
	for i := range len("script") {
		if !next() {
			return -1
		}
		if c != "script"[i] && c != "SCRIPT"[i] {
			k--
			goto scriptDataEscaped
		}
	}
	if !next() {
		return -1
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		goto scriptDataDoubleEscaped
	}
	k--
	goto scriptDataEscaped

scriptDataDoubleEscaped:
	if !next() {
		return -1
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedDash:
	if !next() {
		return -1
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDashDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedDashDash:
	if !next() {
		return -1
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDashDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	case '>':
		goto scriptData
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedLessThanSign:
	if !next() {
		return -1
	}
	if c == '/' {
		goto scriptDataDoubleEscapeEnd
	}
	k--
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapeEnd:
	if ended, ok = endTag(); ended {
		k += len("</script>")
		goto scriptDataEscaped
	} else if !ok {
		return -1
	}
	goto scriptDataDoubleEscaped
}

// commentEnd is where the comment whose text starts at from ends (just
// past its ">"), by the tokenizer's readComment; -1 when the document ends
// first.
func commentEnd(data []byte, from int) int {
	dashes, beginning := 0, true
	for k := from; k < len(data); k++ {
		switch data[k] {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 || beginning {
				return k + 1
			}
		case '!':
			if dashes >= 2 {
				k++
				if k >= len(data) {
					return -1
				}
				switch data[k] {
				case '>':
					return k + 1
				case '-':
					dashes, beginning = 1, false
					continue
				}
			}
		}
		dashes, beginning = 0, false
	}
	return -1
}
