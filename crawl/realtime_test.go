package crawl

import (
	"context"
	"io"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/sites"
)

// These tests crawl the fixture web on real loopback sockets, in real time,
// where sockets matter (hangs, resets, trickles, TLS and plain HTTP on one
// port) and to check once more, against the clock, what hostile_test.go
// checks in virtual time. Timeouts are lowered for them through
// guard.Options.Timeouts, which applies only to hosts mapped to loopback.

const rtDelay = 100 * time.Millisecond // the floor on loopback in these tests

// shortTimeouts keep the hostile hosts quick on loopback, and are far
// enough apart that a loaded machine cannot make one look like another:
// a fixture answer (even a generated 12 MiB page or gzip bomb, made when
// first asked for) gets its headers out well within Header; a trickle of a
// byte a second falls under MinBytes in the first Window; Request, the
// whole-request limit, is the outer bound that tells "given up by the
// header timeout or the transfer floor" from "given up by the request
// limit". Their sum with the floor is a few seconds a host.
var shortTimeouts = guard.Timeouts{Header: 3 * time.Second, Request: 10 * time.Second, Window: time.Second, MinBytes: 64}

// crawlLoopback serves srv over TLS (and plain HTTP on the same port), maps
// every host of the selected sites to it and crawls them with the real
// guarded client.
func crawlLoopback(t *testing.T, srv *fixture.Server, list *sites.List, only []string, opts guard.Options, cfg Config) (*crawlRun, *bodyCounter) {
	t.Helper()
	addr, roots, err := srv.StartTLS()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	selected, err := Select(list, only)
	if err != nil {
		t.Fatal(err)
	}
	resolve := map[string]string{}
	for _, s := range selected {
		for _, h := range s.Hosts {
			resolve[h] = addr
		}
	}
	opts.Resolve, opts.RootCAs = resolve, roots
	client := guard.NewClient(opts)
	cfg.Client, cfg.Resolve = client, resolve
	if cfg.MinDelay == 0 {
		cfg.MinDelay = rtDelay
	}
	c := newCrawler(t, list, only, cfg)
	// Counted around the guard once New has taken the client for the
	// guard's (it refuses a client whose transport is another).
	counter := &bodyCounter{rt: client.Transport, read: map[string]int64{}}
	client.Transport = counter
	return runCrawler(t, srv, c, only), counter
}

// bodyCounter counts, per URL, the body bytes the crawler read.
type bodyCounter struct {
	rt   http.RoundTripper
	mu   sync.Mutex
	read map[string]int64
}

func (c *bodyCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.rt.RoundTrip(req)
	if err == nil {
		resp.Body = &countedBody{ReadCloser: resp.Body, c: c, url: req.URL.String()}
	}
	return resp, err
}

func (c *bodyCounter) bytes(url string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.read[url]
}

type countedBody struct {
	io.ReadCloser
	c   *bodyCounter
	url string
}

func (b *countedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.c.mu.Lock()
	b.c.read[b.url] += int64(n)
	b.c.mu.Unlock()
	return n, err
}

func find(qs []fixture.Request, path string) []fixture.Request {
	var out []fixture.Request
	for _, q := range qs {
		if q.Path == path {
			out = append(out, q)
		}
	}
	return out
}

// Retry-After in real time: 3 s after the 429, and not before the 503's date.
func TestRealTimeRetryAfter(t *testing.T) {
	t.Parallel()
	r, _ := crawlLoopback(t, newWeb(t, nil), hostileList(t), []string{"wait429.test", "date503.test"}, guard.Options{}, Config{})
	w := find(r.requests("wait429.test"), "/vilkar")
	if len(w) != 2 || w[0].Status != 429 || w[1].Status != 200 {
		t.Fatalf("wait429.test/vilkar: %+v", w)
	}
	if g := w[1].Start.Sub(w[0].End); g < 3*time.Second || g > 3*time.Second+time.Second {
		t.Errorf("wait429.test: retry %s after the 429, want 3s (and never less)", g)
	}
	d := find(r.requests("date503.test"), "/vilkar")
	if len(d) != 2 || d[0].Status != 503 || d[1].Status != 200 {
		t.Fatalf("date503.test/vilkar: %+v", d)
	}
	at, err := http.ParseTime(d[0].Answer.Get("Retry-After"))
	if err != nil {
		t.Fatal(err)
	}
	if d[1].Start.Before(at) || d[1].Start.After(at.Add(2*time.Second)) {
		t.Errorf("date503.test: retry at %s, Retry-After date %s: never before it, and not long after", d[1].Start.Format(time.StampMilli), at.Format(time.StampMilli))
	}
	for _, h := range []string{"wait429.test", "date503.test"} {
		checkSerial(t, h, r.requests(h), rtDelay)
		r.wantRead(t, h, "https://"+h+"/vilkar")
	}
}

