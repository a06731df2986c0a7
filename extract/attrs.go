package extract

import (
	"bytes"
	"unicode/utf8"
)

// Attributes are the other half of what the parser reads of a page once
// scripts and styles are out (43% of ../shared/realweb's HTML after
// stripUnread's other cuts: classes, data-* values, image sources,
// handlers), and the tokenizer makes four copies of each it keeps. The
// walker reads a few of them; stripUnread takes the others out of the
// tags it reads, where it is certain the tree builder would not read them
// either.
//
// keptAttr lists every attribute key that extract's code or the tree
// builder of golang.org/x/net/html reads: TestKeptAttrsCoverTheCode finds
// the keys the code asks for and fails when one is missing here. "type" is
// read by the tree builder (<input type=hidden> in a table); "color",
// "face" and "size" are too, but only of <font>, whose attributes are kept
// (see dropsAttrs), as is "encoding" of MathML's annotation-xml, where
// stripUnread stops.
func keptAttr(key []byte) bool {
	if len(key) > len("shadowrootmode") {
		return false
	}
	var buf [len("shadowrootmode")]byte
	lower := buf[:len(key)]
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A' // the tokenizer lower-cases keys in ASCII only
		}
		lower[i] = c
	}
	switch string(lower) {
	case "lang", "xml:lang", "href", "rel", "hreflang", "role", "hidden", "aria-hidden",
		"open", "shadowrootmode", "slot", "name", "aria-label", "title", "alt", "id",
		"ng-app", "data-reactroot", "content", "type":
		return true
	case "class", "style":
		return true // unless their value says nothing (unreadValue)
	}
	return false
}

// unreadValue reports a class or style attribute whose value the walker
// reads as if it were absent: a class that names no footer
// (classNamesFooter is false) and a style that cannot hide (styleHides is
// false). Only values the tokenizer passes on as written are judged (ASCII,
// no character reference, carriage return or NUL); the others are kept.
func unreadValue(key, val []byte) bool {
	class := nameIs(key, "class")
	if !class && !nameIs(key, "style") {
		return false
	}
	for i, c := range val {
		switch {
		case c >= utf8.RuneSelf || c == '&' || c == '\r' || c == 0:
			return false
		case class:
			// mayNameFooter, for ASCII: what a word of the class must hold.
			switch c | 0x20 {
			case 'f':
				if hasPrefixFoldBytes(val[i:], "foot") || hasPrefixFoldBytes(val[i:], "ftr") {
					return false
				}
			case 'c':
				if hasPrefixFoldBytes(val[i:], "colophon") {
					return false
				}
			}
		default:
			// styleHides reads only these two properties.
			switch c | 0x20 {
			case 'd':
				if hasPrefixFoldBytes(val[i:], "display") {
					return false
				}
			case 'v':
				if hasPrefixFoldBytes(val[i:], "visibility") {
					return false
				}
			}
		}
	}
	return true
}

// hasPrefixFoldBytes reports whether s starts with the lower-case ASCII
// word, ignoring ASCII case.
func hasPrefixFoldBytes(s []byte, word string) bool {
	return len(s) >= len(word) && nameIs(s[:len(word)], word)
}

// dropsAttrs reports the start tags (by name as written) whose unread
// attributes stripUnread may take out: all of HTML's but html and body,
// whose attributes a later <html> or <body> tag adds to when missing, and
// the formatting elements but <a>, which the tree builder compares
// attribute by attribute (three alike, and the oldest is not reopened).
// It never holds two <a> open where it compares them: an <a> first closes
// the one before it. <svg> and <math> keep theirs: their content is
// foreign.
func dropsAttrs(name []byte) bool {
	if len(name) == 0 || len(name) > len("strike") {
		return len(name) > 0
	}
	for _, keep := range [...]string{"html", "body", "svg", "math", "b", "big", "code", "em", "font", "i", "nobr", "s",
		"small", "strike", "strong", "tt", "u"} {
		if nameIs(name, keep) {
			return false
		}
	}
	return true
}

// noneRead reports the start tags none of whose attributes anything
// reads, whatever keptAttr says: <script> and <style>, which the walker
// skips whole and the tree builder reads by name, and a <link> without
// hreflang, which is no alternate (isAlternateLink), the one thing a
// <link> is read for.
func noneRead(data []byte, name []byte, attrs []attrSpan) bool {
	switch {
	case nameIs(name, "script"), nameIs(name, "style"):
		return true
	case nameIs(name, "link"):
		// Read: the hreflang alternates, and rel="license" (a value
		// with a character reference is kept too, unjudged).
		for _, a := range attrs {
			key := data[a.start:a.keyEnd]
			if nameIs(key, "hreflang") {
				return false
			}
			if nameIs(key, "rel") {
				v := bytes.ToLower(data[a.valStart:a.valEnd])
				if bytes.Contains(v, []byte("license")) || bytes.IndexByte(v, '&') >= 0 {
					return false
				}
			}
		}
		return true
	}
	return false
}

// unreadAttrs calls cut(from, to) for the runs of attributes of one start
// tag (as readTag found them) that nothing reads, in order; all of them
// when all is set. A class or style judged by its value is kept when its
// key is written twice: the tokenizer keeps the first, and taking that out
// would promote the second. A key that starts with "=" is never kept, so no
// cut can leave a "=" right after a key without value, which would give
// that key a value.
func unreadAttrs(data []byte, attrs []attrSpan, all bool, cut func(from, to int)) {
	from := -1 // start of the run being cut
	for i, a := range attrs {
		key := data[a.start:a.keyEnd]
		drop := len(key) > 0 && (all || !keptAttr(key))
		if !drop && len(key) > 0 && unreadValue(key, data[a.valStart:a.valEnd]) {
			drop = true
			for j, b := range attrs {
				if j != i && bytes.EqualFold(data[b.start:b.keyEnd], key) {
					drop = false
					break
				}
			}
		}
		switch {
		case drop && from < 0:
			from = a.start
		case !drop && from >= 0:
			cut(from, a.start)
			from = -1
		}
	}
	if from >= 0 {
		cut(from, attrs[len(attrs)-1].end)
	}
}
