package crawl

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/evidence"
)

// The raw web: servers on loopback sockets, plain and TLS, that write
// whatever bytes a test's script says, for the faults no well-behaved
// server commits (an answer longer than its Content-Length, a connection
// closed under a request, heads without end). Each keeps its own log of
// what it was asked and when, as a site owner would see it, and every
// crawl of it is checked against the politeness floor from that log:
// never two requests at once, and every gap from the end of one request
// (as the server saw it) to the start of the next at least the floor.

// rawFloor is the floor between two requests to one host in these tests.
const rawFloor = 150 * time.Millisecond

// rawHost is the one host of the raw web's site.
const rawHost = "raw.test"

// rawRequest is one request as the server saw it.
type rawRequest struct {
	Conn  int    // the connection's number, from 1
	Nth   int    // the request's place on its connection, from 0
	Path  string // request URI
	Start time.Time
	End   time.Time // when the server was done with it (answered, or hung up)
}

// rawConn is one accepted connection, as a script writes to it.
type rawConn struct {
	net.Conn
	srv *rawServer
	n   int
}

// answer writes a whole answer in one write. The request's end is stamped
// just before the write (so a gap measured from it is never longer than
// the crawler's own), or after it when it failed: then the crawler hung up
// before it had all of it, and the server's side ended when it learned so.
func (c *rawConn) answer(q *rawRequest, raw string) {
	before := time.Now()
	_, err := c.Write([]byte(raw))
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	if q.End.IsZero() {
		q.End = before
		if err != nil {
			q.End = time.Now()
		}
	}
}

// hangUp closes the connection without an answer.
func (c *rawConn) hangUp(q *rawRequest) {
	c.srv.end(q)
	c.Close()
}

// end stamps q's end now, unless it has one.
func (s *rawServer) end(q *rawRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if q.End.IsZero() {
		q.End = time.Now()
	}
}

// rawScript answers one request; it returns false to end the connection.
type rawScript func(c *rawConn, q *rawRequest, req *http.Request) (keep bool)

type rawServer struct {
	ln     net.Listener
	scheme string
	roots  *x509.CertPool
	script rawScript
	// timeouts replace shortTimeouts for the crawls of this server.
	timeouts guard.Timeouts

	mu    sync.Mutex
	log   []*rawRequest
	conns int
	open  []net.Conn
	wg    sync.WaitGroup
}

// newRawServer starts a raw server, over TLS with a certificate for
// rawHost when tlsOn.
func newRawServer(t *testing.T, tlsOn bool, script rawScript) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln, scheme: "http", script: script}
	if tlsOn {
		cert, roots := rawCert(t)
		s.scheme, s.roots = "https", roots
		// Full 16 KB records from the start, as real servers send them
		// (Go's own would start small).
		s.ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12, DynamicRecordSizingDisabled: true})
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			conn, err := s.ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns++
			rc := &rawConn{Conn: conn, srv: s, n: s.conns}
			s.open = append(s.open, conn)
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.serve(rc)
			}()
		}
	}()
	t.Cleanup(func() {
		s.ln.Close()
		s.mu.Lock()
		for _, c := range s.open { // the crawler's idle connection among them
			c.Close()
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return s
}

func (s *rawServer) serve(c *rawConn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for nth := 0; ; nth++ {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		q := &rawRequest{Conn: c.n, Nth: nth, Path: req.URL.RequestURI(), Start: time.Now()}
		s.mu.Lock()
		s.log = append(s.log, q)
		s.mu.Unlock()
		keep := s.script(c, q, req)
		s.end(q)
		if !keep {
			return
		}
	}
}

// requests returns a copy of the log, in order of arrival.
func (s *rawServer) requests() []rawRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]rawRequest, len(s.log))
	for i, q := range s.log {
		out[i] = *q
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

func (s *rawServer) paths() []string {
	var out []string
	for _, q := range s.requests() {
		out = append(out, q.Path)
	}
	return out
}

// rawCert makes a self-signed certificate for rawHost, and a pool that
// trusts it alone.
func rawCert(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: rawHost},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		DNSNames: []string{rawHost}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, roots
}

