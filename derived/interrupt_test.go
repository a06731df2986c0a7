package derived

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// writeBatches writes batches of evidence for hosts: in each batch, each
// site answered its terms page with a sentence of its own. It returns the
// folder of batches and the list.
func writeBatches(t *testing.T, batches []string, hosts []string) (string, *sites.List) {
	t.Helper()
	dir := t.TempDir()
	list := &sites.List{}
	for _, h := range hosts {
		list.Sites = append(list.Sites, sites.Site{Host: h, Name: h, URL: "https://" + h + "/", Hosts: []string{h}})
	}
	for bi, b := range batches {
		at, err := evidence.ParseBatchName(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hosts {
			u, _ := url.Parse("https://" + h + "/terms")
			body := []byte("<html><body><main><p>Batch " + strconv.Itoa(bi) + ": you may not scrape " + h + ".</p></main></body></html>")
			x := evidence.RawExchange{
				Time:    at,
				Request: &http.Request{Method: http.MethodGet, URL: u, Host: u.Host, Header: http.Header{"User-Agent": {"crawlsignals/test"}}},
				Response: &http.Response{Status: "200 OK", StatusCode: 200, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
					Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}},
				Body: body, IP: "127.0.0.1:8443",
			}
			bd := filepath.Join(dir, b)
			w, err := evidence.Create(bd, h, map[string]string{"software": "crawlsignals/test"})
			if err != nil {
				t.Fatal(err)
			}
			ex, err := w.Record(x)
			if err != nil {
				t.Fatal(err)
			}
			m := evidence.Manifest{Name: h, Started: at, Finished: at.Add(time.Minute), Addresses: []evidence.Address{{
				URL: u.String(), FoundVia: "footer", Outcome: evidence.OutcomeRead, Status: ex.Status,
				ContentType: "text/html; charset=utf-8", FetchedAt: at, Exchanges: []evidence.Exchange{ex},
			}}}
			if err := w.Close(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir, list
}

// An interrupted build stops between sites: once ctx is done no site is
// derived or handed on, nothing more is kept, and the error is ctx's.
func TestBuildStopsWhenCtxIsDone(t *testing.T) {
	batches := []string{"20261201T060000Z", "20261208T060000Z"}
	hosts := []string{"a.test", "b.test", "c.test"}
	opt := Options{Workers: 1, Code: "test-code"} // one worker: sites in list order

	t.Run("not done", func(t *testing.T) {
		dir, list := writeBatches(t, batches, hosts)
		all, err := Build(context.Background(), list, dir, opt)
		if err != nil || len(all) != len(hosts) {
			t.Fatalf("Build: %d sites, %v", len(all), err)
		}
		for i, s := range all {
			if s == nil || s.Batch != batches[1] || len(s.Changes) != 1 {
				t.Fatalf("site %d: %+v, want the newest batch with one change", i, s)
			}
		}
		for _, h := range hosts {
			if _, err := os.Stat(filepath.Join(dir, batches[1], evidence.DerivedDir, h+".json")); err != nil {
				t.Errorf("%s: no derived file: %v", h, err)
			}
		}
	})

	t.Run("done before", func(t *testing.T) {
		dir, list := writeBatches(t, batches, hosts)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		all, err := Build(ctx, list, dir, opt)
		if !errors.Is(err, context.Canceled) || all != nil {
			t.Fatalf("Build = %d sites, %v; want none and context.Canceled", len(all), err)
		}
		for _, b := range batches {
			if _, err := os.Stat(filepath.Join(dir, b, evidence.DerivedDir)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s: derived files kept by a build that never started: %v", b, err)
			}
		}
		if _, err := Needs(ctx, list, dir, opt); !errors.Is(err, context.Canceled) {
			t.Errorf("Needs = %v, want context.Canceled", err)
		}
		if _, _, err := Verify(ctx, list, dir, opt); !errors.Is(err, context.Canceled) {
			t.Errorf("Verify = %v, want context.Canceled", err)
		}
	})

	t.Run("done after the first site", func(t *testing.T) {
		dir, list := writeBatches(t, batches, hosts)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var handed atomic.Int32
		err := Each(ctx, list, dir, opt, func(i int, s *signals.Site) error {
			handed.Add(1)
			cancel() // Ctrl-C while the first site is written
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Each = %v, want context.Canceled", err)
		}
		if n := handed.Load(); n != 1 {
			t.Errorf("%d sites handed on, want 1", n)
		}
		for i, h := range hosts {
			_, err := os.Stat(filepath.Join(dir, batches[0], evidence.DerivedDir, h+".json"))
			if derived := err == nil; derived != (i == 0) {
				t.Errorf("%s: derived after the interrupt: %v", h, derived)
			}
		}
	})
}
