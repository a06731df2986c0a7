package crawl

import (
	"errors"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals/crawl/guard"
)

// exhausted fails the requests whose numbers (from 1) fail names, or every
// request when fail is nil, as a dial does when the process has no
// descriptor left.
type exhausted struct {
	next http.RoundTripper
	fail map[int]bool

	mu sync.Mutex
	n  int
}

func (e *exhausted) RoundTrip(req *http.Request) (*http.Response, error) {
	e.mu.Lock()
	e.n++
	n := e.n
	e.mu.Unlock()
	if e.fail == nil || e.fail[n] {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("socket", syscall.EMFILE)}
	}
	return e.next.RoundTrip(req)
}

// A request that fails for a local reason is tried again, and the site's
// page never shows our failure as the site's gap.
func TestLocalFailureIsRetriedNotAGap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, nil)
		tr := &exhausted{next: srv.Transport(), fail: map[int]bool{1: true, 3: true, 4: true}}
		r := crawlWith(t, srv, demoList(t), []string{"kommune.test"}, Config{Client: guard.NewClient(guard.Options{Transport: tr})})
		if r.err != nil {
			t.Fatalf("crawl failed: %v", r.err)
		}
		m, ok := r.mans["kommune.test"]
		if !ok {
			t.Fatal("no manifest")
		}
		for _, a := range m.Addresses {
			if strings.Contains(a.Detail, "too many open files") || strings.Contains(a.Detail, "local resource") {
				t.Errorf("%s: our failure shown as the site's: %s %s", a.URL, a.Reason, a.Detail)
			}
		}
		if qs := r.requests("kommune.test"); len(qs) == 0 || qs[0].Path != "/robots.txt" {
			t.Errorf("requests %q", r.paths("kommune.test"))
		}
		for _, h := range m.Hosts {
			if h.Host == "kommune.test" && h.Outcome != "rules" {
				t.Errorf("robots.txt outcome %q after a local failure, want rules", h.Outcome)
			}
		}
	})
}

// A local failure that does not pass fails the site loudly: no manifest
// (the batch can be resumed), an error for the site and the run.
func TestLocalFailureThatPersistsFailsTheSite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, nil)
		tr := &exhausted{next: srv.Transport()}
		r := crawlWith(t, srv, demoList(t), []string{"kommune.test"}, Config{Client: guard.NewClient(guard.Options{Transport: tr})})
		if r.err == nil || !errors.Is(r.err, errLocal) {
			t.Fatalf("run error %v, want the local failure", r.err)
		}
		if _, ok := r.mans["kommune.test"]; ok {
			t.Error("a manifest was written for a site we could not read for our own reasons")
		}
		if len(r.sum.Sites) != 1 || r.sum.Sites[0].Err == nil || !strings.Contains(r.sum.Sites[0].line(), "FAILED") {
			t.Errorf("site results %+v", r.sum.Sites)
		}
		if len(r.log) != 0 {
			t.Errorf("%d requests reached the server", len(r.log))
		}
	})
}

func TestIdleConnsFromTheLimit(t *testing.T) {
	if _, err := IdleConnsFor(8, 100, 50); err == nil {
		t.Error("8 workers under a limit of 50 descriptors accepted")
	}
	if n, err := IdleConnsFor(8, 5000, 1024); err != nil || n < 1 || 2*8+reserveFiles+n > 1024 {
		t.Errorf("8 workers, limit 1024: %d idle, %v", n, err)
	}
	if n, _ := IdleConnsFor(32, 100, 2*32+reserveFiles); n != 0 {
		t.Errorf("no room left, yet %d idle connections", n)
	}
	// One idle connection for each site in progress, not one for each
	// host on the list: memory follows -open-sites.
	if n, _ := IdleConnsFor(32, 300, 1<<20); n != 300 {
		t.Errorf("300 sites in progress under a large limit: %d idle connections, want 300", n)
	}
	// Idle connections and held evidence files share what the workers
	// leave, and never more than it.
	for _, limit := range []uint64{2*32 + reserveFiles, 1024, 5000, 1 << 20} {
		idle, _ := IdleConnsFor(32, 2000, limit)
		held, _ := HeldFilesFor(32, 2000, limit)
		if uint64(2*32+reserveFiles+idle+held) > limit || idle > 2000 || held > 2000 {
			t.Errorf("limit %d: %d idle connections and %d held files", limit, idle, held)
		}
	}
	if held, _ := HeldFilesFor(8, 100, 0); held != 0 {
		t.Errorf("an unknown limit holds %d files, want none", held)
	}
}