// The raw site: robots.txt allows everything, the home page's footer
// links to /vilkar, everything else is 404.
const (
	rawRobots = "User-agent: *\nAllow: /\n"
	rawHome   = "<!DOCTYPE html>\n<html lang=\"nb\"><head><title>Rå</title></head><body><main><p>Hei.</p></main>" +
		"<footer><a href=\"/vilkar\">Vilkår</a></footer></body></html>\n"
	rawTerms = "<!DOCTYPE html>\n<html lang=\"nb\"><head><title>Vilkår</title></head><body><main><p>Innholdet på dette nettstedet kan ikke brukes til å trene kunstig intelligens.</p></main></body></html>\n"
)

// rawPage is the raw site's answer to path: status, content type, body.
func rawPage(path string) (int, string, string) {
	switch path {
	case "/robots.txt":
		return 200, "text/plain", rawRobots
	case "/":
		return 200, "text/html; charset=utf-8", rawHome
	case "/vilkar":
		return 200, "text/html; charset=utf-8", rawTerms
	}
	return 404, "text/plain", "not found\n"
}

// rawAnswer is a well-formed answer to path, kept alive.
func rawAnswer(path string) string {
	status, ctype, body := rawPage(path)
	return fmt.Sprintf("HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s", status, http.StatusText(status), ctype, len(body), body)
}

// rawPlan is what a crawl of the raw site asks, in order.
var rawPlan = []string{"/robots.txt", "/", "/vilkar", "/.well-known/security.txt", "/.well-known/tdmrep.json", "/.well-known/api-catalog", "/.well-known/gpc.json", "/llms.txt"}

// rawRun is a crawl of the raw site.
type rawRun struct {
	sum *Summary
	man evidence.Manifest
	es  *evidence.Site
	log []rawRequest
}

