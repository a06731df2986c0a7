package crawl

import (
	"bytes"
	"html"
	"net/http"
	"strings"

	"github.com/crawlsignals/crawlsignals/extract"
)

// challengeScan is how much of a body the challenge markers are looked for
// in: challenge and block pages are small, and their markers come early.
const challengeScan = 128 << 10

// challengeOf reports whether an answer is an anti-bot challenge or block
// page (design §2.4 bot-challenge), whatever its status, 200 included, and
// says which marker showed it. body is the decoded body, or nil when it was
// not read (then only headers can tell).
//
// Only strong markers count: what the vendors put on their challenge and
// block pages, never what they put on the ordinary pages they protect. A
// page that merely loads a vendor's script (Cloudflare's challenge-platform
// script, DataDome's tags.js, PerimeterX's main.min.js, Imperva's resource
// script on a page with text, a DDoS-Guard or Sucuri Server header) is read
// as usual.
func challengeOf(status int, h http.Header, body []byte) (marker string, ok bool) {
	if strings.EqualFold(strings.TrimSpace(h.Get("Cf-Mitigated")), "challenge") {
		return "Cloudflare challenge (cf-mitigated: challenge)", true
	}
	if h.Get("X-Amzn-Waf-Action") != "" && (status == http.StatusAccepted || status == http.StatusMethodNotAllowed) {
		return "AWS WAF " + strings.ToLower(h.Get("X-Amzn-Waf-Action")) + " (x-amzn-waf-action, HTTP " + http.StatusText(status) + ")", true
	}
	if len(body) == 0 {
		return "", false
	}
	b := body[:min(len(body), challengeScan)]
	has := func(s string) bool { return bytes.Contains(b, []byte(s)) }
	// Each marker is looked for only in a page that has a part of it
	// that a scan finds fast: a scan for a string whose first byte is
	// rare in HTML ('_', a capital) takes a fifth to a tenth of one whose
	// first byte is common (on the real home pages of ../shared/realweb,
	// 3-8 µs against 20-50 µs in the first 128 KiB). One scan for
	// "captcha" rules out two vendors' markers, "Incapsula" and
	// "ddos-guard" two each; "_cf_chl_opt" and "_cloudproxy_js" go before
	// the markers they end. A page without any, nearly every page, costs
	// about half what nine scans did. A marker found is found as before.
	captcha, incapsula, ddosGuard := has("captcha"), has("Incapsula"), has("ddos-guard")
	title := pageTitle(b)
	switch {
	case title == "Just a moment..." || title == "Just a moment…":
		return `Cloudflare interstitial ("Just a moment...")`, true
	case has("_cf_chl_opt") && has("window._cf_chl_opt"):
		return "Cloudflare challenge script (_cf_chl_opt)", true
	case strings.HasPrefix(title, "Attention Required! | Cloudflare"):
		return "Cloudflare block page (Attention Required!)", true
	case captcha && has("captcha-delivery.com") && (has("var dd=") || has("/captcha/?initialCid") || has("ct.captcha-delivery.com/c.js\"")):
		// The block page's own script or frame, not a privacy notice naming the domain.
		return "DataDome block page (captcha-delivery.com)", true
	case captcha && has(`id="px-captcha"`) || has("_pxCaptcha"):
		return "PerimeterX block page (px-captcha)", true
	case strings.Contains(title, "Access Denied") && has("Reference #"):
		return `Akamai block page ("Access Denied", "Reference #")`, true
	case incapsula && has("Incapsula incident ID"):
		return "Imperva block page (Incapsula incident ID)", true
	case incapsula && has("_Incapsula_Resource") && almostNoText(b, h.Get("Content-Type")):
		return "Imperva challenge (_Incapsula_Resource on an empty page)", true
	case strings.Contains(title, "Sucuri WebSite Firewall"):
		return "Sucuri WebSite Firewall block page", true
	case has("_cloudproxy_js") && has("sucuri_cloudproxy_js"):
		return "Sucuri challenge (sucuri_cloudproxy_js)", true
	case title == "DDoS-Guard" || ddosGuard && (has("/.well-known/ddos-guard/check") || has(`src="https://check.ddos-guard.net`)):
		return "DDoS-Guard challenge", true
	}
	return "", false
}

// pageTitle returns the text of the first <title>, unescaped and trimmed.
// Tag names are ASCII, so the tags are found ignoring ASCII case, in the
// body as it is: no lower-cased copy (lower-casing all 128 KiB was most of
// the challenge check's time), and the title is cut at the offsets where
// it was found, whatever non-ASCII or broken bytes come before it.
func pageTitle(b []byte) string {
	i := indexTag(b, "<title")
	if i < 0 {
		return ""
	}
	gt := bytes.IndexByte(b[i:], '>')
	if gt < 0 {
		return ""
	}
	start := i + gt + 1
	end := indexTag(b[start:], "</title")
	if end < 0 || end > 1024 {
		return ""
	}
	return strings.Join(strings.Fields(html.UnescapeString(string(b[start:start+end]))), " ")
}

// indexTag is the offset of the first match of tag in b, ignoring ASCII
// case, or -1. tag is lower case and starts with '<', which has no case,
// so each '<' is a candidate.
func indexTag(b []byte, tag string) int {
	for i := 0; len(b)-i >= len(tag); {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			return -1
		}
		i += j
		if len(b)-i < len(tag) {
			return -1
		}
		if asciiEqualFold(b[i:i+len(tag)], tag) {
			return i
		}
		i++
	}
	return -1
}

// asciiEqualFold reports whether b equals the lower-case ASCII s when
// ASCII letters in b are lower-cased.
func asciiEqualFold(b []byte, s string) bool {
	for k := range len(s) {
		c := b[k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[k] {
			return false
		}
	}
	return true
}

// almostNoText reports whether an HTML page shows next to no text: a page
// that is only a vendor's script is a challenge, a page of text with that
// script is a page.
func almostNoText(b []byte, contentType string) bool {
	p, err := extract.HTML(b, contentType, nil)
	return err == nil && len([]rune(p.Text)) < 100
}
