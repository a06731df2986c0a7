package guard

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"testing/fstest"
	"testing/synctest"
	"time"

	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/policy"
)

func TestPublicAddr(t *testing.T) {
	cases := map[string]bool{
		"93.184.215.14": true, "2a00:1450:4001::1": true,
		"127.0.0.1": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false,
		"169.254.169.254": false, "fe80::1": false, "100.64.0.1": false, "100.127.255.254": false,
		"0.0.0.0": false, "::": false, "224.0.0.1": false, "ff02::1": false, "fc00::1": false,
		"::ffff:127.0.0.1": false, "100.128.0.1": true,
	}
	for s, want := range cases {
		if got := PublicAddr(netip.MustParseAddr(s)); got != want {
			t.Errorf("PublicAddr(%s) = %v, want %v", s, got, want)
		}
	}
}

// A name that resolves to loopback is refused at dial time, after DNS, and
// the server never sees the request; the same server is reachable only
// through an explicit -resolve mapping.
func TestClientRefusesPrivateUnlessMapped(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]

	c := NewClient(Options{})
	for _, u := range []string{srv.URL + "/", "http://localhost" + port + "/"} {
		req, _ := http.NewRequestWithContext(context.Background(), "GET", u, nil)
		_, err := c.Do(req)
		if !errors.Is(err, errForbiddenAddress) {
			t.Errorf("GET %s: err = %v, want the address guard", u, err)
		}
	}
	if hits != 0 {
		t.Fatalf("the guarded client reached the server %d times", hits)
	}

	mapped := NewClient(Options{Resolve: map[string]string{"site.test": srv.Listener.Addr().String()}})
	resp, err := mapped.Get("http://site.test/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if hits != 1 {
		t.Errorf("mapped host: %d hits, want 1", hits)
	}
}

func TestClientDoesNotFollowRedirects(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	}))
	defer srv.Close()
	c := NewClient(Options{Resolve: map[string]string{"site.test": srv.Listener.Addr().String()}})
	resp, err := c.Get("http://site.test/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Errorf("status %d: the client followed a redirect by itself", resp.StatusCode)
	}
}

// Lower timeouts reach only requests that cannot leave the machine: a
// host mapped to loopback, or the in-memory transport. Any other request
// keeps the policy's, whatever the options say.
func TestTimeoutsLowerOnlyOnLoopback(t *testing.T) {
	short := Timeouts{Connect: time.Second, TLS: time.Second, Header: time.Second, Request: 2 * time.Second, Window: time.Second, MinBytes: 1}
	c := NewClient(Options{Timeouts: short, Resolve: map[string]string{
		"lo.test": "127.0.0.1:8443", "far.test": "10.0.0.1:443", "pub.test": "93.184.215.14:443",
	}})
	g := c.Transport.(*roundTripper)
	for host, want := range map[string]Timeouts{
		"lo.test": short, "LO.test": short, "far.test": PolicyTimeouts(), "pub.test": PolicyTimeouts(), "dns.test": PolicyTimeouts(),
	} {
		if got := g.timeoutsFor(host); got != want {
			t.Errorf("timeoutsFor(%s) = %+v, want %+v", host, got, want)
		}
	}
	if g.real.timeouts != PolicyTimeouts() || g.policy.Request != RequestTimeout {
		t.Errorf("the real transport does not keep the policy: %+v, request %s", g.real.timeouts, g.policy.Request)
	}
	if g.testReal == nil || g.testReal.timeouts.Header != time.Second {
		t.Errorf("loopback transport: %+v", g.testReal)
	}
	if c.Jar != nil || len(g.real.tls.NextProtos) != 0 {
		t.Error("the client keeps cookies or may speak HTTP/2")
	}
	// Zero fields keep the policy; no override at all builds no second transport.
	if got := (Timeouts{Header: time.Second}).orPolicy(); got.Request != RequestTimeout || got.Header != time.Second || got.MinBytes != PolicyTimeouts().MinBytes {
		t.Errorf("orPolicy = %+v", got)
	}
	if NewClient(Options{}).Transport.(*roundTripper).testReal != nil {
		t.Error("a client without test timeouts has a second transport")
	}
}

// HTTP/1.1 over TLS even when the server offers HTTP/2, and no cookie kept.
func TestClientHTTP11NoCookies(t *testing.T) {
	var cookies []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cookies = append(cookies, r.Header.Get("Cookie"))
		http.SetCookie(w, &http.Cookie{Name: "spor", Value: "1"})
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	c := NewClient(Options{Resolve: map[string]string{"example.com": srv.Listener.Addr().String()}, RootCAs: roots})
	for range 2 {
		resp, err := c.Get("https://example.com/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.ProtoMajor != 1 {
			t.Errorf("spoke %s", resp.Proto)
		}
	}
	if len(cookies) != 2 || cookies[1] != "" {
		t.Errorf("cookies sent: %q", cookies)
	}
}