// rawCrawler is a crawler of the raw site on srv with the real guarded client.
func rawCrawler(t *testing.T, srv *rawServer, cfg Config) (*Crawler, Config) {
	t.Helper()
	list := listFrom(t, "[[site]]\nname = \"Rå\"\nurl = \""+srv.scheme+"://"+rawHost+"/\"\nhosts = [\""+rawHost+"\"]\n")
	resolve := map[string]string{rawHost: srv.ln.Addr().String()}
	timeouts := shortTimeouts
	if srv.timeouts != (guard.Timeouts{}) {
		timeouts = srv.timeouts
	}
	cfg.Client = guard.NewClient(guard.Options{Resolve: resolve, RootCAs: srv.roots, Timeouts: timeouts})
	cfg.Resolve = resolve
	if cfg.MinDelay == 0 {
		cfg.MinDelay = rawFloor
	}
	if cfg.Batches == "" {
		cfg.Batches = t.TempDir()
	}
	c, err := New(cfg, list, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c, cfg
}

// crawlRaw crawls the raw site on srv, and checks the server's whole log
// (earlier runs' requests included) against the floor.
func crawlRaw(t *testing.T, srv *rawServer, cfg Config) *rawRun {
	t.Helper()
	c, cfg := rawCrawler(t, srv, cfg)
	before := len(srv.requests())
	r := &rawRun{}
	var err error
	r.sum, err = c.Run(t.Context(), nil)
	if r.sum == nil {
		t.Fatalf("no summary: %v", err)
	}
	r.log = srv.requests()
	if len(r.sum.Sites) == 1 && r.sum.Sites[0].Err == nil {
		es, err := evidence.OpenSite(r.sum.Dir, rawHost)
		if err != nil {
			t.Fatalf("evidence cannot be read back: %v", err)
		}
		t.Cleanup(func() { es.Close() })
		r.es, r.man = es, *es.Manifest
	}
	checkRawLog(t, r.log, cfg.MinDelay)
	// What the crawl says it sent is what the server saw.
	if r.sum.Requests != len(r.log)-before {
		t.Errorf("the crawl counts %d requests, the server saw %d: %q", r.sum.Requests, len(r.log)-before, srv.paths())
	}
	return r
}

// checkRawLog asserts the politeness floor on a server's log: one request
// at a time, and at least floor from the end of each to the start of the
// next.
func checkRawLog(t *testing.T, log []rawRequest, floor time.Duration) {
	t.Helper()
	for i := 1; i < len(log); i++ {
		prev, q := log[i-1], log[i]
		if q.Start.Before(prev.End) {
			t.Errorf("%s started while %s was in progress (overlap %s)", q.Path, prev.Path, prev.End.Sub(q.Start))
		} else if g := q.Start.Sub(prev.End); g < floor {
			t.Errorf("%s started %s after %s ended; the floor is %s", q.Path, g, prev.Path, floor)
		}
	}
}

// address returns the manifest's record of the raw site's path.
func (r *rawRun) address(t *testing.T, scheme, path string) evidence.Address {
	t.Helper()
	u := scheme + "://" + rawHost + path
	for _, a := range r.man.Addresses {
		if a.URL == u {
			return a
		}
	}
	t.Fatalf("%s is not in the manifest", u)
	return evidence.Address{}
}

// rawSchemes runs a case over plain HTTP and over TLS.
func rawSchemes(t *testing.T, f func(t *testing.T, tlsOn bool, scheme string)) {
	t.Parallel()
	for _, tlsOn := range []bool{false, true} {
		scheme := map[bool]string{false: "http", true: "https"}[tlsOn]
		t.Run(scheme, func(t *testing.T) {
			t.Parallel()
			f(t, tlsOn, scheme)
		})
	}
}

// A well-behaved server: every planned address once, each on the floor,
// on one connection.
func TestRawWellBehaved(t *testing.T) {
	rawSchemes(t, func(t *testing.T, tlsOn bool, scheme string) {
		srv := newRawServer(t, tlsOn, func(c *rawConn, q *rawRequest, req *http.Request) bool {
			c.answer(q, rawAnswer(q.Path))
			return true
		})
		r := crawlRaw(t, srv, Config{})
		if got := srv.paths(); strings.Join(got, " ") != strings.Join(rawPlan, " ") {
			t.Errorf("requests %q, want %q", got, rawPlan)
		}
		if srv.conns != 1 {
			t.Errorf("%d connections, want 1 (kept between requests)", srv.conns)
		}
		if a := r.address(t, scheme, "/vilkar"); a.Outcome != evidence.OutcomeRead {
			t.Errorf("/vilkar: %+v", a)
		}
	})
}

// Issue 24, item 1: a server that reads a request on a kept connection and
// closes it without an answer got the same request again within a
// millisecond, and the crawl counted one request where the server saw two.
// The request goes again only after the host's delay, and both are counted
// and kept.
func TestRawClosedUnderRequestResentOnTheFloor(t *testing.T) {
	rawSchemes(t, func(t *testing.T, tlsOn bool, scheme string) {
		var once sync.Once
		srv := newRawServer(t, tlsOn, func(c *rawConn, q *rawRequest, req *http.Request) bool {
			hang := false
			if q.Path == "/" && q.Nth > 0 {
				once.Do(func() { hang = true })
			}
			if hang {
				c.hangUp(q)
				return false
			}
			c.answer(q, rawAnswer(q.Path))
			return true
		})
		r := crawlRaw(t, srv, Config{})
		var home []rawRequest
		for _, q := range r.log {
			if q.Path == "/" {
				home = append(home, q)
			}
		}
		if len(home) != 2 {
			t.Fatalf("the home page was asked %d times, want 2 (once more after the hang-up): %q", len(home), srv.paths())
		}
		a := r.address(t, scheme, "/")
		if len(a.Exchanges) != 2 || a.Exchanges[0].HasResponse() || !a.Exchanges[1].HasResponse() {
			t.Errorf("home page exchanges %+v, want the unanswered request and the answered one", a.Exchanges)
		}
		if got := r.address(t, scheme, "/vilkar"); got.Outcome != evidence.OutcomeRead {
			t.Errorf("/vilkar: %+v", got)
		}
	})
}

// Issue 24, item 2: an answer longer than its Content-Length (a server
// counting characters rather than UTF-8 bytes) left its tail inside
// tls.Conn, and the next request on the connection took that tail for its
// answer: a false page stored as evidence. A connection is kept only when
// nothing at all is left in it. The tail here is an answer of its own, the
// worst case: read as the next answer, it would be a 200.
func TestRawAnswerLongerThanContentLength(t *testing.T) {
	t.Run("characters", func(t *testing.T) { rawLongerThanContentLength(t, false) })
	t.Run("crafted", func(t *testing.T) { rawLongerThanContentLength(t, true) })
}

// rawLongerThanContentLength: Content-Length counts the body's characters,
// or (crafted) its bytes, with a whole false answer after it.
func rawLongerThanContentLength(t *testing.T, crafted bool) {
	rawSchemes(t, func(t *testing.T, tlsOn bool, scheme string) {
		false200 := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nFALSE PAGE\n"
		srv := newRawServer(t, tlsOn, func(c *rawConn, q *rawRequest, req *http.Request) bool {
			if q.Path != "/vilkar" {
				c.answer(q, rawAnswer(q.Path))
				return true
			}
			// About 12 KB, as real pages are, in one TLS record: bufio's buffer is emptied
			// while tls.Conn still holds the rest of the record.
			body := rawTerms[:len(rawTerms)-len("</body></html>\n")] + strings.Repeat("<p>Vilkår for bruk av nettstedet.</p>\n", 300) + "</body></html>\n"
			short := len([]rune(body))
			if crafted {
				short = len(body)
			}
			c.answer(q, fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s%s", short, body, false200))
			return true
		})
		r := crawlRaw(t, srv, Config{})
		if got := srv.paths(); strings.Join(got, " ") != strings.Join(rawPlan, " ") {
			t.Errorf("the server was asked %q, want %q", got, rawPlan)
		}
		for _, p := range rawPlan[3:] {
			a := r.address(t, scheme, p)
			if a.Outcome != evidence.OutcomeNotPublished {
				t.Errorf("%s: outcome %q %s %s, want not-published (its own 404)", p, a.Outcome, a.Reason, a.Detail)
			}
			for _, x := range a.Exchanges {
				if !x.HasResponse() {
					continue
				}
				resp, err := r.es.Response(x)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(resp.Body), "FALSE PAGE") {
					t.Errorf("%s: the stored answer is the tail of the answer before it", p)
				}
			}
		}
	})
}

// Issue 24, item 3: after a kill, the resumed run asked the request that
// was on the wire again 22 ms after the killed one ended: the host's clock
// started at the interrupted file's last write, made before that request
// was sent. The kill is played by ending the run's context while the
// server holds the request, and setting the file's time back to its last
// record's, as a kill leaves it.
func TestRawResumeAfterKillWaitsTheFloor(t *testing.T) {
	rawSchemes(t, func(t *testing.T, tlsOn bool, scheme string) {
		var hung atomic.Bool
		asked := make(chan struct{})
		srv := newRawServer(t, tlsOn, func(c *rawConn, q *rawRequest, req *http.Request) bool {
			if q.Path == "/vilkar" && hung.CompareAndSwap(false, true) {
				close(asked)
				io.Copy(io.Discard, c) // until the crawler is gone
				return false
			}
			c.answer(q, rawAnswer(q.Path))
			return true
		})
		cfg := Config{Batches: t.TempDir(), Batch: "20261201T060000Z"}
		c, _ := rawCrawler(t, srv, cfg)
		ctx, kill := context.WithCancel(t.Context())
		go func() {
			select {
			case <-asked:
			case <-ctx.Done():
			}
			kill()
		}()
		if _, err := c.Run(ctx, nil); err == nil {
			t.Fatal("the killed run says it completed")
		}
		first := srv.requests()
		if len(first) != 3 || first[2].Path != "/vilkar" {
			t.Fatalf("the killed run asked %q", srv.paths())
		}
		files, _ := filepath.Glob(filepath.Join(cfg.Batches, cfg.Batch, rawHost+".warc.gz.*"))
		if len(files) == 0 {
			t.Fatal("the killed run left no interrupted WARC")
		}
		for _, f := range files {
			if err := os.Chtimes(f, first[1].End, first[1].End); err != nil {
				t.Fatal(err)
			}
		}
		cfg.Resume = true
		r := crawlRaw(t, srv, cfg) // checks the gap from the killed request too
		if got := srv.paths(); strings.Join(got[3:], " ") != strings.Join(rawPlan[2:], " ") {
			t.Errorf("the resumed run asked %q, want %q (the stored answers reused)", got[3:], rawPlan[2:])
		}
		if a := r.address(t, scheme, "/vilkar"); a.Outcome != evidence.OutcomeRead {
			t.Errorf("/vilkar: %+v", a)
		}
	})
}

// Issue 24, item 9: a body dripped slower than the transfer floor is
// abandoned; the server's side of that request ends when its next write
// fails, which was a write later than it need be (an orderly close is
// answered with a reset only after the first write after it). The crawler
// resets the connection, and its clock counts from the server's end.
func TestRawDripEndsOnTheServerSideToo(t *testing.T) {
	rawSchemes(t, func(t *testing.T, tlsOn bool, scheme string) {
		srv := newRawServer(t, tlsOn, func(c *rawConn, q *rawRequest, req *http.Request) bool {
			if q.Path != "/vilkar" {
				c.answer(q, rawAnswer(q.Path))
				return true
			}
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 100000\r\n\r\n")
			for {
				time.Sleep(400 * time.Millisecond)
				if _, err := io.WriteString(c, "<"); err != nil {
					return false // the server learns now that we hung up
				}
			}
		})
		r := crawlRaw(t, srv, Config{})
		if a := r.address(t, scheme, "/vilkar"); a.Outcome != evidence.OutcomeGap || !strings.Contains(a.Detail, "slowly") {
			t.Errorf("/vilkar: %s %s %s, want a no-answer gap: too slow", a.Outcome, a.Reason, a.Detail)
		}
	})
}

// A flood of informational answers is a head too long, and is named so
// (issue 24, item 9: it read "malformed HTTP response"); a 304 to a request
// that was not conditional is no missing Location.
func TestRawInformationalFloodAnd304(t *testing.T) {
	rawSchemes(t, func(t *testing.T, tlsOn bool, scheme string) {
		srv := newRawServer(t, tlsOn, func(c *rawConn, q *rawRequest, req *http.Request) bool {
			switch q.Path {
			case "/vilkar":
				hint := strings.Repeat("HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n", 1000)
				for range 2 * guard.MaxHeadBytes / len(hint) {
					if _, err := io.WriteString(c, hint); err != nil {
						break
					}
				}
				c.srv.end(q)
				return false
			case "/.well-known/security.txt":
				c.answer(q, "HTTP/1.1 304 Not Modified\r\n\r\n")
				return true
			}
			c.answer(q, rawAnswer(q.Path))
			return true
		})
		r := crawlRaw(t, srv, Config{})
		if a := r.address(t, scheme, "/vilkar"); a.Reason != evidence.ReasonNoAnswer || !strings.Contains(a.Detail, "longer than") || !strings.Contains(a.Detail, "informational") {
			t.Errorf("/vilkar: %s %s %s, want no-answer: headers too long, after informational answers", a.Outcome, a.Reason, a.Detail)
		}
		if a := r.address(t, scheme, "/.well-known/security.txt"); !strings.Contains(a.Detail, "Not Modified") {
			t.Errorf("security.txt: %s %s %s, want a 304 named as such", a.Outcome, a.Reason, a.Detail)
		}
	})
}

// Issue 24, item 9: a resumed run asked again a request whose timeout the
// interrupted run had stored, and forgot that the host had failed: the
// stored failure is counted again, so the host stops where it stopped.
// The kill comes while the second failing request is on the wire; the
// resumed run asks that one again (its outcome was never stored), and its
// failure is the second in a row.
func TestRawResumeKeepsStoredFailures(t *testing.T) {
	rawSchemes(t, func(t *testing.T, tlsOn bool, scheme string) {
		killNow := make(chan struct{})
		var once sync.Once
		srv := newRawServer(t, tlsOn, func(c *rawConn, q *rawRequest, req *http.Request) bool {
			switch q.Path {
			case "/vilkar", "/.well-known/security.txt":
				if q.Path != "/vilkar" {
					once.Do(func() { close(killNow) })
				}
				io.Copy(io.Discard, c) // no answer, until the crawler gives up
				return false
			}
			c.answer(q, rawAnswer(q.Path))
			return true
		})
		srv.timeouts = guard.Timeouts{Header: 300 * time.Millisecond, Request: 5 * time.Second, Window: time.Second, MinBytes: 64}
		cfg := Config{Batches: t.TempDir(), Batch: "20261201T060000Z"}
		c, _ := rawCrawler(t, srv, cfg)
		ctx, kill := context.WithCancel(t.Context())
		go func() {
			select {
			case <-killNow:
			case <-ctx.Done():
			}
			kill()
		}()
		c.Run(ctx, nil)
		cfg.Resume = true
		r := crawlRaw(t, srv, cfg)
		want := []string{"/robots.txt", "/", "/vilkar", "/.well-known/security.txt", "/.well-known/security.txt"}
		if got := srv.paths(); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("the server was asked %q over both runs, want %q", got, want)
		}
		for _, p := range rawPlan[4:] {
			if a := r.address(t, scheme, p); a.Reason != evidence.ReasonStopped {
				t.Errorf("%s: %s %s %s, want stopped (two failures in a row)", p, a.Outcome, a.Reason, a.Detail)
			}
		}
	})
}