// A fractional Crawl-delay of the * group, in real time.
func TestRealTimeCrawlDelay(t *testing.T) {
	t.Parallel()
	r, _ := crawlLoopback(t, newWeb(t, delayWeb("0.3")), listFrom(t, tregSite), nil, guard.Options{}, Config{})
	qs := r.requests("treg.test")
	if len(qs) != 8 {
		t.Fatalf("requests %q", r.paths("treg.test"))
	}
	for i, g := range gaps(qs) {
		if g < 300*time.Millisecond || g > 300*time.Millisecond+500*time.Millisecond {
			t.Errorf("gap before %s: %s, want 300ms (Crawl-delay: 0.3)", qs[i+1].Path, g)
		}
	}
}

// Sockets that hang, reset, trickle, never end or are too large, crawled at
// once: each rule holds, and each host's misbehaviour stays its own.
func TestRealTimeHostileSockets(t *testing.T) {
	t.Parallel()
	hosts := []string{"hang.test", "reset.test", "trickle.test", "endless.test", "bomb.test", "big.test", "media.test"}
	r, count := crawlLoopback(t, newWeb(t, nil), hostileList(t), hosts, guard.Options{Timeouts: shortTimeouts}, Config{})
	for _, h := range hosts {
		checkSerialRT(t, r, h, rtDelay)
		if q := r.requests(h); len(q) == 0 || q[0].Path != "/robots.txt" {
			t.Errorf("%s: robots.txt was not first: %q", h, r.paths(h))
		}
	}

	// Accepted and never answered, twice: stopped.
	hangAsked := wellKnownAsked("hang.test")
	wantPaths(t, r, "hang.test", "/robots.txt", "/", pathsOf(hangAsked[:1])[0])
	for _, q := range r.requests("hang.test")[1:] {
		// Bounds, not a deadline: the server's handler starts after the
		// client's timer (connection, TLS, request parsing: long on a
		// loaded machine) and notices the hang-up when it is scheduled, so
		// it sees about Header; the whole-request limit is never reached.
		if d := q.End.Sub(q.Start); q.Status != 0 || q.End.IsZero() || d >= shortTimeouts.Request {
			t.Errorf("hang.test%s: status %d, held %s; want given up by the %s header timeout, before the %s request limit", q.Path, q.Status, d, shortTimeouts.Header, shortTimeouts.Request)
		}
	}
	r.wantGap(t, "hang.test", "https://hang.test/", evidence.ReasonNoAnswer, "timeout")
	for _, u := range hangAsked[1:] {
		r.wantGap(t, "hang.test", u, evidence.ReasonStopped)
	}

	// Reset mid-body, twice: stopped.
	resetAsked := wellKnownAsked("reset.test")
	wantPaths(t, r, "reset.test", "/robots.txt", "/", pathsOf(resetAsked[:1])[0])
	if qs := r.requests("reset.test"); len(qs) == 3 && (qs[1].Wrote != 200 || qs[2].Wrote != 10) {
		t.Errorf("reset.test wrote %d and %d bytes before the resets, want 200 and 10", qs[1].Wrote, qs[2].Wrote)
	}
	r.wantGap(t, "reset.test", "https://reset.test/", evidence.ReasonNoAnswer)
	for _, u := range resetAsked[1:] {
		r.wantGap(t, "reset.test", u, evidence.ReasonStopped, "stopped answering")
	}

	// A byte a second: abandoned after one transfer window; the host goes on.
	tr := find(r.requests("trickle.test"), "/vilkar")
	if len(tr) != 1 || tr[0].End.IsZero() || tr[0].End.Sub(tr[0].Start) >= shortTimeouts.Request {
		t.Errorf("trickle.test/vilkar: %+v", tr)
	}
	r.wantGap(t, "trickle.test", "https://trickle.test/vilkar", evidence.ReasonNoAnswer, "too slowly")
	if !slices.Contains(r.paths("trickle.test"), "/llms.txt") {
		t.Errorf("trickle.test was not read on: %q", r.paths("trickle.test"))
	}

	// Past the cap: read to 10 MB and one byte, no further, then the host goes on.
	for _, h := range []string{"endless.test", "bomb.test", "big.test"} {
		r.wantGap(t, h, "https://"+h+"/vilkar", evidence.ReasonTooLarge)
		if n := count.bytes("https://" + h + "/vilkar"); n > MaxBody+1 {
			t.Errorf("%s/vilkar: the crawler read %d bytes", h, n)
		}
		if !slices.Contains(r.paths(h), "/llms.txt") {
			t.Errorf("%s was not read on: %q", h, r.paths(h))
		}
	}
	if e := find(r.requests("endless.test"), "/vilkar"); len(e) != 1 || e[0].End.IsZero() || e[0].Wrote < MaxBody {
		t.Errorf("endless.test/vilkar: %+v", e)
	}
	if b := find(r.requests("bomb.test"), "/vilkar"); len(b) != 1 || b[0].Answer.Get("Content-Encoding") != "gzip" || b[0].Wrote > 1<<20 {
		t.Errorf("bomb.test/vilkar: %+v", b)
	}

	// The download: headers only. The crawler read no byte of it, and the
	// server could not write it all: the crawler hung up.
	m := find(r.requests("media.test"), "/personvern")
	if len(m) != 1 {
		t.Fatalf("media.test/personvern: %+v", m)
	}
	if n := count.bytes("https://media.test/personvern"); n != 0 {
		t.Errorf("media.test/personvern: the crawler read %d body bytes, want 0", n)
	}
	// The kernel's socket buffers take a few MB the crawler never reads;
	// the rest the server could not send: the crawler hung up.
	if size, _ := strconv.ParseInt(m[0].Answer.Get("Content-Length"), 10, 64); m[0].Wrote >= size || size < 12<<20 {
		t.Errorf("media.test/personvern: the server wrote %d of %d bytes; the crawler should have hung up after the headers", m[0].Wrote, size)
	}
	r.wantGap(t, "media.test", "https://media.test/personvern", evidence.ReasonFormat, "application/zip")
	for _, p := range []string{"/lisens.png", "/vilkar.zip"} {
		if slices.Contains(r.paths("media.test"), p) {
			t.Errorf("media.test%s requested", p)
		}
	}
}

