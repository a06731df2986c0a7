package extract

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
)

// The rules that can decide a charset, in the order they are tried.
const (
	RuleBOM                = "bom"
	RuleHeader             = "header"
	RuleHeaderUTF8Override = "header-utf8-override"
	RuleMeta               = "meta"
	RuleMetaUTF8Override   = "meta-utf8-override"
	RuleUTF8Valid          = "utf8-valid"
	RuleFallback1252       = "fallback-windows-1252"
)

// metaScanLimit is how far into an HTML body we look for <meta charset>.
// Browsers stop at 1 KiB, but real pages put kilobytes of inline script,
// style and preload hints before the meta tag, so we look much further.
const metaScanLimit = 64 << 10

// decoded is the outcome of choosing and applying a charset.
type decoded struct {
	// data is the text as valid UTF-8. When the body was valid UTF-8 and
	// read as such, it is the body itself, not a copy: HTML parses it in
	// place, so a page costs no copy as large as itself. It is only read.
	data    []byte
	charset string // canonical WHATWG name, e.g. "utf-8", "windows-1252"
	rule    string
}

// decodeBody turns body bytes into UTF-8 text. The order is: a byte order
// mark; the Content-Type charset (except that a single-byte Western label
// over a body that is valid UTF-8 with multi-byte sequences is taken as a
// mislabelled UTF-8 page); for HTML, a <meta> declaration within the first
// metaScanLimit bytes (same exception); UTF-8 if the bytes are valid UTF-8;
// windows-1252 otherwise (it maps every byte, so decoding never fails).
func decodeBody(body []byte, contentType string, isHTML bool) decoded {
	if name, n := sniffBOM(body); name != "" {
		return decodeWith(body[n:], name, RuleBOM)
	}
	if label := headerCharset(contentType); label != "" {
		if enc, name := lookupCharset(label); enc != nil {
			if isWesternSingleByte(name) && hasMultiByteUTF8(body) {
				return decodeWith(body, "utf-8", RuleHeaderUTF8Override)
			}
			return decodeWith(body, name, RuleHeader)
		}
	}
	if isHTML {
		if label := metaCharset(body, metaScanLimit); label != "" {
			if enc, name := lookupCharset(label); enc != nil {
				// A page cannot declare itself UTF-16 in a meta tag it
				// could only have been read with an ASCII-compatible
				// charset; the HTML standard says to use UTF-8.
				if strings.HasPrefix(name, "utf-16") {
					name = "utf-8"
				}
				if isWesternSingleByte(name) && hasMultiByteUTF8(body) {
					return decodeWith(body, "utf-8", RuleMetaUTF8Override)
				}
				return decodeWith(body, name, RuleMeta)
			}
		}
	}
	if utf8.Valid(body) {
		return decodeWith(body, "utf-8", RuleUTF8Valid)
	}
	return decodeWith(body, "windows-1252", RuleFallback1252)
}

// sniffBOM returns the charset named by a byte order mark and its length.
func sniffBOM(b []byte) (string, int) {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return "utf-8", 3
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return "utf-16be", 2
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return "utf-16le", 2
	}
	return "", 0
}

// headerCharset returns the charset parameter of a Content-Type value, or "".
func headerCharset(contentType string) string {
	if contentType == "" {
		return ""
	}
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		return strings.TrimSpace(params["charset"])
	}
	// A malformed header (duplicate or broken parameters) still often
	// carries a usable charset; look for it by hand.
	return charsetParam(contentType)
}

// charsetParam finds "charset=LABEL" in a loose parameter string such as
// a Content-Type value or the content attribute of an http-equiv meta tag.
func charsetParam(s string) string {
	lower := asciiLower(s) // same length as s, so indexes carry over
	i := strings.Index(lower, "charset")
	for i >= 0 {
		rest := strings.TrimLeft(s[i+len("charset"):], " \t")
		if strings.HasPrefix(rest, "=") {
			rest = strings.TrimLeft(rest[1:], " \t")
			rest = strings.Trim(rest, `"'`)
			end := strings.IndexAny(rest, "\"'; \t,")
			if end >= 0 {
				rest = rest[:end]
			}
			return rest
		}
		next := strings.Index(lower[i+1:], "charset")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return ""
}

// lookupCharset maps a label to a WHATWG encoding and its canonical name.
func lookupCharset(label string) (encoding.Encoding, string) {
	enc, err := htmlindex.Get(strings.TrimSpace(label))
	if err != nil {
		return nil, ""
	}
	name, err := htmlindex.Name(enc)
	if err != nil {
		return nil, ""
	}
	return enc, name
}

// isWesternSingleByte reports whether a canonical name is the charset that
// the labels latin-1, iso-8859-1, us-ascii and windows-1252 all map to
// (WHATWG treats them as one), or its close sibling iso-8859-15.
func isWesternSingleByte(name string) bool {
	return name == "windows-1252" || name == "iso-8859-15"
}

// hasMultiByteUTF8 reports whether b is valid UTF-8 and holds at least one
// multi-byte sequence: such a body is almost never real Latin-1 text.
func hasMultiByteUTF8(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// metaCharset scans the start of an HTML body for <meta charset=X> or
// <meta http-equiv="content-type" content="...; charset=X">. It uses the
// HTML tokenizer, so a "<meta" inside a script or comment is not taken.
func metaCharset(body []byte, limit int) string {
	if len(body) > limit {
		body = body[:limit]
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "meta" || !hasAttr {
				continue
			}
			var charset, httpEquiv, content string
			for {
				k, v, more := z.TagAttr()
				switch string(k) {
				case "charset":
					charset = string(v)
				case "http-equiv":
					httpEquiv = string(v)
				case "content":
					content = string(v)
				}
				if !more {
					break
				}
			}
			if c := strings.TrimSpace(charset); c != "" {
				return c
			}
			if strings.EqualFold(strings.TrimSpace(httpEquiv), "content-type") {
				if c := charsetParam(content); c != "" {
					return c
				}
			}
		}
	}
}

// decodeWith decodes b with the named charset; invalid sequences become
// U+FFFD, so the result is always valid UTF-8.
func decodeWith(b []byte, name, rule string) decoded {
	if name == "utf-8" {
		return decoded{data: validUTF8(b), charset: name, rule: rule}
	}
	enc, canon := lookupCharset(name)
	if enc == nil {
		return decoded{data: validUTF8(b), charset: "utf-8", rule: rule}
	}
	out, err := enc.NewDecoder().Bytes(b)
	if err != nil {
		// The x/text decoders replace bad input rather than fail; this
		// is only reached on internal errors. Keep what is readable.
		return decoded{data: validUTF8(b), charset: "utf-8", rule: rule}
	}
	return decoded{data: validUTF8(out), charset: canon, rule: rule}
}

// validUTF8 is b with each invalid sequence replaced by U+FFFD: b itself
// when it is valid (utf8.Valid checks that several times faster than
// strings.ToValidUTF8 walks it).
func validUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return []byte(strings.ToValidUTF8(string(b), "\uFFFD"))
}

// asciiLower lower-cases ASCII letters only, keeping every byte offset.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