// Issue 24, item 9: the stored head dropped a Content-Length sent beside
// chunked Transfer-Encoding, and the trailer fields: an X-Robots-Tag sent
// as a trailer was neither kept nor read. The head keeps what the server
// said, trailers written with the headers (the metadata says they came
// after the body).
func TestRawChunkedHeadAndTrailersKept(t *testing.T) {
	rawSchemes(t, func(t *testing.T, tlsOn bool, scheme string) {
		srv := newRawServer(t, tlsOn, func(c *rawConn, q *rawRequest, req *http.Request) bool {
			if q.Path != "/vilkar" {
				c.answer(q, rawAnswer(q.Path))
				return true
			}
			var b strings.Builder
			b.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 7\r\nTransfer-Encoding: chunked\r\nTrailer: X-Robots-Tag\r\n\r\n")
			fmt.Fprintf(&b, "%x\r\n%s\r\n0\r\nX-Robots-Tag: noai\r\n\r\n", len(rawTerms), rawTerms)
			c.answer(q, b.String())
			return true
		})
		r := crawlRaw(t, srv, Config{})
		a := r.address(t, scheme, "/vilkar")
		if a.Outcome != evidence.OutcomeRead || len(a.Exchanges) != 1 {
			t.Fatalf("/vilkar: %+v", a)
		}
		resp, err := r.es.Response(a.Exchanges[0])
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.Header.Get("Content-Length"); got != "7" {
			t.Errorf("stored Content-Length %q, want the 7 the server sent", got)
		}
		if got := resp.Header.Get("X-Robots-Tag"); got != "noai" {
			t.Errorf("stored X-Robots-Tag %q, want the trailer's noai; head %v", got, resp.Header)
		}
		if string(resp.Body) != rawTerms {
			t.Errorf("stored body %q", resp.Body)
		}
		if errs := evidence.Verify(r.sum.Dir); len(errs) > 0 {
			t.Errorf("the WARC does not verify: %v", errs)
		}
	})
}

