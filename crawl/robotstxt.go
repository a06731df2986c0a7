package crawl

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/robots"
)

// hostState is what the run knows of one reviewed host: its robots.txt as
// applied, and whether it has stopped answering.
type hostState struct {
	robotsURL string
	status    int
	outcome   robots.Outcome
	reason    string // a §2.4 reason when the host is not read at all
	detail    string
	file      *robots.File // nil unless outcome is rules
	delay     float64      // Crawl-delay asked of us, seconds
}

func (h *hostState) record(host string) evidence.HostRobots {
	return evidence.HostRobots{
		Host: host, URL: h.robotsURL, Status: h.status, Outcome: string(h.outcome),
		Reason: h.reason, Detail: h.detail, CrawlDelay: h.delay,
	}
}

func sortHosts(hs []evidence.HostRobots) {
	sort.Slice(hs, func(i, j int) bool { return hs[i].Host < hs[j].Host })
}

// robotsFor returns the state of the host of page, fetching its robots.txt
// (same scheme and authority as page) first when this is the first time the
// run meets the host (design §2 item 1).
func (r *siteRun) robotsFor(ctx context.Context, page *url.URL) *hostState {
	host := strings.ToLower(page.Hostname())
	if hs, ok := r.hosts[host]; ok {
		return hs
	}
	u := url.URL{Scheme: page.Scheme, Host: strings.ToLower(page.Host), Path: "/robots.txt"}
	hs := &hostState{robotsURL: u.String()}
	r.hosts[host] = hs
	a := r.plan(evidence.Address{URL: hs.robotsURL, FoundVia: "robots"})
	if a == nil { // planned already as an approved address: read it again as robots.txt
		a = &evidence.Address{URL: hs.robotsURL, FoundVia: "robots"}
		r.addrs = append(r.addrs, a)
	}
	got := r.fetchRobots(ctx, a)
	if got != nil {
		hs.status = got.status
	}
	if got == nil {
		hs.outcome, hs.reason = robots.DisallowAll, evidence.ReasonRobotsUnavailable
		hs.detail = "robots.txt: " + a.Detail
		if a.Reason == evidence.ReasonNoAnswer {
			hs.detail = "robots.txt did not answer: " + a.Detail
		}
		return hs
	}
	if got.challenge != "" {
		// A bot challenge in place of robots.txt: whatever its status,
		// everything on the host is disallowed (design §2.3).
		hs.outcome, hs.reason = robots.Challenged()
		r.gap(a, evidence.ReasonBotChallenge, fmt.Sprintf("HTTP %d: %s", got.status, got.challenge))
		hs.detail = fmt.Sprintf("robots.txt answered with a bot challenge (HTTP %d: %s): everything on the host is disallowed", got.status, got.challenge)
		return hs
	}
	outcome, reason := robots.FromStatus(got.status)
	hs.outcome, hs.reason = outcome, reason
	if outcome == robots.Rules && got.encodingErr != "" && len(got.body) == 0 {
		// A file we cannot decode is not "no rules": when in doubt, we do not fetch.
		hs.outcome, hs.reason = robots.DisallowAll, evidence.ReasonRobotsUnavailable
		r.gap(a, evidence.ReasonRobotsUnavailable, "robots.txt "+got.encodingErr)
		hs.detail = "robots.txt could not be read (" + got.encodingErr + "): everything on the host is disallowed"
		return hs
	}
	switch outcome {
	case robots.Rules:
		hs.file = robots.Parse(got.body)
		a.Outcome = evidence.OutcomeRead
		if line, ok := hs.file.CrawlDelayLine(Token); ok {
			d := line.Seconds
			hs.delay = d
			// Compared as seconds before any conversion: a delay of more
			// nanoseconds than a Duration holds must not wrap around to a
			// short one.
			if d > r.maxCrawlDelay().Seconds() {
				hs.reason = evidence.ReasonCrawlDelay
				hs.detail = fmt.Sprintf("Crawl-delay %s s is longer than the %s we wait", strings.TrimSpace(line.Value), r.maxCrawlDelay())
			} else {
				r.c.pacer.raise(host, time.Duration(d*float64(time.Second)))
			}
		}
	case robots.None:
		a.Outcome = evidence.OutcomeNotPublished
	default:
		r.gap(a, evidence.ReasonRobotsUnavailable, fmt.Sprintf("HTTP %d", got.status))
		hs.detail = fmt.Sprintf("robots.txt answered HTTP %d: everything on the host is disallowed", got.status)
	}
	return hs
}

func (r *siteRun) maxCrawlDelay() time.Duration {
	if d := r.c.list.Global.MaxCrawlDelay; d > 0 {
		return d
	}
	return 300 * time.Second
}

// robotsNamed lists the addresses robots.txt of the site's hosts names
// (design §2 item 2): its Sitemap lines, its License lines (the RSL file,
// design §2.8), and the absolute URLs in its comments that are on the
// site's reviewed hosts (a comment naming another site's page is no address
// of this site, so it is not even a gap). They are fetched once and never
// followed. A Sitemap or License address off the reviewed hosts is planned
// all the same, so that fetch records it as an off-list gap and sends
// nothing: RSL's License line is a statement of the site, and a reader
// must see that we did not read the file it names, and why.
func (r *siteRun) robotsNamed() []string {
	var out []string
	for _, host := range r.site.Hosts {
		hs := r.hosts[host]
		if hs == nil || hs.file == nil {
			continue
		}
		for _, sm := range hs.file.Sitemaps() {
			u, err := url.Parse(sm)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
				continue
			}
			out = append(out, u.String())
		}
		for _, l := range hs.file.Licenses() {
			u, err := url.Parse(strings.TrimSpace(l.URL))
			if err != nil {
				continue
			}
			if base, err := url.Parse(hs.robotsURL); err == nil && !u.IsAbs() {
				u = base.ResolveReference(u) // RSL asks for an absolute URL; a path is read on robots.txt's host
			}
			if u.Scheme != "http" && u.Scheme != "https" {
				continue
			}
			u.Fragment = ""
			out = append(out, u.String())
		}
		for _, cu := range hs.file.CommentURLs() {
			u, err := url.Parse(strings.TrimRight(cu, ".,;:)]"))
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !r.site.Reviewed(strings.ToLower(u.Hostname())) {
				continue
			}
			u.Fragment = ""
			out = append(out, u.String())
		}
	}
	return out
}
