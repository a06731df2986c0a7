package pdf

import (
	"math"
	"strings"

	"github.com/ledongthuc/pdf"
)

// glyph is one drawn character with its place on the page, in the frame
// of its writing direction: x grows along the line, y grows up the page,
// so every direction is laid out by the same code.
type glyph struct {
	x, y  float64 // origin on the baseline
	w     float64 // advance along the line
	size  float64 // font size on the page
	text  string  // what a reader sees; never empty
	space bool    // a space character
	dir   uint8   // 0 upright; 1, 2, 3: turned a quarter, half, three quarters
}

// matrix is a PDF transformation [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func translate(x, y float64) matrix { return matrix{1, 0, 0, 1, x, y} }

// textState is the part of the graphics state that text depends on.
type textState struct {
	ctm                        matrix
	font                       *pdfFont
	size, tc, tw, th, tl, rise float64
}

// Limits per page against hostile files: glyphs kept, form XObjects run,
// and how deep forms may nest.
const (
	maxPageGlyphs = 1 << 20
	maxFormRuns   = 500
	maxFormDepth  = 8
)

// glyphReader interprets content streams into glyphs. Fonts are cached
// for the whole document: the same font dictionary on every page is read
// once.
type glyphReader struct {
	fonts    map[string]*pdfFont // by the font dictionary's text
	glyphs   []glyph
	formRuns int
}

func newGlyphReader() *glyphReader {
	return &glyphReader{fonts: map[string]*pdfFont{}}
}

// page returns the glyphs of one page, in the order they are drawn.
func (r *glyphReader) page(p pdf.Page) []glyph {
	r.glyphs, r.formRuns = r.glyphs[:0], 0
	if p.V.Key("Contents").Kind() == pdf.Null {
		return nil
	}
	r.run(p.V.Key("Contents"), p.Resources(), identity, 0)
	return r.glyphs
}

func (r *glyphReader) font(v pdf.Value) *pdfFont {
	if v.Kind() != pdf.Dict {
		return nil
	}
	key := v.String()
	f, ok := r.fonts[key]
	if !ok {
		f = loadFont(v)
		r.fonts[key] = f
	}
	return f
}

// run interprets one content stream (a page's, or a form XObject's).
func (r *glyphReader) run(content, resources pdf.Value, ctm matrix, depth int) {
	gs := textState{ctm: ctm, th: 1}
	var saved []textState
	tm, tlm := identity, identity
	fonts := map[string]*pdfFont{}
	var args []pdf.Value
	var spans []markedSpan

	show := func(s string) {
		f := gs.font
		if f == nil {
			return
		}
		f.codes(s, func(code uint32, oneByte bool) {
			w0 := f.width(code)
			if text := f.text(code); text != "" && len(r.glyphs) < maxPageGlyphs {
				trm := matrix{gs.size * gs.th, 0, 0, gs.size, 0, gs.rise}.mul(tm).mul(gs.ctm)
				r.add(trm, w0, text)
			}
			tx := w0*gs.size + gs.tc
			if oneByte && code == ' ' {
				tx += gs.tw
			}
			tm = translate(tx*gs.th, 0).mul(tm)
		})
	}
	nextLine := func() {
		tlm = translate(0, -gs.tl).mul(tlm)
		tm = tlm
	}
	num := func(i int) float64 {
		if i < len(args) {
			return args[i].Float64()
		}
		return 0
	}
	mat := func() (matrix, bool) {
		if len(args) != 6 {
			return identity, false
		}
		var m matrix
		for i := range m {
			m[i] = args[i].Float64()
		}
		return m, true
	}

	pdf.Interpret(content, func(stk *pdf.Stack, op string) {
		args = args[:0]
		for stk.Len() > 0 {
			args = append(args, stk.Pop())
		}
		for i, j := 0, len(args)-1; i < j; i, j = i+1, j-1 {
			args[i], args[j] = args[j], args[i]
		}
		switch op {
		case "q":
			saved = append(saved, gs)
		case "Q":
			if n := len(saved); n > 0 {
				gs, saved = saved[n-1], saved[:n-1]
			}
		case "cm":
			if m, ok := mat(); ok {
				gs.ctm = m.mul(gs.ctm)
			}
		case "BT":
			tm, tlm = identity, identity
		case "Tc":
			gs.tc = num(0)
		case "Tw":
			gs.tw = num(0)
		case "Tz":
			gs.th = num(0) / 100
		case "TL":
			gs.tl = num(0)
		case "Ts":
			gs.rise = num(0)
		case "Tf":
			if len(args) == 2 {
				name := args[0].Name()
				f, ok := fonts[name]
				if !ok {
					f = r.font(resources.Key("Font").Key(name))
					fonts[name] = f
				}
				gs.font, gs.size = f, args[1].Float64()
			}
		case "Td", "TD":
			if op == "TD" {
				gs.tl = -num(1)
			}
			tlm = translate(num(0), num(1)).mul(tlm)
			tm = tlm
		case "Tm":
			if m, ok := mat(); ok {
				tm, tlm = m, m
			}
		case "T*":
			nextLine()
		case "Tj":
			if len(args) == 1 {
				show(args[0].RawString())
			}
		case "'":
			if len(args) == 1 {
				nextLine()
				show(args[0].RawString())
			}
		case "\"":
			if len(args) == 3 {
				gs.tw, gs.tc = num(0), num(1)
				nextLine()
				show(args[2].RawString())
			}
		case "TJ":
			if len(args) != 1 {
				return
			}
			a := args[0]
			for i := 0; i < a.Len(); i++ {
				switch x := a.Index(i); x.Kind() {
				case pdf.String:
					show(x.RawString())
				case pdf.Integer, pdf.Real:
					// A kerning adjustment moves the next glyph; whether the
					// move makes a space is for the layout to judge.
					tm = translate(-x.Float64()/1000*gs.size*gs.th, 0).mul(tm)
				}
			}
		case "BMC", "BDC":
			spans = append(spans, r.openSpan(op, args, resources, func() matrix {
				return matrix{gs.size * gs.th, 0, 0, gs.size, 0, gs.rise}.mul(tm).mul(gs.ctm)
			}))
		case "EMC":
			if n := len(spans); n > 0 {
				r.closeSpan(spans[n-1])
				spans = spans[:n-1]
			}
		case "Do":
			if len(args) == 1 {
				r.form(resources.Key("XObject").Key(args[0].Name()), resources, gs.ctm, depth)
			}
		}
	})
}