// Framing faults that held before issue 24 and must go on holding, each
// served for /vilkar over plain HTTP and TLS: what the page becomes, and
// that every other address gets its own answer (nothing of the faulty
// answer is taken for the next), on the floor.
func TestRawFramingFaults(t *testing.T) {
	t.Parallel()
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	zw.Write(make([]byte, MaxBody+1<<20))
	zw.Close()
	filler := func(n int) string {
		line := "X-Filler: " + strings.Repeat("a", 1000) + "\r\n"
		return strings.Repeat(line, n/len(line))
	}
	html := "Content-Type: text/html; charset=utf-8\r\n"
	cases := []struct {
		name, answer   string
		outcome        string
		reason, detail string
	}{
		{"bad chunk", "HTTP/1.1 200 OK\r\n" + html + "Transfer-Encoding: chunked\r\n\r\nzz\r\nhei\r\n0\r\n\r\n", evidence.OutcomeGap, evidence.ReasonNoAnswer, "chunk"},
		{"body shorter than its length", "HTTP/1.1 200 OK\r\n" + html + "Content-Length: 5000\r\n\r\n" + rawTerms, evidence.OutcomeGap, evidence.ReasonNoAnswer, "EOF"},
		{"two answers", rawAnswer("/vilkar") + "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nFALSE PAGE\n", evidence.OutcomeRead, "", ""},
		{"900 KB head", "HTTP/1.1 200 OK\r\n" + html + filler(900<<10) + fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(rawTerms), rawTerms), evidence.OutcomeRead, "", ""},
		{"2 MiB head", "HTTP/1.1 200 OK\r\n" + html + filler(2<<20) + "\r\n", evidence.OutcomeGap, evidence.ReasonNoAnswer, "longer than"},
		{"gzip bomb", "HTTP/1.1 200 OK\r\n" + html + fmt.Sprintf("Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n", bomb.Len()) + bomb.String(), evidence.OutcomeGap, evidence.ReasonTooLarge, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rawSchemes(t, func(t *testing.T, tlsOn bool, scheme string) {
				srv := newRawServer(t, tlsOn, func(c *rawConn, q *rawRequest, req *http.Request) bool {
					if q.Path != "/vilkar" {
						c.answer(q, rawAnswer(q.Path))
						return true
					}
					c.answer(q, tc.answer)
					return !strings.Contains(tc.name, "shorter") // that one ends by the close
				})
				r := crawlRaw(t, srv, Config{})
				a := r.address(t, scheme, "/vilkar")
				if a.Outcome != tc.outcome || a.Reason != tc.reason || !strings.Contains(a.Detail, tc.detail) {
					t.Errorf("/vilkar: %s %s %q, want %s %s saying %q", a.Outcome, a.Reason, a.Detail, tc.outcome, tc.reason, tc.detail)
				}
				for _, p := range rawPlan[3:] {
					if a := r.address(t, scheme, p); a.Outcome != evidence.OutcomeNotPublished {
						t.Errorf("%s: %s %s %s, want its own 404", p, a.Outcome, a.Reason, a.Detail)
					}
				}
			})
		})
	}
}

