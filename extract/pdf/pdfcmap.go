package pdf

import (
	"unicode/utf16"
)

// parseToUnicode reads a ToUnicode CMap: its bfchar and bfrange sections
// map character codes to UTF-16 text. Everything else in the CMap
// (codespace ranges, names, the PostScript around it) is skipped. The PDF
// library's own PostScript interpreter is not used: it needs a dictionary
// pushed for "findresource", which its exported API cannot make, and a
// hand-written scanner for this small syntax is simpler and faster.
func parseToUnicode(data []byte) map[uint32]string {
	m := map[uint32]string{}
	var args []cmapArg
	sc := cmapScanner{data: data}
	for len(m) < maxCMapEntries {
		tok, ok := sc.next()
		if !ok {
			break
		}
		switch tok.kind {
		case cmapHex:
			args = append(args, cmapArg{b: tok.b})
		case cmapOpen:
			var arr [][]byte
			for {
				t, ok := sc.next()
				if !ok || t.kind == cmapClose {
					break
				}
				if t.kind == cmapHex {
					arr = append(arr, t.b)
				}
			}
			args = append(args, cmapArg{arr: arr, isArr: true})
		case cmapWord:
			switch string(tok.b) {
			case "endbfchar":
				for i := 0; i+1 < len(args); i += 2 {
					if !args[i].isArr && !args[i+1].isArr {
						m[codeOf(args[i].b)] = cleanGlyphText(utf16Text(args[i+1].b))
					}
				}
			case "endbfrange":
				for i := 0; i+2 < len(args); i += 3 {
					addRange(m, args[i], args[i+1], args[i+2])
				}
			}
			if isCMapOperator(tok.b) {
				args = args[:0]
			}
		}
	}
	return m
}

// isCMapOperator tells a keyword (which consumes the operands before it)
// from a number operand.
func isCMapOperator(b []byte) bool {
	return len(b) > 0 && (b[0] < '0' || b[0] > '9') && b[0] != '-' && b[0] != '.' && b[0] != '+'
}

func addRange(m map[uint32]string, lo, hi, dst cmapArg) {
	if lo.isArr || hi.isArr {
		return
	}
	a, b := codeOf(lo.b), codeOf(hi.b)
	if b < a || b-a >= maxRangeSpan {
		return
	}
	if dst.isArr {
		for i, s := range dst.arr {
			if c := a + uint32(i); c <= b {
				m[c] = cleanGlyphText(utf16Text(s))
			}
		}
		return
	}
	units := utf16Units(dst.b)
	if len(units) == 0 {
		return
	}
	for c := a; c <= b && len(m) < maxCMapEntries; c++ {
		u := append([]uint16(nil), units...)
		u[len(u)-1] += uint16(c - a)
		m[c] = cleanGlyphText(string(utf16.Decode(u)))
	}
}

func codeOf(b []byte) uint32 {
	var c uint32
	for i, x := range b {
		if i == 4 {
			break
		}
		c = c<<8 | uint32(x)
	}
	return c
}

func utf16Units(b []byte) []uint16 {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	return u
}

func utf16Text(b []byte) string {
	if len(b) == 1 { // a one-byte destination, seen in the wild: read it as Latin-1
		return string(rune(b[0]))
	}
	return string(utf16.Decode(utf16Units(b)))
}

type cmapKind int

const (
	cmapHex cmapKind = iota
	cmapWord
	cmapOpen
	cmapClose
	cmapOther
)

type cmapToken struct {
	kind cmapKind
	b    []byte
}

type cmapArg struct {
	b     []byte
	arr   [][]byte
	isArr bool
}

// cmapScanner cuts a CMap into tokens: hex strings, words (operators,
// numbers), array brackets; names, literal strings and dictionaries are
// returned as cmapOther.
type cmapScanner struct {
	data []byte
	pos  int
}

func (s *cmapScanner) next() (cmapToken, bool) {
	d := s.data
	for s.pos < len(d) {
		c := d[s.pos]
		switch {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0:
			s.pos++
		case c == '%':
			for s.pos < len(d) && d[s.pos] != '\n' && d[s.pos] != '\r' {
				s.pos++
			}
		case c == '<' && s.pos+1 < len(d) && d[s.pos+1] == '<', c == '>' && s.pos+1 < len(d) && d[s.pos+1] == '>':
			s.pos += 2
			return cmapToken{kind: cmapOther}, true
		case c == '<':
			s.pos++
			var b []byte
			var hi byte
			half := false
			for s.pos < len(d) && d[s.pos] != '>' {
				if v, ok := hexValue(d[s.pos]); ok {
					if half {
						b = append(b, hi<<4|v)
					} else {
						hi = v
					}
					half = !half
				}
				s.pos++
			}
			if half {
				b = append(b, hi<<4)
			}
			s.pos++
			return cmapToken{kind: cmapHex, b: b}, true
		case c == '[':
			s.pos++
			return cmapToken{kind: cmapOpen}, true
		case c == ']':
			s.pos++
			return cmapToken{kind: cmapClose}, true
		case c == '(':
			depth := 0
			for s.pos < len(d) {
				switch d[s.pos] {
				case '\\':
					s.pos++
				case '(':
					depth++
				case ')':
					depth--
				}
				s.pos++
				if depth == 0 {
					break
				}
			}
			return cmapToken{kind: cmapOther}, true
		case c == '/' || c == '{' || c == '}' || c == ')' || c == '>':
			s.pos++
			for s.pos < len(d) && !cmapDelimiter(d[s.pos]) {
				s.pos++
			}
			return cmapToken{kind: cmapOther}, true
		default:
			start := s.pos
			for s.pos < len(d) && !cmapDelimiter(d[s.pos]) {
				s.pos++
			}
			return cmapToken{kind: cmapWord, b: d[start:s.pos]}, true
		}
	}
	return cmapToken{}, false
}

func cmapDelimiter(c byte) bool {
	switch c {
	case ' ', '\n', '\r', '\t', '\f', 0, '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func hexValue(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
