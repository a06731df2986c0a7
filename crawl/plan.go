package crawl

import (
	"net/url"
	"strings"

	"github.com/crawlsignals/crawlsignals/policy"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Planned is an address a crawl asks for whatever the site's pages say.
type Planned struct {
	URL      string
	FoundVia string // as in the manifest: robots, home, well-known, llms or approved
}

// FirstRequests lists, in the order a crawl of s asks for them, the
// addresses it plans before it has read anything (crawl -plan prints them):
// robots.txt of the home host and the home page; then, once the home page's
// footer links and one hop from them are read (only the home page names
// those), the well-known files and the approved addresses, from the site's
// own place in their list going round (spread), with robots.txt of another
// host before the first address on it. It follows siteRun.run and sends
// nothing (TestFirstRequestsAreWhatIsAsked holds the two together).
// Duplicates are dropped as the crawl drops them; the limit of addresses
// per site is not applied, since footer links count against it first. A
// blocked site plans nothing.
func FirstRequests(s *sites.Site) []Planned {
	base, err := url.Parse(s.URL)
	if s.Blocked || err != nil {
		return nil
	}
	var out []Planned
	planned, robotsOf := map[string]bool{}, map[string]bool{}
	plan := func(raw, via string) (Planned, bool) {
		raw = browserURL(raw)
		if planned[planKey(raw)] {
			return Planned{}, false
		}
		planned[planKey(raw)] = true
		return Planned{URL: raw, FoundVia: via}, true
	}
	// robots is siteRun.robotsFor as far as order goes: robots.txt of a
	// host before any other request to it, once per host.
	robots := func(u *url.URL) {
		host := strings.ToLower(u.Hostname())
		if robotsOf[host] {
			return
		}
		robotsOf[host] = true
		r := url.URL{Scheme: u.Scheme, Host: strings.ToLower(u.Host), Path: "/robots.txt"}
		raw := browserURL(r.String())
		planned[planKey(raw)] = true // an approved address alike is asked as robots.txt
		out = append(out, Planned{URL: raw, FoundVia: "robots"})
	}
	ask := func(p Planned) {
		if u, err := url.Parse(p.URL); err == nil {
			robots(u)
		}
		out = append(out, p)
	}
	robots(base)
	if home, ok := plan(s.URL, "home"); ok {
		ask(home)
	}
	var tail []Planned
	for _, p := range policy.WellKnown {
		via := "well-known"
		if p == "/llms.txt" {
			via = "llms"
		}
		u := *base
		u.Path, u.RawQuery, u.Fragment = p, "", ""
		if a, ok := plan(u.String(), via); ok {
			tail = append(tail, a)
		}
	}
	for _, a := range s.Approved {
		if a, ok := plan(a, "approved"); ok {
			tail = append(tail, a)
		}
	}
	first := spread(s.Host, len(tail))
	for i := range tail {
		ask(tail[(first+i)%len(tail)])
	}
	return out
}
