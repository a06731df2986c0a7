package crawl

import (
	"fmt"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/evidence"
)

// RobotsMaxAge is how long a stored robots.txt answer may stand in for a
// new request (design §2.3: cached for at most 24 h). A recheck reuses the
// newest batch's answer when it is younger than this.
const RobotsMaxAge = 24 * time.Hour

// seed holds stored answers a site's run uses instead of asking the site
// again: the whole exchanges of an interrupted attempt at the same batch
// (resume), or the robots.txt answers of the newest batch when they are
// younger than RobotsMaxAge (recheck). Each stored answer is used once, in
// the order it was received, so a 429 and its retry are replayed as they
// happened. A reused answer is recorded again in the new WARC, with the
// time it was received and a metadata field naming the record it copies.
type seed struct {
	byURL map[string][]evidence.StoredExchange
	// clocks are the latest moments a request to each host may have ended,
	// so the host's clock starts there (the floor holds across runs).
	clocks map[string]time.Time
}

func newSeed() *seed {
	return &seed{byURL: map[string][]evidence.StoredExchange{}, clocks: map[string]time.Time{}}
}

func (s *seed) add(x evidence.StoredExchange) {
	u := x.Address()
	for _, have := range s.byURL[u] {
		// An answer reused once is in a later attempt's file too, with the
		// same time and body: keep one.
		if have.Time.Equal(x.Time) && sameStored(have, x) {
			return
		}
	}
	s.byURL[u] = append(s.byURL[u], x)
}

func sameStored(a, b evidence.StoredExchange) bool {
	if a.Response == nil || b.Response == nil {
		return a.Response == nil && b.Response == nil && a.Err == b.Err
	}
	return a.Response.Status == b.Response.Status && string(a.Response.Body) == string(b.Response.Body)
}

// merge adds o's answers and clocks to s (either may be nil).
func (s *seed) merge(o *seed) *seed {
	if s == nil {
		return o
	}
	if o != nil {
		for _, xs := range o.byURL {
			for _, x := range xs {
				s.add(x)
			}
		}
		for h, t := range o.clocks {
			s.clock(h, t)
		}
		s.sort()
	}
	return s
}

func (s *seed) clock(host string, t time.Time) {
	if t.After(s.clocks[host]) {
		s.clocks[host] = t
	}
}

func (s *seed) sort() {
	for _, xs := range s.byURL {
		sort.SliceStable(xs, func(i, j int) bool { return xs[i].Time.Before(xs[j].Time) })
	}
}

// take returns the next stored answer for rawURL, if any.
func (s *seed) take(rawURL string) (evidence.StoredExchange, bool) {
	if s == nil {
		return evidence.StoredExchange{}, false
	}
	xs := s.byURL[rawURL]
	if len(xs) == 0 {
		return evidence.StoredExchange{}, false
	}
	s.byURL[rawURL] = xs[1:]
	return xs[0], true
}

// resumeSeed reads what interrupted attempts at site left in batchDir
// (called after Create, which moved a stale .open file aside).
func (c *Crawler) resumeSeed(batchDir, site string) (*seed, error) {
	files, err := evidence.Unfinished(batchDir, site)
	if err != nil || len(files) == 0 {
		return nil, err
	}
	sd := newSeed()
	for _, f := range files {
		if strings.HasSuffix(f, ".open") {
			continue // this attempt's own file: Create moved the stale one aside
		}
		xs, rerr := evidence.ReadPartial(f)
		if rerr != nil {
			// What came before the damage is still whole; the rest is asked again.
			c.cfg.Logger.Warn("interrupted WARC is damaged; reusing what precedes the damage", "file", f, "err", rerr)
		}
		end, _ := evidence.ModTime(f)
		for _, x := range xs {
			sd.add(x)
			if h := hostOf(x.Address()); h != "" {
				sd.clock(h, end)
			}
		}
	}
	sd.sort()
	return sd, nil
}

