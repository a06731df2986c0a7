package robots

import "strings"

// Both sides of a comparison, a rule's path and the URL's path, are brought
// to one form before the matcher sees them (RFC 9309 §2.2.2):
//
//   - a %xx escape is written with upper-case hex digits, and decoded when it
//     stands for an unreserved character (letters, digits, "-", ".", "_",
//     "~"), which RFC 3986 says is the same URI either way;
//   - bytes outside printable ASCII (non-ASCII UTF-8, controls, space) and
//     the characters a URL may not carry as they are (" < > \ ^ ` { | }) are
//     percent-encoded;
//   - a "%" that starts no escape is encoded as %25;
//   - in a URL, "*" and "$" are encoded (%2A, %24): in a rule they are
//     wildcards, and a rule that means them literally must encode them, as
//     RFC 9309 §2.2.3 says. In a rule, "*" stays a wildcard and a final "$"
//     the end anchor; a "$" elsewhere is a literal and is encoded.
//
// Done before the library sees the file, this also keeps grobotstxt from
// rewriting escapes itself: it upper-cases hex digits with a bit mask that
// also changes digits ('%2f' becomes "%\x12F"), so that such a rule, and any
// rule with a non-ASCII byte in it, could never match.

const upperHex = "0123456789ABCDEF"

func unhex(c byte) (byte, bool) {
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

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// mustEncode reports the bytes that never appear bare in our normal form.
func mustEncode(c byte) bool {
	if c <= 0x20 || c >= 0x7F {
		return true
	}
	return strings.IndexByte("\"<>\\^`{|}", c) >= 0
}

// normalise writes s in the normal form; pattern says whether s is a rule's
// path (with wildcards) or a URL's path and query.
func normalise(s string, pattern bool) string {
	if isNormal(s, pattern) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	enc := func(c byte) {
		b.WriteByte('%')
		b.WriteByte(upperHex[c>>4])
		b.WriteByte(upperHex[c&15])
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			hi, ok1 := unhex(at(s, i+1))
			lo, ok2 := unhex(at(s, i+2))
			if !ok1 || !ok2 {
				enc('%')
				continue
			}
			v := hi<<4 | lo
			if unreserved(v) {
				b.WriteByte(v)
			} else {
				enc(v)
			}
			i += 2
		case c == '*':
			if pattern {
				b.WriteByte(c)
			} else {
				enc(c)
			}
		case c == '$':
			if pattern && i == len(s)-1 {
				b.WriteByte(c)
			} else {
				enc(c)
			}
		case mustEncode(c):
			enc(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isNormal is the quick check that most paths need no rewriting.
func isNormal(s string, pattern bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			hi, ok1 := unhex(at(s, i+1))
			lo, ok2 := unhex(at(s, i+2))
			if !ok1 || !ok2 || unreserved(hi<<4|lo) || !isUpperHex(s[i+1]) || !isUpperHex(s[i+2]) {
				return false
			}
			i += 2
		case c == '*':
			if !pattern {
				return false
			}
		case c == '$':
			if !pattern || i != len(s)-1 {
				return false
			}
		case mustEncode(c):
			return false
		}
	}
	return true
}

func isUpperHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// ProductToken is how a name becomes a robots.txt product token, the one
// rule for both sides of a match: a user-agent line's value, and the name
// a crawler is asked about (our agents list, the robots command's -agent,
// our own User-Agent header). RFC 9309 §2.2.1 allows only letters, "_" and
// "-" in a product token, and Google's parser, whose rules grobotstxt
// ports, reads a name up to the first other character: "AI2Bot" reads as
// "AI", "img2dataset" as "img", "Googlebot/2.1" and
// "crawlsignals/0.1 (+https://…)" as "Googlebot" and "crawlsignals".
// grobotstxt itself keeps digits and other HTTP token characters, so
// neither side is ever handed to it uncut. "*" (also when words follow it,
// as Google reads "* bot") is the star. Surrounding space is ignored; a
// name that starts with no token character has no token ("").
func ProductToken(name string) string {
	v := strings.TrimSpace(name)
	if v == "*" || len(v) > 1 && v[0] == '*' && (v[1] == ' ' || v[1] == '\t') {
		return "*"
	}
	i := 0
	for i < len(v) && isTokenChar(v[i]) {
		i++
	}
	return v[:i]
}

func isTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-'
}

// HTTPToken is the first product of a User-Agent string as RFC 9110 reads
// it (digits and "." kept): only to tell a caller that ProductToken read
// their name shorter than they wrote it.
func HTTPToken(userAgent string) string {
	s := strings.TrimSpace(userAgent)
	i := 0
	for i < len(s) && isHTTPTokenChar(s[i]) {
		i++
	}
	return s[:i]
}

// isHTTPTokenChar is RFC 9110's tchar.
func isHTTPTokenChar(c byte) bool {
	if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// pathOf is the part of a URL that rules are matched against: the path with
// its parameters and query, without scheme, authority or fragment; always
// starting with "/", and "/" when the URL has no path. It reads the URL the
// way Google's parser does, without judging whether it is well formed.
func pathOf(raw string) string {
	if strings.HasPrefix(raw, "//") {
		raw = raw[2:] // network-path reference: an authority comes first
	}
	from := 0
	if scheme := strings.Index(raw, "://"); scheme >= 0 {
		if early := strings.IndexAny(raw, "/?;"); early < 0 || early > scheme {
			from = scheme + 3
		}
	}
	p := strings.IndexAny(raw[from:], "/?;")
	if p < 0 {
		return "/"
	}
	p += from
	end := len(raw)
	if h := strings.IndexByte(raw, '#'); h >= 0 {
		if h < p {
			return "/"
		}
		end = h
	}
	if raw[p] != '/' {
		return "/" + raw[p:end]
	}
	return raw[p:end]
}
