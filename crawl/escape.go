package crawl

import (
	"net/url"
	"strings"
)

// browserURL returns raw as a browser would send it: a space, a quote, an
// angle bracket or a byte outside ASCII in the query is percent-encoded
// (the path and fragment are escaped by url.URL already). Go keeps a query
// as it was written, so "/terms?a b" would otherwise go on the wire raw,
// be a malformed request line, and be a record no WARC reader accepts.
// An address that cannot be parsed is returned unchanged: follow makes it
// a gap.
func browserURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.RawQuery = escapeQuery(u.RawQuery)
	return u.String()
}

// escapeQuery percent-encodes the bytes of a query that the WHATWG URL
// standard encodes in the query of an http(s) address: C0 controls, space,
// the double quote, the apostrophe, #, < and >, and every byte from 0x7F
// up. Existing escapes are kept as they are, so an escaped query is returned unchanged.
func escapeQuery(q string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	escaped := false
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c > ' ' && c < 0x7f && strings.IndexByte("\"#'<>", c) < 0 {
			if escaped {
				b.WriteByte(c)
			}
			continue
		}
		if !escaped {
			escaped = true
			b.Grow(len(q) + 8)
			b.WriteString(q[:i])
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	if !escaped {
		return q
	}
	return b.String()
}
