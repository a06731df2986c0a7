package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/extract/internal/readtest"
)

// buildPDF writes a small, valid PDF: one page per content stream, all
// using one Helvetica-like font (WinAnsiEncoding, every glyph 500/1000 em
// wide, so positions are predictable). A nil stream makes a page without
// contents.
func buildPDF(streams ...[]byte) []byte {
	var objs []string
	add := func(s string) int { objs = append(objs, s); return len(objs) }
	catalog := add("") // filled in below
	pages := add("")
	widths := strings.TrimSpace(strings.Repeat("500 ", 256-32))
	font := add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 255 /Widths [%s] >>", widths))
	var kids []string
	for _, s := range streams {
		page := add("")
		if s == nil {
			objs[page-1] = fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> >>", pages, font)
		} else {
			content := add(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(s), s))
			objs[page-1] = fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>", pages, font, content)
		}
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
	}
	objs[catalog-1] = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages)
	objs[pages-1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))

	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, catalog, xref)
	return b.Bytes()
}

func TestPDFText(t *testing.T) {
	page1 := []byte("BT /F1 10 Tf 72 720 Td (Use ro) Tj (bots or) Tj ET\n" + // two operators, one word
		"BT /F1 10 Tf 72 706 Td (tools) Tj ET\n" + // next line
		"BT /F1 10 Tf 72 692 Td [(word)-400(gap)] TJ ET\n" + // a kerning gap wide enough to be a space
		"BT /F1 10 Tf 72 678 Td [(ke)-20(rned)] TJ ET\n" + // a small kern inside a word
		"BT /F1 10 Tf 72 664 Td (Vilk\345r) Tj ET") // WinAnsi å
	page2 := []byte("BT /F1 10 Tf 72 720 Td (Second page.) Tj ET")
	text, info, err := Extract(buildPDF(page1, page2), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "Use robots or tools word gap kerned Vilkår Second page."
	if text != want {
		t.Errorf("text = %q, want %q", text, want)
	}
	if info.Pages != 2 || info.Read != 2 || info.Truncated || len(info.FailedPages) != 0 {
		t.Errorf("info = %+v", info)
	}
	if ok, _, _ := extract.Verify(text, "Use robots or tools"); !ok {
		t.Error("quote across a line break does not verify")
	}
}

func TestPDFPageCap(t *testing.T) {
	var pages [][]byte
	for i := range 5 {
		pages = append(pages, fmt.Appendf(nil, "BT /F1 10 Tf 72 720 Td (Page %d) Tj ET", i+1))
	}
	text, info, err := Extract(buildPDF(pages...), 2)
	if err != nil {
		t.Fatal(err)
	}
	if text != "Page 1 Page 2" || !info.Truncated || info.Pages != 5 || info.Read != 2 {
		t.Errorf("text %q, info %+v", text, info)
	}
}

func TestPDFNoTextLayer(t *testing.T) {
	for name, pdf := range map[string][]byte{
		"page without contents": buildPDF(nil),
		"drawing only":          buildPDF([]byte("0 0 m 100 100 l S")),
	} {
		if _, err := Text(pdf, 10); !errors.Is(err, ErrNoTextLayer) {
			t.Errorf("%s: err = %v, want ErrNoTextLayer", name, err)
		}
	}
}

func TestPDFCorrupt(t *testing.T) {
	good := buildPDF([]byte("BT /F1 10 Tf 72 720 Td (Hello) Tj ET"))
	cases := map[string][]byte{
		"empty":           nil,
		"not a pdf":       []byte("<html>not a pdf</html>"),
		"truncated":       good[:len(good)/2],
		"header only":     []byte("%PDF-1.7\n"),
		"bad xref offset": bytes.Replace(good, []byte("startxref\n"), []byte("startxref\n9"), 1),
		"garbage stream":  buildPDF([]byte("BT /F1 Tf Tj TJ ' \" ET ] ) >> <<")),
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			text, err := Text(body, 10)
			if err == nil && text == "" {
				t.Error("no error and no text")
			}
			if err != nil && !errors.Is(err, ErrUnreadable) && !errors.Is(err, ErrNoTextLayer) {
				t.Errorf("err = %v, want ErrUnreadable or ErrNoTextLayer", err)
			}
		})
	}
	// Flipping bytes through a valid file must never panic.
	for i := 0; i < len(good); i += 7 {
		b := bytes.Clone(good)
		b[i] ^= 0xFF
		_, _ = Text(b, 10)
	}
}

