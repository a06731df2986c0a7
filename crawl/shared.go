package crawl

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/sites"
)

// A host reviewed for several sites of a batch (a publisher group's legal
// host, design §2) is one host: one clock (the pacer is the batch's), one
// robots.txt, and each of its addresses asked once per batch whichever
// sites plan it. The site whose run asks first stores the answer in its
// WARC; every other site that plans the address reads the same answer and
// its manifest points at that record (evidence.Exchange.StoredBy).

// sharedAnswers holds, for the batch, every answer of a shared host, by
// address and in the order asked: a site's n-th request for an address is
// the n-th answer, so a 429 and its one retry are shared as they happened.
type sharedAnswers struct {
	hosts map[string]bool // hosts reviewed for more than one site of the batch

	mu    sync.Mutex
	byURL map[string][]*sharedAnswer
}

// sharedAnswer is one request to a shared host and what came of it. Its
// fields are set by the site that asks, before ready is closed.
type sharedAnswer struct {
	ready chan struct{}
	site  string             // the site whose WARC holds the records
	at    time.Time          // when the request was made
	ex    *evidence.Exchange // where it is stored; nil when nothing was
	sent  bool               // a request went to the host
	ans   *answer
	err   error
}

func newSharedAnswers(hosts []string) *sharedAnswers {
	s := &sharedAnswers{hosts: map[string]bool{}, byURL: map[string][]*sharedAnswer{}}
	for _, h := range hosts {
		s.hosts[h] = true
	}
	return s
}

// turn returns the n-th answer for rawURL; first is true when the caller is
// the first to need it and must ask (then fill it and close ready).
func (s *sharedAnswers) turn(rawURL string, n int) (e *sharedAnswer, first bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	xs := s.byURL[rawURL]
	if n < len(xs) {
		return xs[n], false
	}
	e = &sharedAnswer{ready: make(chan struct{})}
	s.byURL[rawURL] = append(xs, e)
	return e, true
}

// add puts an answer stored earlier in this batch (a site completed before
// a resume) in place, as if it had just been asked.
func (s *sharedAnswers) add(rawURL string, e *sharedAnswer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byURL[rawURL] = append(s.byURL[rawURL], e)
}

// exchange is the one way a site's run asks a host for an address: on a
// host no other site of the batch reviews, a request of its own (ask);
// on a shared host, the batch's one answer for this turn, asked by whichever
// site needs it first.
func (r *siteRun) exchange(ctx context.Context, a *evidence.Address, rawURL, host string, always bool) (*answer, error) {
	if r.c.shared == nil || !r.c.shared.hosts[host] {
		return r.ask(ctx, a, rawURL, host, always)
	}
	for {
		n := r.turns[rawURL]
		r.turns[rawURL]++
		e, first := r.c.shared.turn(rawURL, n)
		if first {
			return r.askFor(ctx, e, a, rawURL, host, always)
		}
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if !e.sent && e.ex == nil {
			// The site that took this turn sent nothing and stored nothing
			// (its evidence could not be written, or it was stopped): the
			// host was not asked, so the next turn is ours.
			continue
		}
		return r.borrow(a, e, always)
	}
}

// askFor asks the host on the batch's behalf (the turn e is this site's)
// and leaves the answer in e for the other sites.
func (r *siteRun) askFor(ctx context.Context, e *sharedAnswer, a *evidence.Address, rawURL, host string, always bool) (*answer, error) {
	defer close(e.ready)
	e.site, e.at = r.site.Host, time.Now().UTC()
	before, sent := len(a.Exchanges), r.requests
	e.ans, e.err = r.ask(ctx, a, rawURL, host, always)
	e.sent = r.requests > sent
	if len(a.Exchanges) > before {
		x := a.Exchanges[len(a.Exchanges)-1]
		e.ex = &x
	}
	return e.ans, e.err
}

// borrow takes another site's answer as this site's: its manifest points
// at the record where it is stored, and the answer is read as this site's
// own request would have been read.
func (r *siteRun) borrow(a *evidence.Address, e *sharedAnswer, always bool) (*answer, error) {
	if e.ex != nil {
		x := *e.ex
		if x.StoredBy == "" {
			x.StoredBy = e.site
		}
		if len(a.Exchanges) == 0 {
			a.FetchedAt = e.at // read when the one request was made, not now
		}
		a.Exchanges = append(a.Exchanges, x)
		r.donors[x.StoredBy] = true
		r.shared++
	}
	if e.err != nil {
		return nil, e.err
	}
	if e.ans == nil {
		return nil, fmt.Errorf("%s: no answer", e.site)
	}
	x := e.ans
	return r.read(x.url, x.status, x.header, x.raw, x.rawTruncated, always, x.received), nil
}

