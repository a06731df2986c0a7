package pdf

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/ledongthuc/pdf"
	"golang.org/x/text/encoding/charmap"
)

// pdfFont is what the text layer needs from a font: how to cut a string
// into character codes, the text each code stands for, and each glyph's
// advance. The PDF library's own font reading is not enough: it ignores a
// ToUnicode map when the font also names an encoding, reads the width of a
// two-byte code from its first byte, leaves ligatures as one character and
// writes U+FFFD for glyphs it cannot map.
type pdfFont struct {
	twoByte bool              // a Type0 font: codes are two bytes (Identity-H and nearly every CMap in use)
	toUni   map[uint32]string // the ToUnicode map, nil when the font has none
	simple  *[256]string      // the encoding's text per code (simple fonts), "" where unmapped
	widths  map[uint32]float64
	simpleW [256]float64
	known   [256]bool // simpleW holds a width for this code
	dw      float64   // width of a code without one (glyph space)
	scale   float64   // glyph space to text space: 1/1000, or a Type 3 font's matrix
}

// Limits on what one font may make us build, against hostile files.
const (
	maxCMapEntries = 1 << 17
	maxRangeSpan   = 1 << 16
)

// loadFont reads a font dictionary. It never fails: a font we cannot read
// gives glyphs without text, which are dropped, and estimated widths.
func loadFont(v pdf.Value) *pdfFont {
	f := &pdfFont{scale: 0.001, dw: 500}
	subtype := v.Key("Subtype").Name()
	if tu := v.Key("ToUnicode"); tu.Kind() == pdf.Stream {
		f.toUni = parseToUnicode(streamBytes(tu, 4<<20))
	}
	if subtype == "Type0" {
		f.twoByte = true
		desc := v.Key("DescendantFonts").Index(0)
		f.dw = 1000
		if dw := desc.Key("DW"); dw.Kind() == pdf.Integer || dw.Kind() == pdf.Real {
			f.dw = dw.Float64()
		}
		f.widths = cidWidths(desc.Key("W"))
		return f
	}
	if subtype == "Type3" {
		if m := v.Key("FontMatrix"); m.Len() == 6 && m.Index(0).Float64() != 0 {
			f.scale = m.Index(0).Float64()
		}
	}
	f.simple = simpleEncoding(v)
	first := int(v.Key("FirstChar").Int64())
	ws := v.Key("Widths")
	missing := v.Key("FontDescriptor").Key("MissingWidth").Float64()
	for i := 0; i < ws.Len(); i++ {
		if c := first + i; 0 <= c && c < 256 {
			f.simpleW[c], f.known[c] = ws.Index(i).Float64(), true
		}
	}
	if ws.Len() > 0 {
		f.dw = missing
	}
	return f
}

// text returns the text of one code: from ToUnicode first (it is what the
// producer says the glyph means), else from the encoding; "" for a glyph
// we cannot read, which is dropped rather than shown as U+FFFD.
func (f *pdfFont) text(code uint32) string {
	if f.toUni != nil {
		if s, ok := f.toUni[code]; ok {
			return s
		}
	}
	if f.simple != nil && code < 256 {
		return f.simple[code]
	}
	return ""
}

// width returns a code's advance in text space units (times the font size
// gives user space).
func (f *pdfFont) width(code uint32) float64 {
	if f.twoByte {
		if w, ok := f.widths[code]; ok {
			return w * f.scale
		}
		return f.dw * f.scale
	}
	if code < 256 && f.known[code] {
		return f.simpleW[code] * f.scale
	}
	return f.dw * f.scale
}

// codes cuts a shown string into character codes.
func (f *pdfFont) codes(s string, each func(code uint32, oneByte bool)) {
	if !f.twoByte {
		for i := 0; i < len(s); i++ {
			each(uint32(s[i]), true)
		}
		return
	}
	for i := 0; i+1 < len(s); i += 2 {
		each(uint32(s[i])<<8|uint32(s[i+1]), false)
	}
}

// cidWidths reads a CIDFont's W array: "c [w1 w2 ...]" gives the widths of
// c, c+1, ...; "c1 c2 w" gives codes c1 to c2 the width w.
func cidWidths(w pdf.Value) map[uint32]float64 {
	out := map[uint32]float64{}
	for i := 0; i < w.Len() && len(out) < maxCMapEntries; {
		first := w.Index(i)
		next := w.Index(i + 1)
		if next.Kind() == pdf.Array {
			c := uint32(first.Int64())
			for j := 0; j < next.Len() && len(out) < maxCMapEntries; j++ {
				out[c+uint32(j)] = next.Index(j).Float64()
			}
			i += 2
			continue
		}
		lo, hi, width := first.Int64(), next.Int64(), w.Index(i+2).Float64()
		if lo >= 0 && hi >= lo && hi-lo < maxRangeSpan {
			for c := lo; c <= hi && len(out) < maxCMapEntries; c++ {
				out[uint32(c)] = width
			}
		}
		i += 3
	}
	return out
}

// streamBytes reads at most limit decoded bytes of a stream.
func streamBytes(v pdf.Value, limit int64) []byte {
	rd := v.Reader()
	defer rd.Close()
	b, _ := io.ReadAll(io.LimitReader(rd, limit))
	return b
}

