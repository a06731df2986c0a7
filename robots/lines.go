package robots

import (
	"strings"
)

// maxLineBytes is how much of one line the matcher looks at (grobotstxt
// inherits the limit from Google's parser: eight times the longest URL
// browsers accept, less one byte). Longer lines are cut, and we cut them at
// the same place so that our reading and the matcher's agree.
const maxLineBytes = 2083*8 - 1

// splitLines cuts a robots.txt body into lines the way the matcher does: a
// leading byte order mark (or the start of one) is skipped, a line ends at
// CR, LF or CRLF, overlong lines are cut, and the text after the last line
// end is one more line, even when it is empty.
func splitLines(body string) []string {
	body = skipBOM(body)
	var out []string
	start := 0
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\n' && c != '\r' {
			continue
		}
		out = append(out, cutLine(body[start:i]))
		if c == '\r' && i+1 < len(body) && body[i+1] == '\n' {
			i++
		}
		start = i + 1
	}
	return append(out, cutLine(body[start:]))
}

func cutLine(s string) string {
	if len(s) > maxLineBytes {
		return s[:maxLineBytes]
	}
	return s
}

// skipBOM drops a UTF-8 byte order mark, or as much of one as the body
// starts with.
func skipBOM(body string) string {
	const bom = "\xEF\xBB\xBF"
	i := 0
	for i < len(bom) && i < len(body) && body[i] == bom[i] {
		i++
	}
	return body[i:]
}

// keyKind is what a line's key means.
type keyKind int

const (
	kindNone          keyKind = iota // blank, comment only, or no key: value shape
	kindUserAgent                    // user-agent (and the typos the matcher accepts)
	kindAllow                        // allow
	kindDisallow                     // disallow (and typos)
	kindSitemap                      // sitemap, site-map
	kindCrawlDelay                   // crawl-delay
	kindContentSignal                // content-signal
	kindContentUsage                 // content-usage
	kindLicense                      // license (RSL 1.0): a record outside groups, like sitemap
	kindOther                        // any other key: value line
)

// line is one robots.txt line as read.
type line struct {
	num     int    // 1-based
	text    string // the line as served (after cutting overlong lines)
	kind    keyKind
	key     string // the key as written, trimmed
	value   string // the value, trimmed, comment removed
	comment string // text after the first '#', as written; "" when none
	hasHash bool   // the line has a '#'
}

// readLine splits one line into key and value following the matcher's own
// rules, so that every line we count as a rule is one the matcher counts:
// a comment starts at the first '#'; the key ends at the first ':'; with no
// ':' at all, a single run of spaces or tabs between exactly two words also
// separates key from value (a mistake Google's parser forgives).
func readLine(num int, text string) line {
	l := line{num: num, text: text}
	body := text
	if i := strings.IndexByte(text, '#'); i >= 0 {
		l.hasHash = true
		l.comment = text[i+1:]
		body = text[:i]
	}
	body = strings.TrimSpace(body)
	if body == "" {
		return l
	}
	sep := strings.IndexByte(body, ':')
	if sep < 0 {
		ws := strings.IndexAny(body, " \t")
		if ws < 0 {
			return l
		}
		if strings.ContainsAny(strings.TrimSpace(body[ws:]), " \t") {
			return l // more than two words: not a directive
		}
		sep = ws
	}
	key := strings.TrimSpace(body[:sep])
	if key == "" {
		return l
	}
	l.key = key
	l.value = strings.TrimSpace(body[sep+1:])
	l.kind = classify(key)
	return l
}

// classify names a key. The first four kinds are matched by prefix, as the
// matcher matches them (so "Disallowed:" is a disallow line); the extras we
// read ourselves must be spelled out.
func classify(key string) keyKind {
	k := strings.ToLower(key)
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("user-agent", "useragent", "user agent"):
		return kindUserAgent
	case has("allow"):
		return kindAllow
	case has("disallow", "dissallow", "dissalow", "disalow", "diaslow", "diasllow", "disallaw"):
		return kindDisallow
	case has("sitemap", "site-map"):
		return kindSitemap
	}
	switch k {
	case "crawl-delay", "crawldelay", "crawl_delay":
		return kindCrawlDelay
	case "content-signal", "content-signals":
		return kindContentSignal
	case "content-usage":
		return kindContentUsage
	case "license", "licence":
		return kindLicense
	}
	return kindOther
}
