package extract

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/ledongthuc/pdf"
)

// ErrNoTextLayer is returned for a PDF that parses but holds no extractable
// text (a scan, or pictures of text): the crawler records it as a `format`
// gap with detail "no text layer".
var ErrNoTextLayer = errors.New("pdf has no text layer")

// ErrBadPDF wraps every failure to parse a PDF at all.
var ErrBadPDF = errors.New("unreadable pdf")

// DefaultMaxPDFPages is the page cap PDFText uses when given maxPages <= 0.
const DefaultMaxPDFPages = 300

// PDFInfo says how much of a PDF was read.
type PDFInfo struct {
	Pages       int   // pages the document says it has
	Read        int   // pages whose text was read
	Truncated   bool  // Pages > the cap: the pages after the cap were not read
	FailedPages []int // 1-based numbers of pages that could not be read
}

// PDFText extracts the text of a PDF, Normalize'd, reading at most maxPages
// pages. It is a pure function of its input, so it can run unchanged in a
// child process that adds time and memory limits. A PDF with no extractable
// text returns ErrNoTextLayer; one that cannot be parsed returns an error
// wrapping ErrBadPDF.
func PDFText(body []byte, maxPages int) (string, error) {
	text, _, err := PDFExtract(body, maxPages)
	return text, err
}

// PDFExtract is PDFText with a report of the pages read. The PDF library
// panics on malformed input; every panic is recovered here, per page where
// possible, so one bad page costs only that page.
func PDFExtract(body []byte, maxPages int) (text string, info PDFInfo, err error) {
	if maxPages <= 0 {
		maxPages = DefaultMaxPDFPages
	}
	defer func() {
		if r := recover(); r != nil {
			text, err = "", fmt.Errorf("%w: %v", ErrBadPDF, r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return "", info, fmt.Errorf("%w: %v", ErrBadPDF, err)
	}
	info.Pages = r.NumPage()
	n := info.Pages
	if n > maxPages {
		n = maxPages
		info.Truncated = true
	}
	var b strings.Builder
	for i := 1; i <= n; i++ {
		pageText, ok := pdfPageText(r, i)
		if !ok {
			info.FailedPages = append(info.FailedPages, i)
			continue
		}
		info.Read++
		b.WriteString(pageText)
		b.WriteString("\n\n")
	}
	if info.Read == 0 && len(info.FailedPages) > 0 {
		return "", info, fmt.Errorf("%w: no page could be read", ErrBadPDF)
	}
	text = Normalize(b.String())
	if !hasLetterOrDigit(text) {
		return "", info, ErrNoTextLayer
	}
	return text, info, nil
}

// pdfPageText lays out one page's characters as lines of words. The library
// reports every glyph with its position; we keep the content-stream order
// (the reading order of nearly every PDF) and put a line break where the
// baseline moves by more than half the font size, and a space where the gap
// to the previous glyph is wider than 15% of the font size or the text
// jumps back left. Joining by position rather than by text object keeps a
// word whose letters are drawn by separate operators ("g" + "roup") whole.
func pdfPageText(r *pdf.Reader, num int) (text string, ok bool) {
	defer func() {
		if rec := recover(); rec != nil {
			text, ok = "", false
		}
	}()
	page := r.Page(num)
	if page.V.IsNull() {
		return "", true
	}
	var b strings.Builder
	var prev pdf.Text
	first := true
	for _, t := range page.Content().Text {
		if t.S == "" || t.S == "\n" {
			continue // the library marks the end of each TJ array with "\n"
		}
		if !first {
			size := math.Max(math.Abs(t.FontSize), 1)
			switch {
			case math.Abs(t.Y-prev.Y) > size*0.5:
				b.WriteByte('\n')
			case t.X-(prev.X+prev.W) > size*0.15 || t.X < prev.X-size*0.1:
				b.WriteByte(' ')
			}
		}
		first = false
		b.WriteString(t.S)
		prev = t
	}
	return b.String(), true
}

func hasLetterOrDigit(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			return true
		}
	}
	return false
}