// The whole-request limit and the transfer floor, with the policy's values,
// in virtual time through the in-memory transport.
func TestRequestLimitsInVirtualTime(t *testing.T) {
	body := strings.Repeat("x", 20000)
	web := fstest.MapFS{
		"slow.test/_fixture.toml": {Data: []byte("[\"/drypp.txt\"]\ntrickle = \"1s\"\n\n[\"/sakte.txt\"]\ntrickle = \"4ms\"\n")},
		"slow.test/drypp.txt":     {Data: []byte(body)},
		"slow.test/sakte.txt":     {Data: []byte(body)},
	}
	for _, tc := range []struct {
		path string
		want error
		took time.Duration
	}{
		// A byte a second: under 1 KiB in the first 5 s window.
		{"/drypp.txt", errTooSlow, policy.TransferWindow},
		// 250 bytes a second keeps the floor, but 20000 bytes take 80 s: cut at 60 s.
		{"/sakte.txt", errRequestTimeout, RequestTimeout},
	} {
		synctest.Test(t, func(t *testing.T) {
			srv, err := fixture.New(web)
			if err != nil {
				t.Fatal(err)
			}
			c := NewClient(Options{Transport: srv.Transport()})
			start := time.Now()
			resp, err := c.Get("https://slow.test" + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if !errors.Is(err, tc.want) {
				t.Errorf("%s: err = %v, want %v", tc.path, err, tc.want)
			}
			if el := time.Since(start); el != tc.took {
				t.Errorf("%s: cut after %s, want %s", tc.path, el, tc.took)
			}
		})
	}
}

// Certificates are checked: the fixture web's own authority is trusted only
// when given, and a failed handshake is no answer, not a request.
func TestClientChecksCertificates(t *testing.T) {
	srv, err := fixture.New(fstest.MapFS{"tls.test/index.html": {Data: []byte("<!DOCTYPE html><title>TLS</title>")}})
	if err != nil {
		t.Fatal(err)
	}
	addr, roots, err := srv.StartTLS()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	resolve := map[string]string{"tls.test": addr}
	if _, err := NewClient(Options{Resolve: resolve}).Get("https://tls.test/"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("without the fixture's authority: err = %v, want a certificate error", err)
	}
	resp, err := NewClient(Options{Resolve: resolve, RootCAs: roots}).Get("https://tls.test/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if n := len(srv.Log()); n != 1 {
		t.Errorf("server log has %d requests, want 1 (a failed handshake is not a request)", n)
	}
}

// Check accepts only a client NewClient made, as it made it: a plain
// client, a copy, a transport around the guard's, a cookie jar or a
// redirect policy would each drop part of what the guard keeps.
func TestCheckAcceptsOnlyTheGuard(t *testing.T) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		client func() *http.Client
		want   string // what the refusal says; "" for none
	}{
		{"the guard's", func() *http.Client { return NewClient(Options{}) }, ""},
		{"the guard's, in memory", func() *http.Client { return NewClient(Options{Transport: http.DefaultTransport}) }, ""},
		{"none", func() *http.Client { return nil }, "no HTTP client"},
		{"plain", func() *http.Client { return &http.Client{} }, "not the guard's"},
		{"net/http's transport", func() *http.Client { return &http.Client{Transport: http.DefaultTransport} }, "not the guard's"},
		{"a copy of the guard's", func() *http.Client { c := *NewClient(Options{}); return &c }, "not the guard's"},
		{"a transport around the guard's", func() *http.Client {
			c := NewClient(Options{})
			c.Transport = struct{ http.RoundTripper }{c.Transport}
			return c
		}, "not the guard's"},
		{"a cookie jar", func() *http.Client { c := NewClient(Options{}); c.Jar = jar; return c }, "cookie jar"},
		{"net/http's redirects", func() *http.Client { c := NewClient(Options{}); c.CheckRedirect = nil; return c }, "follow redirects"},
		{"another redirect policy", func() *http.Client {
			c := NewClient(Options{})
			c.CheckRedirect = func(*http.Request, []*http.Request) error { return nil }
			return c
		}, "follow redirects"},
	}
	for _, tc := range cases {
		err := Check(tc.client())
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: err = %v, want a refusal saying %q", tc.name, err, tc.want)
		}
	}
}
