package main

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/sites"
)

// demoDelay paces the demo: well under the 2 s floor, which is allowed
// only because every host is mapped to the fixture web on loopback.
const demoDelay = 100 * time.Millisecond

func runDemo(ctx context.Context, e *env, args []string) error {
	f := flags(e, "demo", "[flags]")
	out := f.String("out", "public", "folder to write the website to")
	base := baseURLFlag(f)
	batches := f.String("batches", filepath.Join("batches", "demo"), "folder of the demo's evidence batches")
	content := f.String("content", "content", "folder of Markdown content; the built-in copy when absent")
	if err := parse(f, args); err != nil {
		return err
	}
	started := time.Now()
	srv, err := fixture.New(crawlsignals.FixtureWeb())
	if err != nil {
		return err
	}
	addr, roots, err := srv.StartTLS()
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintf(e.stdout, "fixture web: %d hosts on %s (loopback only)\n", len(srv.Hosts()), addr)

	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		return err
	}
	resolve := map[string]string{}
	for _, s := range list.Sites {
		for _, h := range s.Hosts {
			resolve[h] = addr
		}
	}
	sum, err := crawlList(ctx, e, list, crawl.Config{
		Batches: *batches, MinDelay: demoDelay, Resolve: resolve,
		SitesFile: "testdata/demo/sites.toml (built in)", SitesSHA256: sha256Hex(crawlsignals.DemoSites()),
		Client: crawl.NewClient(crawl.ClientOptions{Resolve: resolve, RootCAs: roots}),
	}, nil)
	if err != nil {
		return err
	}
	// The fixture server's own log is the judge: a site that asked us to
	// stop got no request of any kind.
	blocked := map[string]bool{}
	for _, s := range list.Sites {
		for _, h := range s.Hosts {
			blocked[h] = blocked[h] || s.Blocked
		}
	}
	sent := 0
	for _, r := range srv.Log() {
		if blocked[r.Host] {
			sent++
		}
	}
	fmt.Fprintf(e.stdout, "requests to sites that asked us to stop: %d\n", sent)
	if sent > 0 {
		return fmt.Errorf("%d requests went to a blocked site", sent)
	}
	cfs := contentFS(*content)
	if cfs == nil {
		cfs = crawlsignals.Content()
	}
	if err := build(ctx, e, list, *batches, cfs, *out, *base); err != nil {
		return err
	}
	size, _ := dirSize(sum.Dir)
	fmt.Fprintf(e.stdout, "demo done in %s: %d requests to the fixture web, batch %s (%.1f KB on disk)\n",
		time.Since(started).Round(time.Millisecond), len(srv.Log()), sum.Dir, float64(size)/1000)
	abs, _ := filepath.Abs(filepath.Join(*out, "index.html"))
	fmt.Fprintf(e.stdout, "open %s, or run: crawlsignals serve -dir %s\n", abs, *out)
	return nil
}

func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if info, err := d.Info(); err == nil && !d.IsDir() {
			n += info.Size()
		}
		return nil
	})
	return n, err
}