// checkSerialRT is checkSerial on real sockets. Where the crawler gave up
// on an answer (a timeout, the cap, a type we do not read, a reset), the
// server logs as its end the moment its handler noticed, which on a loaded
// machine may be any time later, while the crawler's clock counts from its
// own hang-up (and hangUpGrace after it). There the order is asserted: the
// next request starts at least the floor after the abandoned one started,
// and never before it. Every other request is checked end to start, as
// checkSerial does; the exact end-to-start gaps after a hang-up are
// checked in virtual time (hostile_test.go).
func checkSerialRT(t *testing.T, r *crawlRun, host string, floor time.Duration) {
	t.Helper()
	gaveUp := map[string]bool{}
	for _, m := range r.mans {
		for _, a := range m.Addresses {
			switch a.Reason {
			case evidence.ReasonNoAnswer, evidence.ReasonTooLarge, evidence.ReasonFormat:
				for _, x := range a.Exchanges {
					gaveUp[x.URL] = true
				}
			}
		}
	}
	qs := r.requests(host)
	for i := 1; i < len(qs); i++ {
		prev, next := qs[i-1], qs[i]
		if gaveUp[prev.Scheme+"://"+prev.Host+prev.Path] {
			if g := next.Start.Sub(prev.Start); g < floor {
				t.Errorf("%s: %s started %s after %s started (abandoned); the least is %s", host, next.Path, g, prev.Path, floor)
			}
			continue
		}
		if g := next.Start.Sub(prev.End); g < floor {
			t.Errorf("%s: %s started %s after %s ended; the least is %s", host, next.Path, g, prev.Path, floor)
		}
	}
}

