package crawl

import (
	"net/url"
	"strings"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/extract"
)

// A document available in several languages is read once (design §2): a
// footer or hop link is not planned when its address is an hreflang
// alternate of a page already read, or when it differs from another
// planned link only by a language switch (a lang, locale or hl query
// parameter, or a leading /en/, /nb/, /no/ or /nn/ path segment). Of such
// language variants among one page's links, the one in the site's default
// language (the home page's lang) is read. The skipped addresses are
// listed on the address that was read (Address.Alternates), never as gaps:
// not reading a translation of a document we read is not something we
// failed to read.

// langParams are the query parameters that switch a page's language.
var langParams = []string{"lang", "locale", "hl"}

// langSegments are the leading path segments that switch a page's language.
var langSegments = map[string]bool{"en": true, "nb": true, "no": true, "nn": true}

// languageSwitch returns the address without its language switch (the key
// shared by the language variants of one document) and the language it
// names ("" when none).
func languageSwitch(raw string) (key, lang string) {
	u, err := url.Parse(planKey(raw))
	if err != nil {
		return planKey(raw), ""
	}
	q := u.Query()
	for _, p := range langParams {
		if v := q.Get(p); v != "" && lang == "" {
			lang = v
		}
		q.Del(p)
	}
	u.RawQuery = q.Encode()
	seg, rest, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if langSegments[strings.ToLower(seg)] {
		if lang == "" {
			lang = seg
		}
		u.Path = "/" + rest
	}
	u.Host = strings.ToLower(u.Host)
	return u.String(), primaryLanguage(lang)
}

// primaryLanguage is the language subtag, lower-case, with Norwegian
// Bokmål's two names taken as one.
func primaryLanguage(tag string) string {
	p, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
	p, _, _ = strings.Cut(p, "_")
	if p == "no" {
		p = "nb"
	}
	return p
}

// languageVariants picks, among links that differ only by a language
// switch, the one to read: the first in the site's default language, else
// the first without a language switch, else the first. It returns the
// links not to read, each with the address read instead.
func (r *siteRun) languageVariants(links []extract.Link) map[string]string {
	groups := map[string][]extract.Link{}
	var order []string
	for _, l := range links {
		if _, ok := extract.MatchReadingWord(l); !ok {
			continue
		}
		k, _ := languageSwitch(l.URL)
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], l)
	}
	skip := map[string]string{}
	for _, k := range order {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		best := -1
		for i, l := range g {
			if _, lang := languageSwitch(l.URL); lang != "" && lang == r.homeLang {
				best = i
				break
			}
		}
		if best < 0 {
			for i, l := range g {
				if _, lang := languageSwitch(l.URL); lang == "" {
					best = i
					break
				}
			}
		}
		if best < 0 {
			best = 0
		}
		for i, l := range g {
			if i != best && planKey(l.URL) != planKey(g[best].URL) {
				skip[l.URL] = g[best].URL
			}
		}
	}
	return skip
}

// noteAlternates remembers the hreflang alternates of a page read at a.
func (r *siteRun) noteAlternates(a *evidence.Address, finalURL string, page *extract.Page) {
	for _, alt := range page.Alternates {
		k := planKey(alt.URL)
		if k == planKey(a.URL) || k == planKey(finalURL) {
			continue
		}
		if _, ok := r.alternates[k]; !ok {
			r.alternates[k] = a
		}
	}
}

// alternateOf returns the address already planned or read that raw is
// another language of: an hreflang alternate of a page read, or a planned
// footer or hop address that differs only by a language switch.
func (r *siteRun) alternateOf(raw string) *evidence.Address {
	if a := r.alternates[planKey(raw)]; a != nil {
		return a
	}
	k, _ := languageSwitch(raw)
	if a := r.variants[k]; a != nil && planKey(a.URL) != planKey(raw) {
		return a
	}
	return nil
}

// skipAlternate records on a that raw, the same document in another
// language, was not read.
func skipAlternate(a *evidence.Address, raw string) {
	for _, have := range a.Alternates {
		if have == raw {
			return
		}
	}
	a.Alternates = append(a.Alternates, raw)
}

// addressFor returns the planned address of raw, if any.
func (r *siteRun) addressFor(raw string) *evidence.Address {
	k := planKey(raw)
	for _, a := range r.addrs {
		if planKey(a.URL) == k {
			return a
		}
	}
	return nil
}
