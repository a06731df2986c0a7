package crawl

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
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

	c := NewClient(ClientOptions{})
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

	mapped := NewClient(ClientOptions{Resolve: map[string]string{"site.test": srv.Listener.Addr().String()}})
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
	c := NewClient(ClientOptions{Resolve: map[string]string{"site.test": srv.Listener.Addr().String()}})
	resp, err := c.Get("http://site.test/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Errorf("status %d: the client followed a redirect by itself", resp.StatusCode)
	}
}
