package crawl

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/policy"
)

// Redirect and retry limits of design §2.2.
const (
	MaxRedirects  = policy.MaxRedirects
	MaxRetryWait  = policy.MaxRetryWait
	NoHeaderRetry = policy.NoHeaderRetry
	stopAfter     = policy.StopAfter
)

// fetched is a final 2xx answer of a content type we read.
type fetched struct {
	addr        *evidence.Address
	status      int
	body        []byte // decoded
	contentType string
	html        *extract.Page // set for HTML
}

// fetch reads one planned page under every rule of design §2.2 and records
// what became of it in a. It returns the page when it was read.
func (r *siteRun) fetch(ctx context.Context, a *evidence.Address) *fetched {
	ans := r.follow(ctx, a, true)
	if ans == nil {
		return nil
	}
	a.Status, a.FinalURL, a.ContentType = ans.status, ans.url, ans.contentType
	if ans.challenge != "" {
		// Kept as evidence of the block, never read as content.
		r.gap(a, evidence.ReasonBotChallenge, fmt.Sprintf("HTTP %d: %s", ans.status, ans.challenge))
		return nil
	}
	switch s := ans.status; {
	case s >= 200 && s < 300:
		kind := extract.Kind(ans.contentType)
		switch {
		case kind == "":
			r.gap(a, evidence.ReasonFormat, "content type "+orNone(ans.contentType)+" (decided from the headers; the body was not read)")
			return nil
		case ans.tooLarge:
			r.gap(a, evidence.ReasonTooLarge, fmt.Sprintf("more than %d MB (reading stopped at the cap)", MaxBody>>20))
			return nil
		case ans.encodingErr != "":
			r.gap(a, evidence.ReasonFormat, ans.encodingErr)
			return nil
		}
		a.Outcome = evidence.OutcomeRead
		f := &fetched{addr: a, status: s, body: ans.body, contentType: ans.contentType}
		saved := evidence.SavedText{URL: a.URL, FinalURL: ans.url, ContentType: ans.contentType}
		switch kind {
		case "text":
			saved.Text, saved.Charset, saved.CharsetRule = extract.PlainText(ans.body, ans.contentType)
		case "pdf":
			if r.c.cfg.PDFText == nil {
				saved.Problem = "PDF text is taken at build time"
				break
			}
			r.pdfs.read(a, saved, ans.body, func(body []byte) (string, error) { return r.c.cfg.PDFText(r.dir, body) })
			return f
		}
		if kind == "html" {
			base, _ := url.Parse(ans.url)
			page, err := extract.HTML(ans.body, ans.contentType, base)
			if err != nil {
				r.gap(a, evidence.ReasonFormat, "HTML could not be parsed: "+err.Error())
				return nil
			}
			f.html = page
			saved.Text, saved.Charset, saved.CharsetRule = page.Text, page.Charset, page.CharsetRule
			r.noteAlternates(a, ans.url, page)
			if page.AppShell && a.FoundVia != "home" {
				r.gap(a, evidence.ReasonNeedsJavaScript, "no readable text without JavaScript")
				return nil
			}
		}
		r.saveText(a, saved)
		return f
	case s == 404 || s == 410:
		if a.FoundVia == "well-known" || a.FoundVia == "llms" {
			a.Outcome = evidence.OutcomeNotPublished
			return nil
		}
		r.gap(a, evidence.ReasonNotFound, fmt.Sprintf("HTTP %d", s))
	case s == 429 || s == 503:
		r.gap(a, evidence.ReasonAskedToWait, fmt.Sprintf("still HTTP %d after the one retry, %s after the first answer", s, waitWords(ans)))
	case isRedirect(s):
		r.gap(a, evidence.ReasonServerError, fmt.Sprintf("HTTP %d without a usable Location", s))
	case s == 304:
		// We never ask conditionally (no If-Modified-Since, no If-None-Match).
		r.gap(a, evidence.ReasonServerError, "HTTP 304 (Not Modified) to a request that was not conditional: no page to read")
	case s >= 300 && s < 400:
		r.gap(a, evidence.ReasonServerError, fmt.Sprintf("HTTP %d, a 3xx status that is not a redirect: no page to read", s))
	case s >= 400 && s < 500:
		r.gap(a, evidence.ReasonRefused, fmt.Sprintf("HTTP %d", s))
	default:
		r.gap(a, evidence.ReasonServerError, fmt.Sprintf("HTTP %d", s))
	}
	return nil
}