// A head dripped slower than the header timeout: the request is given up
// at the timeout and the connection reset, so the server learns of it at
// its next write, and the host's next request waits the floor from then.
func TestRawHeadDrip(t *testing.T) {
	rawSchemes(t, func(t *testing.T, tlsOn bool, scheme string) {
		srv := newRawServer(t, tlsOn, func(c *rawConn, q *rawRequest, req *http.Request) bool {
			if q.Path != "/vilkar" {
				c.answer(q, rawAnswer(q.Path))
				return true
			}
			head := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Slow: " + strings.Repeat("a", 100)
			for i := range len(head) {
				if _, err := io.WriteString(c, head[i:i+1]); err != nil {
					return false // the server learns now that we hung up
				}
				time.Sleep(200 * time.Millisecond)
			}
			return false
		})
		srv.timeouts = guard.Timeouts{Header: 700 * time.Millisecond, Request: 5 * time.Second, Window: time.Second, MinBytes: 64}
		r := crawlRaw(t, srv, Config{})
		if a := r.address(t, scheme, "/vilkar"); a.Reason != evidence.ReasonNoAnswer || !strings.Contains(a.Detail, "headers") {
			t.Errorf("/vilkar: %s %s %q, want no-answer: no headers in time", a.Outcome, a.Reason, a.Detail)
		}
	})
}
