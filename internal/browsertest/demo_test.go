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
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/internal/sitecheck"
	"github.com/crawlsignals/crawlsignals/render"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

var (
	demoOnce sync.Once
	demoDir  string
	demoErr  error
)

// demoSite builds the demo website once per test run, as `crawlsignals
// demo` does: serve the fixture web on loopback, crawl it with the real
// crawler, derive the findings and render them.
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
	srv, err := fixture.New(crawlsignals.FixtureWeb())
	if err != nil {
		return "", err
	}
	addr, roots, err := srv.StartTLS()
	if err != nil {
		return "", err
	}
	defer srv.Close()
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		return "", err
	}
	resolve := map[string]string{}
	for _, s := range list.Sites {
		for _, h := range s.Hosts {
			resolve[h] = addr
		}
	}
	batches := filepath.Join(dir, "batches")
	c, err := crawl.New(crawl.Config{Batches: batches, MinDelay: 50 * time.Millisecond, Resolve: resolve,
		Client: crawl.NewClient(crawl.ClientOptions{Resolve: resolve, RootCAs: roots})}, list, nil)
	if err != nil {
		return "", err
	}
	if _, err := c.Run(context.Background(), nil); err != nil {
		return "", err
	}
	all, err := signals.Build(list, batches, signals.Options{})
	if err != nil {
		return "", err
	}
	r, err := render.New()
	if err != nil {
		return "", err
	}
	public := filepath.Join(dir, "public")
	return public, r.Build(public, render.Input{Sites: all, Content: crawlsignals.Content(), Contact: list.Global.Contact})
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
