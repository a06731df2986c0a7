package guard

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// scriptServer answers on loopback with whatever bytes a test's script
// writes, so that the transport meets answers no well-behaved server sends.
// It counts connections and requests.
type scriptServer struct {
	ln     net.Listener
	script func(n int, conn net.Conn, req *http.Request) (keep bool)

	mu       sync.Mutex
	conns    int
	requests []string
	wg       sync.WaitGroup
}

func newScriptServer(t *testing.T, script func(n int, conn net.Conn, req *http.Request) bool) *scriptServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &scriptServer{ln: ln, script: script}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns++
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.serve(conn)
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return s
}

func (s *scriptServer) serve(conn net.Conn) {
	defer conn.Close()
	br := bufio.NewReader(conn)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		s.mu.Lock()
		n := len(s.requests)
		s.requests = append(s.requests, req.URL.Path)
		s.mu.Unlock()
		if !s.script(n, conn, req) {
			return
		}
	}
}

func (s *scriptServer) counts() (conns, requests int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns, len(s.requests)
}

func testConnTransport(t *testing.T, addr string) *connTransport {
	dial := func(ctx context.Context, network, _ string, timeout time.Duration) (net.Conn, error) {
		d := net.Dialer{Timeout: timeout}
		return d.DialContext(ctx, network, addr)
	}
	ct := newConnTransport(dial, nil, Timeouts{Connect: time.Second, TLS: time.Second, Header: 300 * time.Millisecond}, 8)
	t.Cleanup(ct.CloseIdleConnections)
	return ct
}

