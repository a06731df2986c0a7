package extract

import (
	"net"
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/net/publicsuffix"
	"golang.org/x/text/unicode/norm"
)

// Where a reading word is looked for.
const (
	WhereBoth    = "text or address"
	WhereText    = "text only"
	WhereAddress = "address only"
)

// ReadingWord is one word that makes a link worth reading (design §2.1).
type ReadingWord struct {
	Word  string
	Where string // WhereBoth, WhereText or WhereAddress
	Note  string
}

// readingWords is the one list of reading words in the code. Words marked
// asWord match only as a whole word (not inside "database" or "rapid");
// the others match as case-insensitive substrings, so compounds such as
// "Brukervilkår" or "Personvernerklæring" match.
var readingWords = []struct {
	ReadingWord
	asWord bool
}{
	{ReadingWord{"terms", WhereBoth, "also in “Terms of Use”, “/terms-and-conditions”"}, false},
	{ReadingWord{"legal", WhereBoth, ""}, false},
	{ReadingWord{"conditions", WhereBoth, ""}, false},
	{ReadingWord{"privacy", WhereBoth, ""}, false},
	{ReadingWord{"developer", WhereBoth, "also “developers”"}, false},
	{ReadingWord{"licence", WhereBoth, "also “licences”"}, false},
	{ReadingWord{"license", WhereBoth, "also “licenses”, as in creativecommons.org/licenses/"}, false},
	{ReadingWord{"vilkår", WhereBoth, "Norwegian “terms”, also inside compounds such as “Brukervilkår”; in addresses also percent-encoded (vilk%C3%A5r)"}, false},
	{ReadingWord{"vilkar", WhereAddress, "how “vilkår” is often spelled in addresses"}, false},
	{ReadingWord{"vilkaar", WhereAddress, "how “vilkår” is often spelled in addresses"}, false},
	{ReadingWord{"betingelser", WhereBoth, "Norwegian “conditions”"}, false},
	{ReadingWord{"lisens", WhereBoth, "Norwegian “licence”"}, false},
	{ReadingWord{"personvern", WhereBoth, "Norwegian “privacy”, also inside “Personvernerklæring”"}, false},
	{ReadingWord{"API", WhereText, "as a word (“API”, “APIs”, “API-dokumentasjon”), not inside “rapid”"}, true},
	{ReadingWord{"data", WhereText, "as a word (“Åpne data”, “Open Data”), not inside “database” or “update”"}, true},
}

// readingWordsLower are the reading words lower-cased, as they are
// matched: MatchReadingWord runs for every link of a footer.
var readingWordsLower = func() []string {
	out := make([]string, len(readingWords))
	for i, w := range readingWords {
		out[i] = strings.ToLower(w.Word)
	}
	return out
}()

// nfc is norm.NFC.String(s), without reading s twice when it is NFC as
// it stands (see Normalize).
func nfc(s string) string {
	if isASCII(s) || belowCombining(s) {
		return s
	}
	return norm.NFC.String(s)
}

// ReadingWords returns the reading words in the order they are tried; the
// about page prints them from here.
func ReadingWords() []ReadingWord {
	out := make([]ReadingWord, len(readingWords))
	for i, w := range readingWords {
		out[i] = w.ReadingWord
	}
	return out
}

// MatchReadingWord reports whether a link is one we read, and which reading
// word matched. The link text is matched case-insensitively (whole words for
// "API" and "data", substrings for the rest). The address is matched on its
// path, query and fragment, and the host labels in front of the registrable
// domain (so personvern.aller.no matches, but every page on a site whose own
// name contains "legal" does not), both as written and percent-decoded.
func MatchReadingWord(l Link) (word string, ok bool) {
	text := strings.ToLower(nfc(stripFormatChars(l.Text)))
	addr := addressForMatching(l.URL)
	if l.Fragment != "" {
		addr += " #" + strings.ToLower(nfc(l.Fragment))
	}
	for i, w := range readingWords {
		lw := readingWordsLower[i]
		if w.Where != WhereAddress && text != "" {
			if w.asWord && containsWord(text, lw) {
				return w.Word, true
			}
			if !w.asWord && strings.Contains(text, lw) {
				return w.Word, true
			}
		}
		if w.Where != WhereText && addr != "" && strings.Contains(addr, lw) {
			return w.Word, true
		}
	}
	return "", false
}