// The PDF library's lexer loops forever on a content stream that ends
// inside a hex string; Text must refuse that page instead of hanging.
func TestPDFUnterminatedHexStringDoesNotHang(t *testing.T) {
	// "<X" and "<0a X" (issue 24): one character of a pair, the lexer
	// waiting for the second past the end of input.
	for _, tail := range []string{"<0a 1B", "<", "< \n", "<X", "<0a X", "<X \n", "(1 < 2) Tj <X"} {
		body := buildPDF([]byte("BT /F1 10 Tf 72 720 Td (Fine) Tj ET\n"+tail),
			[]byte("BT /F1 10 Tf 72 720 Td (Next page) Tj ET"))
		done := make(chan struct{})
		var text string
		var info Info
		go func() {
			defer close(done)
			text, info, _ = Extract(body, 10)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("tail %q: Extract still running after 10 s", tail)
		}
		if text != "Next page" || len(info.FailedPages) != 1 || info.FailedPages[0] != 1 {
			t.Errorf("tail %q: text %q, info %+v; want page 1 refused, page 2 read", tail, text, info)
		}
	}
}

// A "<" the lexer does not read as an unfinished hex string is no reason to
// refuse a page: in a literal string, in a comment, a finished hex string,
// or one the lexer rejects at once.
func TestPDFHexStringGuardRefusesOnlyWhatLoops(t *testing.T) {
	for _, tail := range []string{"(1 < 2) Tj", "% a comment <X\n", "<0a1b> Tj", "(a \\( <X) Tj"} {
		if endsInHexString([]byte("BT (Fine) Tj ET\n" + tail)) {
			t.Errorf("tail %q: refused", tail)
		}
	}
	for _, tail := range []string{"<Xz", "<0aZZ"} { // the lexer stops on the pair
		if endsInHexString([]byte("BT (Fine) Tj ET\n" + tail)) {
			t.Errorf("tail %q: refused, but the lexer fails on it at once", tail)
		}
	}
}

// Cycles in the page tree make the library's own page lookup and resource
// inheritance loop forever; Extract must end.
func TestPDFCyclicTreeDoesNotHang(t *testing.T) {
	good := buildPDF([]byte("BT /F1 10 Tf 72 720 Td (Hello) Tj ET"))
	// Object 2 is the page tree root and object 4 the page (see buildPDF);
	// the replacements keep every byte offset.
	cases := map[string][]byte{
		"root is its own kid": bytes.Replace(good, []byte("/Kids [4 0 R]"), []byte("/Kids [2 0 R]"), 1),
		"page is its parent":  bytes.Replace(good, []byte("/Parent 2 0 R"), []byte("/Parent 4 0 R"), 1),
	}
	for name, body := range cases {
		if bytes.Equal(body, good) {
			t.Fatalf("%s: replacement did not apply", name)
		}
		done := make(chan error, 1)
		go func() {
			_, err := Text(body, 10)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: no error", name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Text still running after 10 s", name)
		}
	}
}

func TestRealwebPDFInfo(t *testing.T) {
	dir := readtest.Folder(t, realwebDir, "docs")
	body, err := os.ReadFile(filepath.Join(dir, "fruitz-terms-of-service.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	_, info, err := Extract(body, 0)
	if err != nil {
		t.Fatal(err)
	}
	if info.Read != info.Pages || len(info.FailedPages) > 0 {
		t.Errorf("info = %+v: not every page read", info)
	}
	t.Logf("fruitz PDF: %+v", info)
}

// ActualText says what a marked span of glyphs reads as: a glyph the font
// cannot map, a soft hyphen, a hyphen that is only typography.
func TestPDFActualText(t *testing.T) {
	page := []byte("BT /F1 10 Tf 72 720 Td /Span <</ActualText (fi)>> BDC (\\001) Tj EMC (nd the) Tj ET\n" +
		"BT /F1 10 Tf 72 706 Td (opp) Tj /Span <</ActualText <FEFF00AD>>> BDC (-) Tj EMC ET\n" +
		"BT /F1 10 Tf 72 692 Td (lysning) Tj /Span <</ActualText ()>> BDC (~) Tj EMC ( here) Tj ET")
	text, err := Text(buildPDF(page), 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := "find the opplysning here"; text != want {
		t.Errorf("text = %q, want %q", text, want)
	}
}
