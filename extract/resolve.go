package extract

import (
	"net/url"
	"strings"
)

// Most links of a page are written plainly: an absolute address
// ("https://www.news.com.au/sport/story-e6frfm1i") or a path from the root
// of the site ("/sport/football"). quickResolve answers those without the
// URL parser, which was the walker's largest single cost on link-heavy home
// pages; every other href goes through resolveNew.
// TestQuickResolveAgreesWithParser holds the two to the same answers on
// every href of the real pages and on random ones.

// quickResolve is resolveNew's answer for an href that is an absolute
// http(s) address with a plain host (and port), or a path from the root
// resolved against origin (the page's scheme and host, "" when that is not
// plain), when its path and query are written only in characters the URL
// parser and URL.String keep as they are (see plainPath), with no
// fragment; ok is false for any other href.
func quickResolve(href, origin string) (u string, ok bool) {
	var rest string
	switch {
	case strings.HasPrefix(href, "https://"):
		rest = href[len("https://"):]
	case strings.HasPrefix(href, "http://"):
		rest = href[len("http://"):]
	case origin != "" && plainPath(href):
		return origin + href, true
	default:
		return "", false
	}
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	host, after := rest[:end], rest[end:]
	switch {
	case !plainAuthority(host):
		return "", false
	case after == "":
		return href, true // "https://example.com": the parser keeps the empty path
	case after[0] == '?':
		return href, plainQuery(after[1:])
	}
	return href, plainPath(after)
}

// plainAuthority reports a plain host with an optional port of digits.
func plainAuthority(hostPort string) bool {
	name, port, hasPort := strings.Cut(hostPort, ":")
	return plainHost(name) && (!hasPort || allDigits(port))
}

// plainOrigin is the scheme and host hrefs from the root are resolved
// against, when quickResolve may write them as they are: those of an
// http(s) base address with a plain host (a port allowed) and no user
// information; "" otherwise (then every such href goes through
// resolveNew).
func plainOrigin(base *url.URL) string {
	if base == nil || base.User != nil || base.Opaque != "" {
		return ""
	}
	scheme := strings.ToLower(base.Scheme)
	if scheme != "http" && scheme != "https" {
		return ""
	}
	if !plainAuthority(base.Host) {
		return ""
	}
	return scheme + "://" + base.Host
}

// plainHost reports a host name of ASCII letters, digits, dots and hyphens.
func plainHost(h string) bool {
	if h == "" {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; !isASCIILetter(c) && !('0' <= c && c <= '9') && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// plainPath reports a path from the root, with a query or not, that the URL
// parser, ResolveReference and URL.String give back as written: the path
// of letters, digits and -._~$&+,;=:@ with no empty or dot segment ("//",
// "/./", "/../"), the query of the same and "/", "?" and "%", and not
// empty (a bare "?" is not kept by ResolveReference); no fragment.
func plainPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	path, query, hasQuery := strings.Cut(p, "?")
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c == '/' && i+1 < len(path) && (path[i+1] == '/' || path[i+1] == '.') {
			return false
		}
		if !plainChar(c) {
			return false
		}
	}
	return !hasQuery || plainQuery(query)
}

// plainQuery reports a query (after its "?") that plainPath accepts.
func plainQuery(query string) bool {
	if query == "" {
		return false
	}
	for i := 0; i < len(query); i++ {
		if c := query[i]; !plainChar(c) && c != '?' && c != '%' {
			return false
		}
	}
	return true
}

// plainChar reports the characters URL.String writes in a path as they
// are, whatever the path holds: unreserved and these sub-delimiters.
func plainChar(c byte) bool {
	if isASCIILetter(c) || '0' <= c && c <= '9' {
		return true
	}
	switch c {
	case '-', '.', '_', '~', '/', '$', '&', '+', ',', ';', '=', ':', '@':
		return true
	}
	return false
}
