package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/ledongthuc/pdf"
)

// ErrNoTextLayer is returned for a PDF that parses but holds no extractable
// text (a scan, or pictures of text): the crawler records it as a `format`
// gap with detail "no text layer".
var ErrNoTextLayer = errors.New("pdf has no text layer")

// ErrUnreadable wraps every failure to parse a PDF at all.
var ErrUnreadable = errors.New("unreadable pdf")

// DefaultMaxPages is the page cap Text uses when given maxPages <= 0.
const DefaultMaxPages = 300

// Info says how much of a PDF was read.
type Info struct {
	Pages       int   // pages the document says it has
	Read        int   // pages whose text was read
	Truncated   bool  // Pages > the cap: the pages after the cap were not read
	FailedPages []int // 1-based numbers of pages that could not be read
}

// Text extracts the text of a PDF, Normalize'd, reading at most maxPages
// pages. It is a pure function of its input, so it can run unchanged in a
// child process that adds time and memory limits. A PDF with no extractable
// text returns ErrNoTextLayer; one that cannot be parsed returns an error
// wrapping ErrUnreadable.
func Text(body []byte, maxPages int) (string, error) {
	text, _, err := Extract(body, maxPages)
	return text, err
}

// Extract is Text with a report of the pages read. The PDF library
// panics on malformed input; every panic is recovered here, per page where
// possible, so one bad page costs only that page.
func Extract(body []byte, maxPages int) (text string, info Info, err error) {
	if maxPages <= 0 {
		maxPages = DefaultMaxPages
	}
	defer func() {
		if r := recover(); r != nil {
			text, err = "", fmt.Errorf("%w: %v", ErrUnreadable, r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return "", info, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	info.Pages = r.NumPage()
	pages, more := pdfPages(r, maxPages)
	info.Truncated = more
	var b strings.Builder
	gr := newGlyphReader()
	for i, page := range pages {
		pageText, ok := pdfPageText(gr, page)
		if !ok {
			info.FailedPages = append(info.FailedPages, i+1)
			continue
		}
		info.Read++
		b.WriteString(pageText)
		b.WriteString("\n\n")
	}
	if info.Read == 0 && len(info.FailedPages) > 0 {
		return "", info, fmt.Errorf("%w: no page could be read", ErrUnreadable)
	}
	text = extract.Normalize(resolveHyphens(b.String()))
	if !hasLetterOrDigit(text) {
		return "", info, ErrNoTextLayer
	}
	return text, info, nil
}

// pdfPageText returns one page's text as a reader sees it: the page's
// glyphs with their positions (see glyphReader), laid out into lines and
// reading order (see layoutPage).
func pdfPageText(gr *glyphReader, page pdf.Page) (text string, ok bool) {
	defer func() {
		if rec := recover(); rec != nil {
			text, ok = "", false
		}
	}()
	if !parentChainEnds(page.V) {
		return "", false
	}
	if contents := page.V.Key("Contents"); contents.Kind() != pdf.Null && !contentStreamSafe(contents) {
		return "", false
	}
	return layoutPage(gr.page(page)), true
}

// maxTreeDepth bounds how deep we follow a PDF's page tree and a page's
// Parent chain. Real files are a few levels deep; a cyclic tree (a node
// that is its own kid or parent), which makes the library's own page
// lookup loop forever, ends here instead.
const maxTreeDepth = 32

// pdfPages walks the page tree in order and returns the first limit pages,
// and whether there are more. It replaces the library's Reader.Page, which
// has no guard against cycles.
func pdfPages(r *pdf.Reader, limit int) (pages []pdf.Page, more bool) {
	defer func() {
		// A broken node ends the walk; the pages found so far are kept.
		_ = recover()
	}()
	budget := 4*limit + 1000 // tree nodes we are willing to visit
	var visit func(node pdf.Value, depth int)
	visit = func(node pdf.Value, depth int) {
		if more || depth > maxTreeDepth || budget <= 0 {
			return
		}
		budget--
		switch node.Key("Type").Name() {
		case "Pages":
			kids := node.Key("Kids")
			for i := 0; i < kids.Len() && !more && budget > 0; i++ {
				visit(kids.Index(i), depth+1)
			}
		case "Page":
			if len(pages) == limit {
				more = true
				return
			}
			pages = append(pages, pdf.Page{V: node})
		}
	}
	visit(r.Trailer().Key("Root").Key("Pages"), 0)
	return pages, more
}

// parentChainEnds reports whether following Parent from a page ends within
// maxTreeDepth steps; the library follows it unguarded to find inherited
// resources.
func parentChainEnds(v pdf.Value) bool {
	for range maxTreeDepth {
		if v.IsNull() {
			return true
		}
		v = v.Key("Parent")
	}
	return v.IsNull()
}

// maxContentStream caps the decoded size of one page's content stream; a
// larger one (a compression bomb) is not read.
const maxContentStream = 64 << 20

// contentStreamSafe reads a page's decoded content stream once, before the
// library interprets it, and refuses the two inputs known to make the
// library's lexer loop forever instead of failing: a stream that ends
// inside a hex string (see endsInHexString), and a decoder that keeps
// returning no bytes and no error. It also refuses streams larger than maxContentStream. A
// legitimate page never has any of these. Other hazards (deep nesting that
// exhausts the stack, slow but finite work) are for the child process's
// limits, not for this check.
func contentStreamSafe(contents pdf.Value) bool {
	var parts []pdf.Value
	if contents.Kind() == pdf.Array {
		for i := 0; i < contents.Len(); i++ {
			parts = append(parts, contents.Index(i))
		}
	} else {
		parts = append(parts, contents)
	}
	var data []byte
	buf := make([]byte, 32<<10)
	for _, part := range parts {
		rd := part.Reader()
		empty := 0
		for {
			n, err := rd.Read(buf)
			data = append(data, buf[:n]...)
			if len(data) > maxContentStream {
				return false
			}
			if err != nil {
				break // io.EOF or a decoding error the lexer will report
			}
			if n == 0 {
				if empty++; empty > 100 {
					return false
				}
			} else {
				empty = 0
			}
		}
		_ = rd.Close()
	}
	return !endsInHexString(data)
}

// endsInHexString follows the PDF library's lexer (readToken in its
// lex.go) over a content stream as far as needed to know whether the
// stream ends inside a hex string. There the lexer loops forever: at the
// end of input it reads white space without end, and a hex string skips
// white space while it waits for ">" or for the second digit of a pair.
// So "<0a 1B", "<" and "<X" at the end all loop (the last, with its one
// character, waits for a second), while "<Xz" fails at once (not a hex
// pair), as does anything the lexer rejects before the end: there the
// library stops with an error and the page is refused anyway. Comments and
// literal strings are skipped as the lexer skips them, so a "<" inside
// "(1 < 2)" or "% <" is no hex string.
func endsInHexString(data []byte) bool {
	n := len(data)
	i := 0
	skipSpace := func() {
		for i < n && pdfSpace(data[i]) {
			i++
		}
	}
	for i < n {
		c := data[i]
		i++
		switch {
		case pdfSpace(c):
		case c == '%':
			for i < n && data[i] != '\r' && data[i] != '\n' {
				i++
			}
		case c == '(':
			for depth := 1; i < n && depth > 0; {
				c := data[i]
				i++
				switch c {
				case '(':
					depth++
				case ')':
					depth--
				case '\\':
					if i < n && !strings.ContainsRune("nrbtf()\\\r\n01234567", rune(data[i])) {
						return false // the lexer fails: an invalid escape
					}
					i++
				}
			}
		case c == '<':
			if i < n && data[i] == '<' {
				i++ // a dictionary
				continue
			}
			for {
				skipSpace()
				if i >= n {
					return true
				}
				c := data[i]
				i++
				if c == '>' {
					break
				}
				skipSpace()
				if i >= n {
					return true
				}
				c2 := data[i]
				i++
				if unhexDigit(c) < 0 || unhexDigit(c2) < 0 {
					return false // the lexer fails: not a hex pair
				}
			}
		case c == '>':
			if i < n && data[i] == '>' {
				i++
				continue
			}
			return false // the lexer fails: a stray delimiter
		case c == ')':
			return false // likewise
		}
	}
	return false
}

// pdfSpace is the lexer's white space.
func pdfSpace(c byte) bool {
	switch c {
	case 0, '\t', '\n', '\f', '\r', ' ':
		return true
	}
	return false
}

func unhexDigit(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func hasLetterOrDigit(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			return true
		}
	}
	return false
}
