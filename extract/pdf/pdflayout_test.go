package pdf

import (
	"os"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract"
)

// The fixture PDF (built by fixture/internal/mkpdf, see fixture/columns_test.go) has a
// title over two columns drawn row by row, kerning pairs moved by TJ adjustments, word
// spaces that are displacements rather than characters, fi and fl ligature glyphs, an
// ornament glyph with no Unicode mapping and words hyphenated at line ends. The golden
// text is pdftotext's reading of it (poppler 22.12, non-layout mode), less the control
// character pdftotext writes for the unmapped ornament, which a reader does not see.
func TestPDFKernedColumnsReadAsPdftotext(t *testing.T) {
	body, err := os.ReadFile("testdata/kerned-columns.pdf")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/kerned-columns.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Text(body, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := extract.Normalize(string(golden)); got != want {
		t.Errorf("text differs from pdftotext's reading\n got: %s\nwant: %s", got, want)
	}
	for _, bad := range []string{"\ufb01", "\ufb02", "\ufffd", "\x03", "T e", "opp- lysninger"} {
		if strings.Contains(got, bad) {
			t.Errorf("text holds %q", bad)
		}
	}
}

func TestResolveHyphens(t *testing.T) {
	m := string(hyphenMark)
	for _, c := range []struct{ in, want string }{
		{"free-" + m + "dom to share", "freedom to share"},
		// The document writes the compound with its hyphen elsewhere: it stays.
		{"EU:n tietosuoja-" + m + "asetuksen mukaisesti; tietosuoja-asetuksen", "EU:n tietosuoja-asetuksen mukaisesti; tietosuoja-asetuksen"},
		{"no mark here", "no mark here"},
	} {
		if got := resolveHyphens(c.in); got != c.want {
			t.Errorf("resolveHyphens(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLineEndHyphen(t *testing.T) {
	for _, c := range []struct {
		line, next string
		want       int
	}{
		{"kjeller-", "mogul", maybeBreak},
		{"opp\u00ad", "lysninger", softBreak},
		{"articles L335-", "2 et seq.", keepHyphen},
		{"Jean-", "Pierre", keepHyphen},
		{"\"YYM-", "MDDhhmmss\"", maybeBreak},
		{"Tekst- og", "data", noHyphen},
		{"a list -", "item", noHyphen},
		{"ends here", "next", noHyphen},
	} {
		if got := lineEndHyphen(c.line, c.next); got != c.want {
			t.Errorf("lineEndHyphen(%q, %q) = %d, want %d", c.line, c.next, got, c.want)
		}
	}
}

// row makes a piece of glyphs 6 units wide at size 10, each gap[i] font
// sizes after the one before; a gap of -1 puts a space glyph there instead,
// and another negative gap a space glyph drawn that far back over the
// letter before.
func row(text string, gaps ...float64) *piece {
	p := &piece{}
	x := 0.0
	for i, r := range []rune(text) {
		if i > 0 && i-1 < len(gaps) {
			switch g := gaps[i-1]; {
			case g == -1:
				p.glyphs = append(p.glyphs, glyph{x: x, w: 2.5, size: 10, text: " ", space: true})
				x += 2.5
			case g < 0:
				p.glyphs = append(p.glyphs, glyph{x: x + g*10, w: 2.5, size: 10, text: " ", space: true})
			default:
				x += gaps[i-1] * 10
			}
		}
		p.glyphs = append(p.glyphs, glyph{x: x, w: 6, size: 10, text: string(r)})
		x += 6
	}
	return p
}

func TestPieceText(t *testing.T) {
	for _, c := range []struct {
		name string
		p    *piece
		want string
	}{
		{"kerning is not a space", row("Tekst", 0.08, -0.0, 0.02, 0.1), "Tekst"},
		{"a wide gap is a space", row("ab", 0.3), "a b"},
		{"space glyphs", row("abc", -1, -1), "a b c"},
		{"a space glyph drawn over a letter is none", row("ab", -0.5), "ab"},
		{"letter-spaced words", row("TERMSOFUSE", 0.3, 0.3, 0.3, 0.3, 0.7, 0.3, 0.7, 0.3, 0.3), "TERMS OF USE"},
		{"single letters keep their spaces", row("12345", 0.3, 0.3, 0.3, 0.3), "1 2 3 4 5"},
	} {
		if got := pieceText(c.p); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestGlyphText(t *testing.T) {
	for name, want := range map[string]string{
		"a": "a", "Aring": "Å", "oslash": "ø", "fi": "fi", "f_f_i": "ffi", "uni00E6": "æ",
		"u1F600": "😀", "quoteright": "’", "one.oldstyle": "1", "g42": "", "": "", "uring": "ů",
	} {
		if got := glyphText(name); got != want {
			t.Errorf("glyphText(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestParseToUnicode(t *testing.T) {
	cmap := []byte(`/CIDInit /ProcSet findresource begin 12 dict begin begincmap
1 begincodespacerange <0000> <FFFF> endcodespacerange
3 beginbfchar <0003> <0020> <0011> <FB01> <0012> <00660066006C> endbfchar
2 beginbfrange <0020> <0022> <0041> <0030> <0031> [<00E6> <FFFD>] endbfrange
endcmap CMapName currentdict /CMap defineresource pop end end`)
	m := parseToUnicode(cmap)
	for code, want := range map[uint32]string{0x03: " ", 0x11: "fi", 0x12: "ffl", 0x20: "A", 0x22: "C", 0x30: "æ", 0x31: ""} {
		if got := m[code]; got != want {
			t.Errorf("code %#x = %q, want %q", code, got, want)
		}
	}
}

// at makes a piece of text at (x, y), size 10, 6 units a character.
func at(text string, x, y float64) *piece {
	var gs []glyph
	for i, r := range []rune(text) {
		gs = append(gs, glyph{x: x + float64(i)*6, y: y, w: 6, size: 10, text: string(r)})
	}
	return appendPieces(nil, gs)[0]
}

func TestReadingOrder(t *testing.T) {
	for _, c := range []struct {
		name   string
		pieces []*piece
		want   string
	}{
		{"two columns drawn row by row", []*piece{
			at("Title over both", 0, 100),
			at("left one", 0, 80), at("right one", 100, 80),
			at("left two", 0, 67), at("right two", 100, 67),
		}, "Title over both\nleft one\nleft two\nright one\nright two"},
		{"bullets are read with their items", []*piece{
			at("•", 0, 80), at("first item", 20, 80),
			at("•", 0, 67), at("second item", 20, 67),
		}, "• first item\n• second item"},
		{"a right-aligned line on its own row stays in its row", []*piece{
			at("TERMS OF USE", 0, 100), at("Last update", 100, 87), at("PREAMBLE", 0, 74),
		}, "TERMS OF USE\nLast update\nPREAMBLE"},
		{"labels beside definitions are a column", []*piece{
			at("Facebook", 0, 80), at("A functionality that lets", 80, 80),
			at("Connect", 0, 67), at("users sign in.", 80, 67),
		}, "Facebook\nConnect\nA functionality that lets\nusers sign in."},
	} {
		var b strings.Builder
		writePieces(&b, readingOrder(c.pieces))
		if got := b.String(); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