// form runs a form XObject's content, which may hold text (letterheads,
// stamps, and some producers' whole pages).
func (r *glyphReader) form(x, parentRes pdf.Value, ctm matrix, depth int) {
	if x.Kind() != pdf.Stream || x.Key("Subtype").Name() != "Form" || depth >= maxFormDepth || r.formRuns >= maxFormRuns {
		return
	}
	r.formRuns++
	if !contentStreamSafe(x) {
		return
	}
	m := identity
	if fm := x.Key("Matrix"); fm.Len() == 6 {
		for i := range m {
			m[i] = fm.Index(i).Float64()
		}
	}
	res := x.Key("Resources")
	if res.Kind() != pdf.Dict {
		res = parentRes
	}
	r.run(x, res, m.mul(ctm), depth+1)
}

// add records a glyph drawn with the text rendering matrix trm and
// advance w0 (text space units).
func (r *glyphReader) add(trm matrix, w0 float64, text string) {
	hx, hy := trm[0], trm[1]
	size := math.Hypot(trm[2], trm[3])
	scale := math.Hypot(hx, hy)
	if size == 0 || scale == 0 || math.IsNaN(size+scale) || math.IsInf(size+scale, 0) {
		return
	}
	g := glyph{w: w0 * scale, size: size, text: text, space: text == " " || text == "\u00a0"}
	x, y := trm[4], trm[5]
	switch {
	case math.Abs(hx) >= math.Abs(hy) && hx > 0:
		g.x, g.y = x, y
	case math.Abs(hx) >= math.Abs(hy):
		g.x, g.y, g.dir = -x, -y, 2
	case hy > 0:
		g.x, g.y, g.dir = y, -x, 1
	default:
		g.x, g.y, g.dir = -y, x, 3
	}
	r.glyphs = append(r.glyphs, g)
}

// markedSpan is an open marked-content sequence (BMC or BDC ... EMC). One
// with /ActualText says what its glyphs read as: a producer writes it for
// a ligature or a hyphenation hyphen, or over glyphs its fonts cannot map.
type markedSpan struct {
	actual bool
	text   string
	start  int    // index of its first glyph in r.glyphs
	trm    matrix // where text would start, for a span that draws none
}

func (r *glyphReader) openSpan(op string, args []pdf.Value, resources pdf.Value, at func() matrix) markedSpan {
	if op != "BDC" || len(args) != 2 {
		return markedSpan{}
	}
	props := args[1]
	if props.Kind() == pdf.Name {
		props = resources.Key("Properties").Key(props.Name())
	}
	actual := props.Key("ActualText")
	if actual.Kind() != pdf.String {
		return markedSpan{}
	}
	return markedSpan{actual: true, text: cleanGlyphText(actual.Text()), start: len(r.glyphs), trm: at()}
}

// closeSpan puts one glyph with the span's actual text in place of the
// glyphs drawn inside it, covering the same width; an empty actual text
// removes them (a hyphen that is only typography).
func (r *glyphReader) closeSpan(s markedSpan) {
	if !s.actual || s.start > len(r.glyphs) || len(r.glyphs) >= maxPageGlyphs {
		return
	}
	drawn := r.glyphs[s.start:]
	r.glyphs = r.glyphs[:s.start]
	if s.text == "" {
		return
	}
	if len(drawn) == 0 {
		r.add(s.trm, 0, s.text)
		return
	}
	g := drawn[0]
	for _, d := range drawn[1:] {
		if d.dir == g.dir {
			g.w = max(g.w, d.x+d.w-g.x)
		}
	}
	g.text = s.text
	g.space = strings.TrimSpace(s.text) == ""
	if g.space {
		g.text = " "
	}
	r.glyphs = append(r.glyphs, g)
}