// stripFormatChars removes invisible format characters (soft hyphen,
// zero-width space and joiners, word joiner): "Vil\u00ADkår" reads as
// "Vilkår". Only reading-word matching does this; quotes are verified
// against the text exactly.
func stripFormatChars(s string) string {
	if isASCII(s) {
		return s // the format characters start at U+00AD
	}
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
}

// addressForMatching returns the lower-case parts of an address we look for
// reading words in, escaped and unescaped, separated by spaces.
func addressForMatching(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return strings.ToLower(raw)
	}
	var parts []string
	if sub := subdomainPart(u.Hostname()); sub != "" {
		parts = append(parts, sub)
	}
	rest := u.EscapedPath()
	if u.RawQuery != "" {
		rest += "?" + u.RawQuery
	}
	parts = append(parts, rest)
	if un, err := url.PathUnescape(rest); err == nil && un != rest {
		parts = append(parts, nfc(un))
	}
	if u.Fragment != "" {
		parts = append(parts, "#"+nfc(u.Fragment))
	}
	return strings.ToLower(strings.Join(parts, " "))
}

// subdomainPart returns the labels of host before its registrable domain
// ("personvern" for personvern.aller.no, "" for aller.no).
func subdomainPart(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" || net.ParseIP(host) != nil {
		return ""
	}
	reg, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil || reg == host {
		return ""
	}
	return strings.TrimSuffix(host, "."+reg)
}

// containsWord reports whether w occurs in s with no letter or digit glued
// to either side. The plural "apis" counts as the word "api".
func containsWord(s, w string) bool {
	for from := 0; from <= len(s)-len(w); {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(w)
		if w == "api" && strings.HasPrefix(s[end:], "s") {
			end++
		}
		if onBoundary(s, i, end) {
			return true
		}
		from = i + 1
	}
	return false
}

// NotADocument reports addresses we never read even when their words match
// (design §2: listings, posts, profiles, search results, data downloads,
// forms, logins, carts, images, scripts, media), with a short reason. It
// looks only at the address, in this order:
//
//   - scheme: mailto:, tel:, sms: and every other non-http(s) scheme are not
//     pages; Cloudflare's /cdn-cgi/l/email-protection stands for an e-mail.
//   - file extension of the last path segment: images (.png, .jpg, .svg …),
//     scripts and styles (.js, .css), media (.mp4, .mp3 …), fonts, data
//     downloads (.csv, .json, .zip, .xlsx, .parquet …), software (.exe,
//     .apk …), feeds and sitemaps (.xml, .rss, .atom). Documents (.html,
//     .pdf, .txt, .docx …) pass: a terms page as a .docx is a `format`
//     gap, which is worth showing. JSON well-known files are fetched by the
//     crawler from its fixed list, never through this check.
//   - path segments, compared whole and without extension (so "login.php"
//     is "login" but "blogger" is not "blog"): search, login/account, cart/
//     checkout, forms, profiles (/user/, /author/, /@name), listings (/tag/,
//     /category/, /archive/, /sitemap, /feed, /page/2) and posts (a /blog/
//     segment, or a date in the path such as /2024/05/).
//   - query: a search parameter (q, query, search, s) means search results;
//     a page number (page, paged) means a listing. (WordPress's ?p=123 is
//     left alone: it is as often a page as a post.)
//
// A path prefix such as /news/ or /artikler/ is deliberately not a post:
// real sites publish their terms there (dagbladet.no keeps its
// subscription terms under /nyheter/, tine.no its privacy notice under
// /kontakt/artikler/).
func NotADocument(u *url.URL) (reason string, skip bool) {
	if u == nil {
		return "no address", true
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "mailto", "tel", "sms", "callto", "fax":
		return "e-mail or phone link", true
	case "javascript":
		return "script link", true
	default:
		return "not a web address", true
	}
	segs := pathSegments(u)
	if len(segs) >= 3 && segs[0] == "cdn-cgi" && segs[1] == "l" && segs[2] == "email-protection" {
		return "e-mail or phone link", true
	}
	if len(segs) > 0 {
		last := segs[len(segs)-1]
		if dot := strings.LastIndexByte(last, '.'); dot >= 0 {
			if r, ok := extensionReasons[last[dot+1:]]; ok {
				return r, true
			}
		}
	}
	for i, seg := range segs {
		base := seg
		if dot := strings.IndexByte(base, '.'); dot > 0 {
			base = base[:dot]
		}
		if r, ok := segmentReasons[base]; ok {
			return r, true
		}
		if strings.HasPrefix(seg, "@") && len(seg) > 1 {
			return "profile", true
		}
		if base == "page" && i+1 < len(segs) && isDigits(segs[i+1]) {
			return "listing", true
		}
		if isYear(seg) && i+1 < len(segs) && isMonth(segs[i+1]) {
			return "post", true
		}
	}
	q := u.Query()
	for _, k := range []string{"q", "query", "search", "s", "searchterm", "sok"} {
		if q.Get(k) != "" {
			return "search", true
		}
	}
	for _, k := range []string{"page", "paged"} {
		if v := q.Get(k); v != "" && isDigits(v) {
			return "listing", true
		}
	}
	return "", false
}