// siteEnd tells the other sites of a site's group (the sites sharing a
// host with it, see runGroups) how its evidence ended: first whether its
// run ended with every record written (ran), then whether its WARC is
// complete under its final name (sealed). A site seals its WARC only when
// every site of its group ran well, and writes its manifest only when they
// have all sealed, so a manifest never names a WARC that is not there.
// Sealing waits for no one, so sites that point at each other's records
// never wait on each other.
type siteEnd struct {
	ran, sealed     chan struct{}
	ranOK, sealedOK bool
	once            [2]sync.Once
}

func newSiteEnd() *siteEnd {
	return &siteEnd{ran: make(chan struct{}), sealed: make(chan struct{})}
}

func (e *siteEnd) setRan(ok bool) {
	e.once[0].Do(func() { e.ranOK = ok; close(e.ran) })
}

func (e *siteEnd) setSealed(ok bool) {
	e.once[1].Do(func() { e.sealedOK = ok; close(e.sealed) })
}

// fail ends whatever was not ended yet as failed.
func (e *siteEnd) fail() {
	e.setRan(false)
	e.setSealed(false)
}

// runGroups splits the sites of this run into the groups of sites that
// share a host (sites.List.Groups), in the order of their first site.
func (c *Crawler) runGroups(selected []*sites.Site) [][]*sites.Site {
	keys := c.list.Groups()
	index := map[string]int{}
	var groups [][]*sites.Site
	for _, s := range selected {
		k := keys[s.Host]
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], s)
	}
	c.peers = map[string][]string{}
	for _, g := range groups {
		for _, s := range g {
			for _, o := range g {
				if o != s {
					c.peers[s.Host] = append(c.peers[s.Host], o.Host)
				}
			}
		}
	}
	return groups
}

// waitPeers waits until every other site of the site's group in this run
// has passed a stage (ran, or sealed) and returns the first that did not
// pass it well, or "". The whole group is waited for, not only the sites
// whose records this site points at: a site that points at none may be
// pointed at, and if any site of the group fails its run, none of the
// group seals, so a resume finds every one of them interrupted and reads
// them all again from what they stored.
func (c *Crawler) waitPeers(site string, sealed bool) string {
	for _, o := range c.peers[site] {
		e := c.ends[o]
		if sealed {
			<-e.sealed
			if !e.sealedOK {
				return o
			}
		} else {
			<-e.ran
			if !e.ranOK {
				return o
			}
		}
	}
	return ""
}

// resumeShared prepares a resumed batch for its shared hosts. Every
// interrupted site's .open file is set aside before any site starts again,
// so a site can read the interrupted attempts of the sites it shares a host
// with (resumingWith) without meeting a file being written. And the answers
// of shared hosts that sites completed before the interruption stored are
// put in place, so a site still to crawl points at them instead of asking
// again: each address is asked once per batch, interruptions or not.
func (c *Crawler) resumeShared(dir string, todo []*sites.Site, complete []SiteResult) error {
	for _, s := range todo {
		if err := evidence.SetAside(dir, s.Host); err != nil {
			return err
		}
	}
	seen := map[string]bool{} // records already in place, by file and offset
	for _, done := range complete {
		es, err := evidence.OpenSite(dir, done.Site)
		if err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		err = c.seedSharedFrom(es, done.Site, seen)
		es.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// seedSharedFrom makes the answers on shared hosts that site's complete
// evidence (es) holds known to this run; seen holds the records already
// known, by file and offset.
func (c *Crawler) seedSharedFrom(es *evidence.Site, site string, seen map[string]bool) error {
	for _, a := range es.Manifest.Addresses {
		for _, x := range a.Exchanges {
			host := hostOf(x.URL)
			if !c.shared.hosts[host] {
				continue
			}
			if x.StoredBy == "" {
				x.StoredBy = site
			}
			key := fmt.Sprintf("%s %d", x.StoredBy, x.RequestOffset)
			if seen[key] {
				continue
			}
			seen[key] = true
			e := &sharedAnswer{ready: make(chan struct{}), site: x.StoredBy, at: a.FetchedAt, ex: &x}
			close(e.ready)
			if x.HasResponse() {
				resp, err := es.Response(x)
				if err != nil {
					return fmt.Errorf("resume: %w", err)
				}
				e.ans = &answer{url: x.URL, status: resp.Status, header: resp.Header, raw: resp.Body, rawTruncated: resp.Truncated, received: resp.Date}
			} else {
				e.err = fmt.Errorf("%s: no answer when %s asked earlier in this batch (%s)", x.URL, x.StoredBy, a.Detail)
			}
			c.shared.add(x.URL, e)
			// The host's clock starts no earlier than that site's end.
			c.pacer.seed(host, es.Manifest.Finished, time.Time{})
		}
	}
	return nil
}

// resumingWith lists s and the sites of its group (those sharing a host
// with it, directly or through others) that this run resumes too.
func (c *Crawler) resumingWith(s *sites.Site) []string {
	var out []string
	for _, o := range c.list.GroupOf(s.Host) {
		if c.ends[o.Host] != nil {
			out = append(out, o.Host)
		}
	}
	if len(out) == 0 {
		out = []string{s.Host}
	}
	return out
}