// recheckSeed takes from the newest batch holding site (other than this
// batch) its robots.txt answers when younger than RobotsMaxAge, and the
// moment its requests to each host had all ended (the manifest's Finished).
func (c *Crawler) recheckSeed(site, thisBatch string, now time.Time) (*seed, error) {
	names, err := evidence.Batches(c.cfg.Batches)
	if err != nil {
		return nil, nil // no batches yet: nothing to reuse
	}
	for i := len(names) - 1; i >= 0; i-- {
		if names[i] == thisBatch {
			continue
		}
		dir := filepath.Join(c.cfg.Batches, names[i])
		es, err := evidence.OpenSite(dir, site)
		if err != nil {
			continue
		}
		defer es.Close() // the loop ends here, one way or another
		sd := newSeed()
		m := es.Manifest
		for _, h := range m.Hosts {
			sd.clock(h.Host, m.Finished)
		}
		for _, a := range m.Addresses {
			if a.FoundVia != "robots" || a.FetchedAt.IsZero() || now.Sub(a.FetchedAt) >= RobotsMaxAge {
				continue
			}
			for _, x := range a.Exchanges {
				if !x.HasResponse() {
					continue
				}
				resp, err := es.Response(x)
				if err != nil {
					return nil, fmt.Errorf("batch %s: %w", names[i], err)
				}
				sd.add(evidence.StoredExchange{File: es.WARCPath, Time: resp.Date, Response: resp})
			}
		}
		sd.sort()
		return sd, nil
	}
	return nil, nil
}

func hostOf(raw string) string {
	rest, ok := strings.CutPrefix(raw, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(raw, "http://"); !ok {
			return ""
		}
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.Contains(rest[i:], "]") {
		rest = rest[:i]
	}
	return strings.ToLower(rest)
}

// reuse records a stored answer in this run's WARC as the answer to a's
// request for rawURL, without contacting the host, and reads it as the
// network answer would have been read.
func (r *siteRun) reuse(a *evidence.Address, rawURL, host string, x evidence.StoredExchange, always bool) (*answer, error) {
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	if x.Request != nil {
		req.Header = x.Request.Clone()
	} else {
		req.Header.Set("User-Agent", UserAgent)
		req.Header.Set("From", r.contact())
	}
	req.Header.Del("Host")
	if x.Response == nil {
		return nil, r.reuseFailure(a, req, x)
	}
	sr := x.Response
	resp := &http.Response{StatusCode: sr.Status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: sr.Header}
	if resp.Header == nil {
		resp.Header = http.Header{}
	}
	raw := evidence.RawExchange{Time: x.Time, Request: req, Response: resp, Body: sr.Body, Truncated: sr.Truncated, IP: x.IP,
		Meta: map[string]string{
			"found-via": a.FoundVia, "address": a.URL,
			"reused-from": filepath.Base(x.File) + " " + sr.RecordID,
		}}
	if len(a.Exchanges) == 0 {
		a.FetchedAt = x.Time.UTC() // read when the stored answer was received, not now
	}
	if err := r.record(a, raw); err != nil {
		return nil, err
	}
	r.reused++
	ans := r.read(rawURL, sr.Status, resp.Header, sr.Body, sr.Truncated, always, x.Time)
	if sr.Status == 429 || sr.Status == 503 {
		// The wait it asked for counts from when it was received.
		r.c.pacer.seed(host, time.Time{}, x.Time.Add(ans.wait()))
	}
	return ans, nil
}

// reuseFailure records a stored request that got no answer again, with its
// error, and returns that error as the network gave it, so the run counts
// it as the interrupted run did: a host that had stopped answering stops
// again, and nothing is asked twice. A kept connection closed under the
// request (guard.ErrStale) is returned as such, so the request's second sending,
// stored after it, is reused too.
func (r *siteRun) reuseFailure(a *evidence.Address, req *http.Request, x evidence.StoredExchange) error {
	raw := evidence.RawExchange{Time: x.Time, Request: req, IP: x.IP, Err: x.Err,
		Meta: map[string]string{"found-via": a.FoundVia, "address": a.URL, "reused-from": filepath.Base(x.File)}}
	if len(a.Exchanges) == 0 {
		a.FetchedAt = x.Time.UTC()
	}
	if err := r.record(a, raw); err != nil {
		return err
	}
	r.reused++
	if strings.Contains(x.Err, guard.ErrStale.Error()) {
		return fmt.Errorf("%s: %w (stored: %s)", x.URL, guard.ErrStale, x.Err)
	}
	return fmt.Errorf("%s: %s (stored from the interrupted run)", x.URL, x.Err)
}
