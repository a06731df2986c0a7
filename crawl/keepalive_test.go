package crawl

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/evidence"
)

// A site keeps its connection while it waits its turn, and a server that
// closes idle connections sooner costs it only new connections: every
// address is still asked exactly once and read.
func TestConnectionKeptBetweenRequests(t *testing.T) {
	cases := []struct {
		name        string
		idleTimeout time.Duration // the server's; 0: it keeps connections
		wantOne     bool          // one connection for the whole site
	}{
		{"server keeps idle connections", 0, true},
		{"server closes them after 20 ms", 20 * time.Millisecond, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			asked := map[string]int{}
			conns := 0
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				asked[r.URL.Path]++
				mu.Unlock()
				switch r.URL.Path {
				case "/robots.txt":
					w.Header().Set("Content-Type", "text/plain")
					w.Write([]byte("User-agent: *\nDisallow: /privat/\n"))
				case "/":
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
					w.Write([]byte(`<!DOCTYPE html><html lang="nb"><head><title>Vert</title></head><body><main><p>Hei.</p></main>` +
						`<footer><a href="/vilkar">Vilkår</a></footer></body></html>`))
				case "/vilkar":
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
					w.Write([]byte(`<!DOCTYPE html><html lang="nb"><head><title>Vilkår</title></head><body><main><p>Innholdet kan ikke gjenbrukes uten avtale.</p></main></body></html>`))
				default:
					http.NotFound(w, r)
				}
			}))
			srv.Config.IdleTimeout = c.idleTimeout
			srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
				if s == http.StateNew {
					mu.Lock()
					conns++
					mu.Unlock()
				}
			}
			srv.Start()
			defer srv.Close()

			resolve := map[string]string{"vert.test": srv.Listener.Addr().String()}
			list := listFrom(t, "[[site]]\nname = \"Vert\"\nurl = \"http://vert.test/\"\nhosts = [\"vert.test\"]\ncategory = \"reference\"\n")
			cr, err := New(Config{Batches: t.TempDir(), MinDelay: 100 * time.Millisecond, Resolve: resolve, Workers: 2,
				Client: guard.NewClient(guard.Options{Resolve: resolve, MaxIdleConns: 4})}, list, nil)
			if err != nil {
				t.Fatal(err)
			}
			sum, err := cr.Run(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			es, err := evidence.OpenSite(sum.Dir, "vert.test")
			if err != nil {
				t.Fatal(err)
			}
			defer es.Close()
			mu.Lock()
			defer mu.Unlock()
			total := 0
			for path, n := range asked {
				total += n
				if n != 1 {
					t.Errorf("%s asked %d times, want once", path, n)
				}
			}
			for _, a := range es.Manifest.Addresses {
				if (a.URL == "http://vert.test/" || a.URL == "http://vert.test/vilkar") && a.Outcome != evidence.OutcomeRead {
					t.Errorf("%s: %s %s (%s)", a.URL, a.Outcome, a.Reason, a.Detail)
				}
			}
			if total < 4 {
				t.Fatalf("only %d requests: %v", total, asked)
			}
			switch {
			case c.wantOne && conns != 1:
				t.Errorf("%d requests over %d connections, want one kept connection", total, conns)
			case !c.wantOne && conns < total:
				t.Errorf("%d requests over only %d connections, but the server closes idle ones after %s", total, conns, c.idleTimeout)
			}
		})
	}
}
