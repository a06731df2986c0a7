package sites

import (
	"bytes"
	"strconv"
	"strings"
)

// The TOML decoder does not say on which line a key was written (it keeps one
// position per dotted key, shared by every [[site]]), so lineIndex reads the
// file once more for that alone. It runs only on input the decoder accepted,
// is lenient, and never fails: a key it cannot place falls back to the line of
// the table around it.
//
// Paths name keys the way the messages need them: "global.contact",
// "site#3.url" (the fourth [[site]]), "site#3.hosts#1" (the second element of
// its hosts array). Each path maps to the line where it first appears.
type lineIndex map[string]int

// lineOf returns the line of path, or of the nearest enclosing path that has
// one, or 0.
func (ix lineIndex) lineOf(path string) int {
	for path != "" {
		if n, ok := ix[path]; ok {
			return n
		}
		cut := max(strings.LastIndexByte(path, '.'), strings.LastIndexByte(path, '#'))
		if cut < 0 {
			break
		}
		path = path[:cut]
	}
	return 0
}

func indexLines(src []byte) lineIndex {
	s := &lineScanner{src: src, line: 1, ix: lineIndex{}, arrays: map[string]int{}}
	s.run()
	return s.ix
}

type lineScanner struct {
	src    []byte
	pos    int
	line   int
	ix     lineIndex
	arrays map[string]int // array-of-tables path → tables seen so far
	table  string         // path of the current table; "" is the root
}

func (s *lineScanner) eof() bool { return s.pos >= len(s.src) }

func (s *lineScanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.src[s.pos]
}

func (s *lineScanner) at(prefix string) bool {
	return bytes.HasPrefix(s.src[s.pos:], []byte(prefix))
}

// advance moves one byte on; every move goes through here so lines are counted.
func (s *lineScanner) advance() {
	if s.eof() {
		return
	}
	if s.src[s.pos] == '\n' {
		s.line++
	}
	s.pos++
}

func (s *lineScanner) advanceN(n int) {
	for range n {
		s.advance()
	}
}

func (s *lineScanner) record(path string, line int) {
	if _, ok := s.ix[path]; !ok {
		s.ix[path] = line
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (s *lineScanner) run() {
	for !s.eof() {
		s.skipSpace()
		switch c := s.peek(); c {
		case '\n':
			s.advance()
			continue
		case '#':
		case '[':
			s.header()
		default:
			s.keyValue(s.table)
		}
		s.skipToEOL()
	}
}

// skipSpace skips spaces and tabs (and the CR of CRLF) on the current line.
func (s *lineScanner) skipSpace() {
	for c := s.peek(); !s.eof() && (c == ' ' || c == '\t' || c == '\r'); c = s.peek() {
		s.advance()
	}
}

// skipBlank skips white space, line ends and comments, as between the
// elements of an array.
func (s *lineScanner) skipBlank() {
	for !s.eof() {
		switch s.peek() {
		case ' ', '\t', '\r', '\n':
			s.advance()
		case '#':
			s.skipToEOL()
		default:
			return
		}
	}
}

func (s *lineScanner) skipToEOL() {
	for !s.eof() && s.peek() != '\n' {
		s.advance()
	}
}

// header reads a [table] or [[array.of.tables]] header and makes it current.
func (s *lineScanner) header() {
	line := s.line
	s.advance()
	double := s.peek() == '['
	if double {
		s.advance()
	}
	keys := s.key()
	path := ""
	for i, k := range keys {
		path = join(path, k)
		if i == len(keys)-1 && double {
			s.record(path, line)
			n := s.arrays[path]
			s.arrays[path] = n + 1
			path += "#" + strconv.Itoa(n)
		} else if n := s.arrays[path]; n > 0 {
			path += "#" + strconv.Itoa(n-1)
		}
		s.record(path, line)
	}
	s.table = path
}

// keyValue reads key = value inside the table at path.
func (s *lineScanner) keyValue(table string) {
	line := s.line
	keys := s.key()
	if len(keys) == 0 {
		return
	}
	path := table
	for _, k := range keys {
		path = join(path, k)
		s.record(path, line)
	}
	s.skipSpace()
	if s.peek() != '=' {
		return
	}
	s.advance()
	s.skipSpace()
	s.value(path)
}

// key reads a possibly dotted, possibly quoted key and returns its parts.
func (s *lineScanner) key() []string {
	var parts []string
	for {
		s.skipSpace()
		var part string
		switch s.peek() {
		case '"':
			part = s.quotedKey('"')
		case '\'':
			part = s.quotedKey('\'')
		default:
			start := s.pos
			for !s.eof() && !bytes.ContainsRune([]byte(" \t\r\n.=[]{},#\"'"), rune(s.peek())) {
				s.advance()
			}
			if s.pos == start {
				return parts
			}
			part = string(s.src[start:s.pos])
		}
		parts = append(parts, part)
		s.skipSpace()
		if s.peek() != '.' {
			return parts
		}
		s.advance()
	}
}

func (s *lineScanner) quotedKey(quote byte) string {
	s.advance()
	var b []byte
	for !s.eof() {
		c := s.peek()
		switch {
		case c == quote:
			s.advance()
			return string(b)
		case c == '\n':
			return string(b)
		case c == '\\' && quote == '"':
			s.advance()
			if !s.eof() && s.peek() != '\n' {
				b = append(b, s.peek())
				s.advance()
			}
		default:
			b = append(b, c)
			s.advance()
		}
	}
	return string(b)
}

// value skips over one value, recording the lines of array elements and of
// the keys of inline tables under path.
func (s *lineScanner) value(path string) {
	switch {
	case s.at(`"""`):
		s.multiline(`"""`, true)
	case s.at(`'''`):
		s.multiline(`'''`, false)
	case s.peek() == '"':
		s.quotedKey('"')
	case s.peek() == '\'':
		s.quotedKey('\'')
	case s.peek() == '[':
		s.array(path)
	case s.peek() == '{':
		s.inlineTable(path)
	default:
		for !s.eof() && !bytes.ContainsRune([]byte(" \t\r\n,]}#"), rune(s.peek())) {
			s.advance()
		}
	}
}

func (s *lineScanner) multiline(delim string, escapes bool) {
	s.advanceN(len(delim))
	for !s.eof() {
		switch {
		case escapes && s.peek() == '\\':
			s.advanceN(2)
		case s.at(delim):
			s.advanceN(len(delim))
			// Up to two quotes just before the closing ones belong to the string.
			for range 2 {
				if s.peek() == delim[0] {
					s.advance()
				}
			}
			return
		default:
			s.advance()
		}
	}
}

func (s *lineScanner) array(path string) {
	s.advance()
	n, wantElement := 0, true
	for {
		s.skipBlank()
		switch c := s.peek(); {
		case s.eof():
			return
		case c == ']':
			s.advance()
			return
		case c == ',':
			s.advance()
			wantElement = true
		case wantElement:
			elem := path + "#" + strconv.Itoa(n)
			s.record(elem, s.line)
			start := s.pos
			s.value(elem)
			if s.pos == start {
				s.advance()
			}
			n++
			wantElement = false
		default:
			// The rest of a value the skipping above did not take whole
			// (a date-time with a space); it is no new element.
			s.advance()
		}
	}
}

func (s *lineScanner) inlineTable(path string) {
	s.advance()
	for {
		s.skipBlank()
		switch s.peek() {
		case '}':
			s.advance()
			return
		case ',':
			s.advance()
			continue
		}
		if s.eof() {
			return
		}
		start := s.pos
		s.keyValue(path)
		if s.pos == start {
			s.advance()
		}
	}
}