// fetch asks for path and reads the whole body.
func fetch(ct *connTransport, path string) (status int, body string, err error) {
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://script.test"+path, nil)
	resp, err := ct.RoundTrip(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// The transport against answers good and bad: which connections it keeps,
// what it reads, and what it refuses.
// A server that closes each connection after its answer: the next request
// finds the close before it is sent (quiet) and goes on a new connection,
// or, when the close comes in the meantime, fails as ErrStale and is not
// sent again by the transport: re-sending is the pacer's (siteRun.ask).
func TestConnTransportClosedWhileKeptNotResent(t *testing.T) {
	srv := newScriptServer(t, func(_ int, c net.Conn, _ *http.Request) bool {
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		return false
	})
	ct := testConnTransport(t, srv.ln.Addr().String())
	answered := 0
	for i := range 6 {
		_, body, err := fetch(ct, "/"+string(rune('a'+i)))
		switch {
		case err == nil && body == "ok":
			answered++
		case err != nil && errors.Is(err, ErrStale):
		default:
			t.Errorf("request %d: body %q, error %v", i, body, err)
		}
	}
	if _, requests := srv.counts(); requests != answered {
		t.Errorf("the server read %d requests, %d were answered: one was sent twice", requests, answered)
	}
}

func TestConnTransportAnswers(t *testing.T) {
	ok := "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
	cases := []struct {
		name   string
		script func(n int, conn net.Conn, req *http.Request) bool
		asks   int
		// want, for every request: its body, or the error it must mention.
		body, err string
		conns     int // connections the server saw
		requests  int // requests the server read
	}{
		{name: "kept between requests", asks: 3, body: "ok", conns: 1, requests: 3,
			script: func(_ int, c net.Conn, _ *http.Request) bool { io.WriteString(c, ok); return true }},
		{name: "Connection: close", asks: 2, body: "ok", conns: 2, requests: 2,
			script: func(_ int, c net.Conn, _ *http.Request) bool {
				io.WriteString(c, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
				return false
			}},
		{name: "body ended by the close", asks: 2, body: "hello", conns: 2, requests: 2,
			script: func(_ int, c net.Conn, _ *http.Request) bool {
				io.WriteString(c, "HTTP/1.1 200 OK\r\n\r\nhello")
				return false
			}},
		{name: "early hints first", asks: 2, body: "ok", conns: 1, requests: 2,
			script: func(_ int, c net.Conn, _ *http.Request) bool {
				io.WriteString(c, "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"+ok)
				return true
			}},
		{name: "bytes after the body", asks: 2, body: "ok", conns: 2, requests: 2,
			script: func(_ int, c net.Conn, _ *http.Request) bool { io.WriteString(c, ok+"EXTRA"); return true }},
		{name: "body shorter than announced", asks: 2, err: "unexpected EOF", conns: 2, requests: 2,
			script: func(_ int, c net.Conn, _ *http.Request) bool {
				io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
				return false
			}},
		{name: "not HTTP", asks: 1, err: "malformed HTTP", conns: 1, requests: 1,
			script: func(_ int, c net.Conn, _ *http.Request) bool { io.WriteString(c, "HELLO\r\n\r\n"); return true }},
		{name: "no answer", asks: 1, err: "no response headers", conns: 1, requests: 1,
			script: func(_ int, c net.Conn, _ *http.Request) bool { io.Copy(io.Discard, c); return false }}, // until the client hangs up
		{name: "head without end", asks: 1, err: "response headers longer than", conns: 1, requests: 1,
			script: func(_ int, c net.Conn, _ *http.Request) bool {
				io.WriteString(c, "HTTP/1.1 200 OK\r\n")
				line := "X-Filler: " + strings.Repeat("a", 1000) + "\r\n"
				for range 2 * MaxHeadBytes / len(line) {
					if _, err := io.WriteString(c, line); err != nil {
						break // the client hung up
					}
				}
				return false
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newScriptServer(t, tc.script)
			ct := testConnTransport(t, srv.ln.Addr().String())
			for i := range tc.asks {
				_, body, err := fetch(ct, "/"+string(rune('a'+i)))
				switch {
				case tc.err == "" && err != nil:
					t.Errorf("request %d: %v", i, err)
				case tc.err == "" && body != tc.body:
					t.Errorf("request %d: body %q, want %q", i, body, tc.body)
				case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
					t.Errorf("request %d: error %v, want one saying %q", i, err, tc.err)
				}
			}
			if conns, requests := srv.counts(); conns != tc.conns || requests != tc.requests {
				t.Errorf("the server saw %d connections and %d requests, want %d and %d", conns, requests, tc.conns, tc.requests)
			}
		})
	}
}

// A body left unread closes its connection; one read to its end keeps it.
func TestConnTransportKeepsOnlyCleanConnections(t *testing.T) {
	srv := newScriptServer(t, func(_ int, c net.Conn, _ *http.Request) bool {
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
		return true
	})
	ct := testConnTransport(t, srv.ln.Addr().String())
	req, _ := http.NewRequest(http.MethodGet, "http://script.test/", nil)
	resp, err := ct.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close() // not read
	if _, body, err := fetch(ct, "/2"); err != nil || body != "hello" {
		t.Fatalf("after an unread body: %q, %v", body, err)
	}
	if _, body, err := fetch(ct, "/3"); err != nil || body != "hello" {
		t.Fatalf("third: %q, %v", body, err)
	}
	if conns, requests := srv.counts(); conns != 2 || requests != 3 {
		t.Errorf("%d connections for %d requests, want 2 for 3 (a new one after the unread body, kept after)", conns, requests)
	}
}

// A request whose context ends while it waits for the answer fails at
// once with the context's reason.
func TestConnTransportStopsWithTheContext(t *testing.T) {
	srv := newScriptServer(t, func(_ int, c net.Conn, _ *http.Request) bool {
		io.Copy(io.Discard, c) // never answers; waits until the client hangs up
		return false
	})
	ct := testConnTransport(t, srv.ln.Addr().String())
	ct.timeouts.Header = time.Minute
	why := errors.New("the crawl was stopped")
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(50*time.Millisecond, func() { cancel(why) })
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://script.test/", nil)
	if _, err := ct.RoundTrip(req); !errors.Is(err, why) {
		t.Errorf("error %v, want the context's cause", err)
	}
}

// A body closed before its end keeps its own reader: reading it again
// never reads another exchange's connection.
func TestConnTransportBodyClosedEarlyKeepsItsReader(t *testing.T) {
	srv := newScriptServer(t, func(_ int, c net.Conn, req *http.Request) bool {
		fill := strings.ToUpper(req.URL.Path[1:2])
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"+strings.Repeat(fill, 5))
		return true
	})
	ct := testConnTransport(t, srv.ln.Addr().String())
	get := func(path string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, "http://script.test"+path, nil)
		resp, err := ct.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	early := get("/a")
	early.Body.Close()
	for range 3 {
		resp := get("/b")
		if b, err := io.ReadAll(resp.Body); err != nil || string(b) != "BBBBB" {
			t.Fatalf("/b: %q, %v", b, err)
		}
		resp.Body.Close()
	}
	open := get("/b") // takes a pooled reader, unread
	defer open.Body.Close()
	b, _ := io.ReadAll(early.Body)
	if strings.Contains(string(b), "B") {
		t.Errorf("a body closed early read another exchange's answer: %q", b)
	}
}

// An answer a server sends on a kept connection before our next request
// (a 408 as it closes the connection as idle) is never taken for the
// answer to that request.
func TestConnTransportUnsolicitedAnswerIsNotTheAnswer(t *testing.T) {
	read, sent := make(chan struct{}), make(chan struct{})
	srv := newScriptServer(t, func(n int, c net.Conn, _ *http.Request) bool {
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		if n == 0 {
			<-read // after the client has read its answer
			io.WriteString(c, "HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\n\r\n")
			close(sent) // on loopback, written is delivered
		}
		return true // still open: the next request must not come here
	})
	ct := testConnTransport(t, srv.ln.Addr().String())
	if status, body, err := fetch(ct, "/a"); err != nil || status != 200 || body != "ok" {
		t.Fatalf("first: %d %q %v", status, body, err)
	}
	close(read)
	<-sent
	if status, body, err := fetch(ct, "/b"); err != nil || status != 200 || body != "ok" {
		t.Errorf("second: %d %q %v, want 200 ok from a new connection", status, body, err)
	}
	if conns, requests := srv.counts(); conns != 2 || requests != 2 {
		t.Errorf("%d connections for %d requests, want 2 for 2", conns, requests)
	}
}