// cleanGlyphText makes a glyph's text what a reader sees: ligatures become
// their letters, and characters that say "unknown" (U+FFFD, controls, NUL,
// private use) are removed.
func cleanGlyphText(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\uFFFD' || (r >= 0xFB00 && r <= 0xFB06) || (r >= 0x80 && r < 0xA0) || isPrivateUse(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 0xFB00 && r <= 0xFB06:
			b.WriteString(ligatureLetters[r-0xFB00])
		case r < 0x20 || r == 0x7f || r == '\uFFFD' || (r >= 0x80 && r < 0xA0) || isPrivateUse(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isPrivateUse: a private-use character names a glyph only its font
// knows (an icon, a symbol font's code); no reader can read it as text.
func isPrivateUse(r rune) bool { return r >= 0xE000 && r <= 0xF8FF }

// ligatureLetters are the letters of U+FB00 to U+FB06.
var ligatureLetters = [...]string{"ff", "fi", "fl", "ffi", "ffl", "st", "st"}

// simpleEncoding builds the text of each code of a simple font: a base
// encoding (named, or the one built into an embedded Type 1 font program)
// with the font's Differences applied.
func simpleEncoding(font pdf.Value) *[256]string {
	enc := font.Key("Encoding")
	baseName := enc.Name()
	if enc.Kind() == pdf.Dict {
		baseName = enc.Key("BaseEncoding").Name()
	}
	var table [256]string
	switch baseName {
	case "WinAnsiEncoding":
		table = byteTable(charmap.Windows1252)
	case "MacRomanEncoding":
		table = byteTable(charmap.Macintosh)
	case "StandardEncoding":
		table = standardEncoding()
	default:
		if builtin, ok := type1Encoding(font); ok {
			table = builtin
		} else if font.Key("Subtype").Name() == "TrueType" {
			table = byteTable(charmap.Windows1252)
		} else {
			table = standardEncoding()
		}
	}
	if enc.Kind() == pdf.Dict {
		diffs := enc.Key("Differences")
		code := -1
		for i := 0; i < diffs.Len(); i++ {
			d := diffs.Index(i)
			switch d.Kind() {
			case pdf.Integer:
				code = int(d.Int64())
			case pdf.Name:
				if 0 <= code && code < 256 {
					table[code] = glyphText(d.Name())
				}
				code++
			}
		}
	}
	for i := range table {
		table[i] = cleanGlyphText(table[i])
	}
	return &table
}

func byteTable(cm *charmap.Charmap) [256]string {
	var t [256]string
	for c := 0x20; c < 256; c++ {
		if c != 0x7f {
			t[c] = string(cm.DecodeByte(byte(c)))
		}
	}
	return t
}

// standardHigh is Adobe's StandardEncoding above 0x7E.
var standardHigh = map[byte]string{
	0xA1: "¡", 0xA2: "¢", 0xA3: "£", 0xA4: "⁄", 0xA5: "¥", 0xA6: "ƒ", 0xA7: "§", 0xA8: "¤",
	0xA9: "'", 0xAA: "“", 0xAB: "«", 0xAC: "‹", 0xAD: "›", 0xAE: "fi", 0xAF: "fl", 0xB1: "–",
	0xB2: "†", 0xB3: "‡", 0xB4: "·", 0xB6: "¶", 0xB7: "•", 0xB8: "‚", 0xB9: "„", 0xBA: "”",
	0xBB: "»", 0xBC: "…", 0xBD: "‰", 0xBF: "¿", 0xC1: "`", 0xC2: "´", 0xC3: "ˆ", 0xC4: "˜",
	0xC5: "¯", 0xC6: "˘", 0xC7: "˙", 0xC8: "¨", 0xCA: "˚", 0xCB: "¸", 0xCD: "˝", 0xCE: "˛",
	0xCF: "ˇ", 0xD0: "—", 0xE1: "Æ", 0xE3: "ª", 0xE8: "Ł", 0xE9: "Ø", 0xEA: "Œ", 0xEB: "º",
	0xF1: "æ", 0xF5: "ı", 0xF8: "ł", 0xF9: "ø", 0xFA: "œ", 0xFB: "ß",
}

func standardEncoding() [256]string {
	var t [256]string
	for c := 0x20; c < 0x7f; c++ {
		t[c] = string(rune(c))
	}
	t['\''], t['`'] = "’", "‘"
	for c, s := range standardHigh {
		t[c] = s
	}
	return t
}

var type1EncodingEntry = regexp.MustCompile(`dup\s+(\d+)\s*/([^\s/\[\]{}()<>]+)\s+put`)

// type1Encoding reads the encoding built into an embedded Type 1 font
// program (TeX's fonts have no other): the clear-text part lists
// "dup CODE /name put" for each code.
func type1Encoding(font pdf.Value) ([256]string, bool) {
	var t [256]string
	ff := font.Key("FontDescriptor").Key("FontFile")
	if ff.Kind() != pdf.Stream {
		return t, false
	}
	limit := ff.Key("Length1").Int64()
	if limit <= 0 || limit > 1<<20 {
		limit = 1 << 20
	}
	clear := streamBytes(ff, limit)
	if i := bytes.Index(clear, []byte("eexec")); i >= 0 {
		clear = clear[:i]
	}
	if bytes.Contains(clear, []byte("/Encoding StandardEncoding")) {
		return standardEncoding(), true
	}
	found := false
	for _, m := range type1EncodingEntry.FindAllSubmatch(clear, 512) {
		code, err := strconv.Atoi(string(m[1]))
		if err != nil || code < 0 || code > 255 {
			continue
		}
		t[code] = glyphText(string(m[2]))
		found = true
	}
	return t, found
}