// fetchRobots reads a robots.txt address: redirects are followed (on
// reviewed hosts), nothing is retried, and any final status is returned for
// the status rules of design §2.3. nil means no answer at all.
func (r *siteRun) fetchRobots(ctx context.Context, a *evidence.Address) *answer {
	ans := r.follow(ctx, a, false)
	if ans != nil {
		a.Status, a.FinalURL, a.ContentType = ans.status, ans.url, ans.contentType
	}
	return ans
}

// follow requests a's address and its redirects by hand, at most
// MaxRedirects of them. Each hop must be on a reviewed host and allowed by
// that host's robots.txt (fetched first, on that host's clock); each request
// is paced by its host's clock. For a page (isPage), a 429 or 503 is retried
// once when its wait is at most MaxRetryWait, and stops the host otherwise.
// For robots.txt (not isPage) the first hops on its own host are the
// robots.txt being fetched, so they are not checked against it, and nothing
// is retried. A bot challenge ends the chain: it is never retried or
// worked around. follow returns the final answer, or nil after recording a
// gap on a.
func (r *siteRun) follow(ctx context.Context, a *evidence.Address, isPage bool) *answer {
	a.FetchedAt = time.Now().UTC()
	cur := a.URL
	first, _ := url.Parse(a.URL)
	seen := map[string]bool{}
	retried := false
	for hop := 0; ; {
		u, err := url.Parse(cur)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			r.gap(a, evidence.ReasonFormat, "not an http(s) address: "+cur)
			return nil
		}
		host := strings.ToLower(u.Hostname())
		if !r.site.Reviewed(host) {
			if hop > 0 {
				r.gap(a, evidence.ReasonOffList, fmt.Sprintf("redirected to %s; %s is not a reviewed host of this site, so it was not contacted", cur, host))
			} else {
				r.gap(a, evidence.ReasonOffList, host+" is not a reviewed host of this site")
			}
			return nil
		}
		if blocked := r.c.stop[host]; blocked != "" {
			r.gap(a, evidence.ReasonAskedToStop, fmt.Sprintf("%s is a host of %s, which asked us to stop: no request is sent to it", host, blocked))
			return nil
		}
		if why := r.down[host]; why != "" {
			r.gap(a, evidence.ReasonStopped, why)
			return nil
		}
		// A robots.txt fetch does not wait for the robots.txt it is fetching:
		// hops on its own host, and a hop to another host's /robots.txt, go
		// as they are. Any other hop of it is checked like a page's.
		ownRobots := !isPage && (first != nil && strings.EqualFold(first.Hostname(), host) || u.Path == "/robots.txt")
		if !ownRobots {
			hs := r.robotsFor(ctx, u)
			if hs.reason != "" {
				r.gap(a, hs.reason, hs.detail)
				return nil
			}
			if hs.file != nil {
				if ok, line := hs.file.Allowed(Token, cur); !ok {
					r.gap(a, evidence.ReasonRobotsDisallowed, fmt.Sprintf("%s line %d disallows %s for %s", hs.robotsURL, line, u.RequestURI(), Token))
					return nil
				}
			}
			if why := r.down[host]; why != "" { // robots.txt itself may have stopped it
				r.gap(a, evidence.ReasonStopped, why)
				return nil
			}
		}
		ans, err := r.exchange(ctx, a, cur, host, !isPage)
		if err != nil {
			if errors.Is(err, errNotRecorded) {
				// An answer we cannot keep is not read: what it said could
				// not be shown with evidence. Not a failure of the host.
				r.gap(a, evidence.ReasonFormat, err.Error())
				return nil
			}
			if ctx.Err() != nil || errors.Is(err, errEvidence) || errors.Is(err, errLocal) {
				r.gap(a, evidence.ReasonNoAnswer, err.Error())
				return nil
			}
			r.failures[host]++
			if r.failures[host] >= stopAfter {
				r.down[host] = fmt.Sprintf("%s stopped answering (%d timeouts or connection failures in a row); not tried again in this run", host, stopAfter)
			}
			r.gap(a, evidence.ReasonNoAnswer, err.Error())
			return nil
		}
		r.failures[host] = 0
		if ans.challenge != "" {
			return ans
		}
		if loc := ans.location; loc != "" {
			seen[cur] = true
			next, err := u.Parse(loc)
			if err != nil {
				r.gap(a, evidence.ReasonServerError, "redirect to an address that cannot be read: "+loc)
				return nil
			}
			next.Fragment = ""
			nextURL := browserURL(next.String())
			if hop++; hop > MaxRedirects {
				r.gap(a, evidence.ReasonTooManyRedirects, fmt.Sprintf("more than %d redirects (the next would have been %s)", MaxRedirects, nextURL))
				return nil
			}
			if seen[nextURL] {
				r.gap(a, evidence.ReasonTooManyRedirects, "redirect loop back to "+nextURL)
				return nil
			}
			cur = nextURL
			continue
		}
		if isPage && (ans.status == 429 || ans.status == 503) {
			if wait := ans.wait(); wait > MaxRetryWait {
				// The pacer holds the host back for the wait anyway; no
				// request goes to it again in this run.
				r.down[host] = fmt.Sprintf("%s asked us to wait %s (HTTP %d), longer than the %s we wait; not tried again in this run", host, waitWords(ans), ans.status, MaxRetryWait)
				r.gap(a, evidence.ReasonAskedToWait, fmt.Sprintf("HTTP %d asked us to wait %s, longer than the %s we wait", ans.status, waitWords(ans), MaxRetryWait))
				return nil
			}
			if !retried {
				retried = true // the pacer already holds the host back for the wait
				continue
			}
		}
		return ans
	}
}

