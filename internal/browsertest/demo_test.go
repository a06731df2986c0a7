package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/internal/demo"
	"github.com/crawlsignals/crawlsignals/internal/sitecheck"
	"github.com/crawlsignals/crawlsignals/render"
)

var (
	demoOnce sync.Once
	demoDir  string
	demoErr  error
)

// demoSite builds the demo website once per test run, as `crawlsignals
// demo` run twice does: serve the fixture web on loopback, crawl it with
// the real crawler in two batches (the web changes between them), twice
// (so there are earlier batches with a change, each on a page of its
// own), derive the findings and render them.
func demoSite(t *testing.T) string {
	t.Helper()
	demoOnce.Do(func() { demoDir, demoErr = buildDemo() })
	if demoErr != nil {
		t.Fatal(demoErr)
	}
	return demoDir
}

func buildDemo() (string, error) {
	dir, err := os.MkdirTemp("", "crawlsignals-browsertest-")
	if err != nil {
		return "", err
	}
	batches := filepath.Join(dir, "batches")
	var got *demo.Crawled
	for range 2 {
		got, err = demo.Crawl(context.Background(), crawl.Config{Batches: batches, MinDelay: 50 * time.Millisecond}, nil)
		if err != nil {
			return "", err
		}
	}
	all, err := derived.Build(context.Background(), got.List, batches, derived.Options{})
	if err != nil {
		return "", err
	}
	if _, err := demo.Cases(all); err != nil {
		return "", err
	}
	r, err := render.New()
	if err != nil {
		return "", err
	}
	public := filepath.Join(dir, "public")
	return public, r.Build(context.Background(), public, render.Input{Sites: all, Content: crawlsignals.Content(), Contact: got.List.Global.Contact})
}

// TestDemoSiteIsSound needs no browser: every page of the demo build is
// well-formed with its landmarks, and every internal link resolves.
func TestDemoSiteIsSound(t *testing.T) {
	dir := demoSite(t)
	problems, err := sitecheck.Check(dir, "/")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}