// Never another way: a refused page, a missing page, a page that timed out
// and a disallowed page are each asked for once, by one agent, under one
// scheme, host and query, though every variant would answer (www.avvist.test
// serves them all, and the port speaks plain HTTP too). Also: http → https
// on one host is an ordinary hop, on that host's clock.
func TestRealTimeNeverAnotherWay(t *testing.T) {
	t.Parallel()
	r, _ := crawlLoopback(t, newWeb(t, nil), hostileList(t), []string{"avvist.test", "chain.test"}, guard.Options{Timeouts: shortTimeouts}, Config{})
	want := append([]string{"/robots.txt", "/", "/vilkar", "/personvern", "/lisens"}, pathsOf(wellKnownAsked("avvist.test"))...)
	got := r.paths("avvist.test")
	if !slices.Equal(got, want) {
		t.Errorf("avvist.test requests %q, want %q", got, want)
	}
	for _, q := range r.log {
		if q.UserAgent != UserAgent || q.From != "crawler@crawlsignals.com" {
			t.Errorf("%s%s: agent %q from %q", q.Host, q.Path, q.UserAgent, q.From)
		}
		if strings.Contains(q.Path, "?") {
			t.Errorf("%s%s: a query the plan never had", q.Host, q.Path)
		}
		if strings.HasPrefix(strings.ToLower(q.Path), "/privat") {
			t.Errorf("%s%s: disallowed by robots.txt", q.Host, q.Path)
		}
		if q.Host == "avvist.test" && q.Scheme != "https" {
			t.Errorf("avvist.test%s over %s: the site's pages are https", q.Path, q.Scheme)
		}
	}
	if n := len(r.requests("www.avvist.test")); n != 0 {
		t.Errorf("www.avvist.test got %d requests: %q", n, r.paths("www.avvist.test"))
	}
	r.wantGap(t, "avvist.test", "https://avvist.test/vilkar", evidence.ReasonRefused, "403")
	r.wantGap(t, "avvist.test", "https://avvist.test/personvern", evidence.ReasonNotFound, "404")
	r.wantGap(t, "avvist.test", "https://avvist.test/lisens", evidence.ReasonNoAnswer, "timeout")
	r.wantGap(t, "avvist.test", "https://avvist.test/privat/data", evidence.ReasonRobotsDisallowed)

	// http → https on chain.test: one port, two schemes, one clock.
	api := find(r.requests("chain.test"), "/api")
	apiDoc := find(r.requests("chain.test"), "/api/")
	if len(api) != 1 || api[0].Scheme != "http" || len(apiDoc) != 1 || apiDoc[0].Scheme != "https" {
		t.Errorf("chain.test /api %+v, /api/ %+v: want http then https", api, apiDoc)
	}
	r.wantRead(t, "chain.test", "http://chain.test/api")
	checkSerial(t, "chain.test", r.requests("chain.test"), rtDelay)
	checkSerial(t, "data.chain.test", r.requests("data.chain.test"), rtDelay)
	if u := find(r.requests("data.chain.test"), "/utviklere"); len(u) != 1 || u[0].Scheme != "http" {
		t.Errorf("data.chain.test/utviklere: %+v", u)
	}
}

// fakeResolver answers every name with the given addresses.
type fakeResolver struct {
	mu    sync.Mutex
	addrs map[string][]netip.Addr
	asked []string
}

func (f *fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, host)
	return f.addrs[host], nil
}

// A reviewed name that resolves to a private (here: loopback) address is
// refused at dial time: the fixture server, listening right there, sees
// nothing, and the site's page says why.
func TestPrivateAddressRefusedAtDial(t *testing.T) {
	t.Parallel()
	srv := newWeb(t, nil)
	addr, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	port := addr[strings.LastIndexByte(addr, ':'):]
	// sites.toml refuses a URL with a port; the test needs the server's.
	list := &sites.List{Path: "test", Global: sites.Global{MaxAddresses: 40, MaxCrawlDelay: 300 * time.Second},
		Sites: []sites.Site{{Name: "Privat AS", URL: "http://private.test" + port + "/", Host: "private.test", Hosts: []string{"private.test"}}}}
	for _, ips := range [][]string{{"127.0.0.1"}, {"10.0.0.5"}, {"93.184.215.14", "192.168.1.10"}, {"100.64.1.1"}, {"::1"}} {
		var parsed []netip.Addr
		for _, s := range ips {
			parsed = append(parsed, netip.MustParseAddr(s))
		}
		res := &fakeResolver{addrs: map[string][]netip.Addr{"private.test": parsed}}
		r := crawlWith(t, srv, list, nil, Config{Client: guard.NewClient(guard.Options{Resolver: res})})
		if len(r.log) != 0 {
			t.Errorf("%v: the server saw %+v", ips, r.log)
		}
		if len(res.asked) == 0 {
			t.Errorf("%v: the resolver was never asked", ips)
		}
		a := r.wantGap(t, "private.test", "http://private.test"+port+"/robots.txt", evidence.ReasonNoAnswer, "not public")
		if !strings.Contains(a.Detail, ips[len(ips)-1]) && !strings.Contains(a.Detail, ips[0]) {
			t.Errorf("%v: detail %q does not name the address", ips, a.Detail)
		}
		r.wantGap(t, "private.test", "http://private.test"+port+"/", evidence.ReasonRobotsUnavailable, "not public")
	}
}