// pathSegments returns the non-empty, lower-case, unescaped path segments.
func pathSegments(u *url.URL) []string {
	var segs []string
	for _, s := range strings.Split(u.EscapedPath(), "/") {
		if s == "" {
			continue
		}
		if un, err := url.PathUnescape(s); err == nil {
			s = un
		}
		segs = append(segs, strings.ToLower(s))
	}
	return segs
}

var extensionReasons = func() map[string]string {
	m := map[string]string{}
	add := func(reason string, exts ...string) {
		for _, e := range exts {
			m[e] = reason
		}
	}
	add("image", "png", "jpg", "jpeg", "gif", "webp", "svg", "svgz", "ico", "bmp", "tif", "tiff", "avif", "heic", "heif", "jxl")
	add("script or style", "js", "mjs", "cjs", "css", "map", "wasm")
	add("media", "mp3", "mp4", "m4a", "m4v", "wav", "ogg", "oga", "ogv", "webm", "mov", "avi", "mkv", "flac", "aac", "opus", "m3u8", "mpd")
	add("font", "woff", "woff2", "ttf", "otf", "eot")
	add("data download", "csv", "tsv", "json", "jsonl", "ndjson", "geojson", "zip", "gz", "tgz", "bz2", "xz", "7z", "rar", "tar",
		"xls", "xlsx", "ods", "parquet", "sqlite", "db", "sql", "rdf", "ttl", "nt", "jsonld", "shp", "gpkg", "kml", "kmz", "gpx", "nc", "h5")
	add("software download", "exe", "msi", "dmg", "pkg", "apk", "ipa", "deb", "rpm", "iso", "bin", "appimage")
	add("feed or sitemap", "xml", "rss", "atom")
	return m
}()

var segmentReasons = func() map[string]string {
	m := map[string]string{}
	add := func(reason string, segs ...string) {
		for _, s := range segs {
			m[s] = reason
		}
	}
	add("search", "search", "sok", "søk", "sök", "soek")
	add("login or account", "login", "logon", "log-in", "signin", "sign-in", "logout", "signout", "sign-out",
		"register", "signup", "sign-up", "join", "account", "accounts", "my-account", "myaccount", "minside", "min-side",
		"logg-inn", "logginn", "password", "reset-password", "auth", "oauth", "oauth2", "sso", "wp-admin", "wp-login", "admin")
	add("cart or checkout", "cart", "basket", "checkout", "handlekurv", "kasse", "bag")
	add("form", "form", "forms", "skjema", "contact-form", "kontaktskjema", "subscribe", "unsubscribe", "newsletter-signup")
	add("profile", "user", "users", "profile", "profiles", "author", "authors", "member", "members", "people", "u")
	add("listing", "tag", "tags", "category", "categories", "archive", "archives", "arkiv", "sitemap", "feed", "feeds", "rss", "atom", "emne", "stikkord")
	add("post", "blog", "blogg", "blogs", "posts")
	add("data download", "download", "downloads", "nedlasting", "last-ned")
	add("share link", "share", "sharer", "intent")
	return m
}()

func isDigits(s string) bool {
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

func isYear(s string) bool {
	return len(s) == 4 && isDigits(s) && (s[:2] == "19" || s[:2] == "20")
}

func isMonth(s string) bool {
	return len(s) == 2 && isDigits(s) && s >= "01" && s <= "12"
}