// waitWords says how long an answer asked us to wait, and how it said so.
func waitWords(ans *answer) string {
	if ans.retryAfter < 0 {
		return fmt.Sprintf("%s (no Retry-After: we wait %s)", NoHeaderRetry, NoHeaderRetry)
	}
	if ans.retryAfter == longestWait {
		return fmt.Sprintf("longer than we can count (Retry-After: %s)", ans.header.Get("Retry-After"))
	}
	return fmt.Sprintf("%s (Retry-After: %s)", ans.retryAfter, ans.header.Get("Retry-After"))
}

func orNone(s string) string {
	if s == "" {
		return "(none given)"
	}
	return s
}

// retryAfterFrom reads the Retry-After of an answer received at now: delta
// seconds, or an HTTP date. A date is measured from the answer's own Date
// header as well as from our clock, and the longer wait wins, so a clock
// that differs from the server's never makes us come early. It returns -1
// when the header is absent or unreadable.
func retryAfterFrom(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	d := retryAfter(v, now)
	if d < 0 {
		return d
	}
	if at, err := http.ParseTime(v); err == nil {
		if sent, err := http.ParseTime(h.Get("Date")); err == nil && at.Sub(sent) > d {
			d = at.Sub(sent)
		}
	}
	return d
}

// longestWait stands for a Retry-After of more seconds than a Duration
// holds: longer than any wait we honour, so the host is stopped. Reading
// such a value as a number would wrap it around to a short wait, or to none.
const longestWait = time.Duration(math.MaxInt64)

// retryAfter parses a Retry-After value: delta-seconds or an HTTP date.
// It returns -1 when the header is absent or unreadable, and longestWait
// for a number of seconds too large to hold.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return -1
	}
	if strings.Trim(v, "0123456789") == "" {
		// delta-seconds = 1*DIGIT: any length, leading zeros allowed.
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil || secs > int64(longestWait/time.Second) {
			return longestWait
		}
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			// HTTP dates have whole seconds: round up so we never come early.
			if d%time.Second != 0 && d < longestWait-time.Second {
				d = d.Truncate(time.Second) + time.Second
			}
			return d
		}
		return 0
	}
	return -1
}
