package crawl

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/sites"
)

// The crawler's tests judge it the way a site owner would: from the fixture
// server's own log of what was requested, and when, and from the manifest the
// crawl wrote (whose reasons and details signals.json copies unchanged).

// hostileList is testdata/hostile/sites.toml: one site per hostile host.
func hostileList(t testing.TB) *sites.List {
	t.Helper()
	l, err := sites.Load(filepath.Join("..", "testdata", "hostile", "sites.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func demoList(t testing.TB) *sites.List {
	t.Helper()
	l, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func listFrom(t testing.TB, toml string) *sites.List {
	t.Helper()
	l, err := sites.Parse("test.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func newWeb(t testing.TB, web fs.FS) *fixture.Server {
	t.Helper()
	if web == nil {
		web = crawlsignals.FixtureWeb()
	}
	s, err := fixture.New(web)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// crawlRun is one batch as the server and the evidence saw it.
type crawlRun struct {
	sum  *Summary
	err  error
	log  []fixture.Request
	mans map[string]evidence.Manifest // by site
}

// crawlMemory crawls through srv.Transport(): call it inside a synctest
// bubble, where the waits pass in virtual time. The client is the real
// guarded client with the policy timeouts, minus the sockets.
func crawlMemory(t *testing.T, srv *fixture.Server, list *sites.List, only []string, cfg Config) *crawlRun {
	t.Helper()
	cfg.Client = guard.NewClient(guard.Options{Transport: srv.Transport()})
	return crawlWith(t, srv, list, only, cfg)
}

func crawlWith(t *testing.T, srv *fixture.Server, list *sites.List, only []string, cfg Config) *crawlRun {
	t.Helper()
	return runCrawler(t, srv, newCrawler(t, list, only, cfg), only)
}

func newCrawler(t *testing.T, list *sites.List, only []string, cfg Config) *Crawler {
	t.Helper()
	if cfg.Batches == "" {
		cfg.Batches = t.TempDir()
	}
	c, err := New(cfg, list, only)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// runCrawler runs c's batch and reads back what the server and the
// evidence saw.
func runCrawler(t *testing.T, srv *fixture.Server, c *Crawler, only []string) *crawlRun {
	t.Helper()
	r := &crawlRun{mans: map[string]evidence.Manifest{}}
	r.sum, r.err = c.Run(t.Context(), only)
	if r.sum == nil {
		t.Fatalf("no summary: %v", r.err)
	}
	r.log = srv.SettledLog(5 * time.Second)
	for _, s := range r.sum.Sites {
		if s.Err != nil {
			continue
		}
		es, err := evidence.OpenSite(r.sum.Dir, s.Site)
		if err != nil {
			t.Fatalf("%s: evidence cannot be read back: %v", s.Site, err)
		}
		r.mans[s.Site] = *es.Manifest
	}
	return r
}

// requests returns the log's requests for host, in arrival order.
func (r *crawlRun) requests(host string) []fixture.Request {
	var out []fixture.Request
	for _, q := range r.log {
		if q.Host == host {
			out = append(out, q)
		}
	}
	return out
}

func (r *crawlRun) paths(host string) []string {
	var out []string
	for _, q := range r.requests(host) {
		out = append(out, q.Path)
	}
	return out
}

// planned lists the site's manifest addresses that are among urls, in the
// manifest's (the plan's) order.
func (r *crawlRun) planned(site string, urls []string) []string {
	var out []string
	for _, a := range r.mans[site].Addresses {
		if slices.Contains(urls, a.URL) {
			out = append(out, a.URL)
		}
	}
	return out
}

// address finds a planned address in the site's manifest.
func (r *crawlRun) address(t *testing.T, site, url string) evidence.Address {
	t.Helper()
	m, ok := r.mans[site]
	if !ok {
		t.Fatalf("no manifest for %s (sites: %+v)", site, r.sum.Sites)
	}
	for _, a := range m.Addresses {
		if a.URL == url {
			return a
		}
	}
	var urls []string
	for _, a := range m.Addresses {
		urls = append(urls, a.URL)
	}
	t.Fatalf("%s: %s was not planned; planned: %v", site, url, urls)
	return evidence.Address{}
}

// wantGap asserts the §2.4 reason of a planned address, and that its detail
// mentions each of the given words.
func (r *crawlRun) wantGap(t *testing.T, site, url, reason string, detail ...string) evidence.Address {
	t.Helper()
	a := r.address(t, site, url)
	if a.Outcome != evidence.OutcomeGap || a.Reason != reason {
		t.Errorf("%s: outcome %q reason %q (%s), want gap %q", url, a.Outcome, a.Reason, a.Detail, reason)
	}
	for _, d := range detail {
		if !strings.Contains(a.Detail, d) {
			t.Errorf("%s: detail %q does not say %q", url, a.Detail, d)
		}
	}
	return a
}

func (r *crawlRun) wantRead(t *testing.T, site, url string) evidence.Address {
	t.Helper()
	a := r.address(t, site, url)
	if a.Outcome != evidence.OutcomeRead {
		t.Errorf("%s: outcome %q reason %q (%s), want read", url, a.Outcome, a.Reason, a.Detail)
	}
	return a
}

// hostRobots is the manifest's robots.txt record of host.
func (r *crawlRun) hostRobots(t *testing.T, site, host string) evidence.HostRobots {
	t.Helper()
	for _, h := range r.mans[site].Hosts {
		if h.Host == host {
			return h
		}
	}
	t.Fatalf("%s: no robots.txt record for %s", site, host)
	return evidence.HostRobots{}
}

// gaps returns, for the host's requests in order, the time from the end of
// each to the start of the next.
func gaps(qs []fixture.Request) []time.Duration {
	var out []time.Duration
	for i := 1; i < len(qs); i++ {
		out = append(out, qs[i].Start.Sub(qs[i-1].End))
	}
	return out
}

// checkSerial asserts that the host's requests never overlapped and were at
// least floor apart (end to start).
func checkSerial(t *testing.T, host string, qs []fixture.Request, floor time.Duration) {
	t.Helper()
	for i, g := range gaps(qs) {
		if g < floor {
			t.Errorf("%s: %s started %s after %s ended; the least is %s", host, qs[i+1].Path, g, qs[i].Path, floor)
		}
	}
}

// wantPaths asserts exactly which paths the host got, in order.
func wantPaths(t *testing.T, r *crawlRun, host string, want ...string) {
	t.Helper()
	if got := r.paths(host); !slices.Equal(got, want) {
		t.Errorf("%s got requests %q, want %q", host, got, want)
	}
}

// wellKnown lists the fixed addresses of design §2 item 5 for a host.
// askedOrder is tail (a site's well-known files and approved addresses,
// in plan order) in the order the crawler asks for them: from the site's
// own place in the list, going round (see spread).
func askedOrder(site string, tail []string) []string {
	first := spread(site, len(tail))
	return append(slices.Clone(tail[first:]), tail[:first]...)
}

// wellKnownAsked is a site's well-known files in the order they are asked
// for, for a site with no approved address.
func wellKnownAsked(host string) []string {
	return askedOrder(host, wellKnown(host))
}

func wellKnown(host string) []string {
	var out []string
	for _, p := range []string{"/.well-known/security.txt", "/.well-known/tdmrep.json", "/.well-known/api-catalog", "/.well-known/gpc.json", "/llms.txt"} {
		out = append(out, "https://"+host+p)
	}
	return out
}
