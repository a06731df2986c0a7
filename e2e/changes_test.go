package e2e_test

import (
	"context"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// copyHosts copies the named hosts of the fixture web into a MapFS that a
// test may change.
func copyHosts(t *testing.T, hosts ...string) fstest.MapFS {
	t.Helper()
	web := crawlsignals.FixtureWeb()
	out := fstest.MapFS{}
	for _, h := range hosts {
		err := fs.WalkDir(web, h, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(web, p)
			out[p] = &fstest.MapFile{Data: data}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func crawlInto(t *testing.T, web fs.FS, list *sites.List, batches, batch string) {
	t.Helper()
	srv, err := fixture.New(web)
	if err != nil {
		t.Fatal(err)
	}
	addr, roots, err := srv.StartTLS()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	resolve := map[string]string{"kommune.test": addr, "data.kommune.test": addr}
	c, err := crawl.New(crawl.Config{Batches: batches, Batch: batch, MinDelay: 20 * time.Millisecond, Resolve: resolve,
		Client: guard.NewClient(guard.Options{Resolve: resolve, RootCAs: roots})}, list, []string{"kommune.test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background(), []string{"kommune.test"}); err != nil {
		t.Fatal(err)
	}
}

func TestChangesBetweenBatches(t *testing.T) {
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	batches := filepath.Join(t.TempDir(), "batches")
	web := copyHosts(t, "kommune.test", "data.kommune.test")
	crawlInto(t, web, list, batches, "20261101T060000Z")

	// A month later: robots.txt now shuts GPTBot out, the terms lost a sentence.
	robots := string(web["kommune.test/robots.txt"].Data) + "\nUser-agent: GPTBot\nDisallow: /\n"
	web["kommune.test/robots.txt"] = &fstest.MapFile{Data: []byte(robots)}
	terms := string(web["kommune.test/vilkar.html"].Data)
	if !strings.Contains(terms, "Dette gjelder også innsamling med sikte på maskinlæring.") {
		t.Fatal("fixture terms page changed; update this test")
	}
	web["kommune.test/vilkar.html"] = &fstest.MapFile{Data: []byte(strings.Replace(terms, "Dette gjelder også innsamling med sikte på maskinlæring.", "", 1))}
	crawlInto(t, web, list, batches, "20261201T060000Z")

	all, err := derived.Build(context.Background(), list, batches, derived.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var s *signals.Site
	for _, x := range all {
		if x.Host == "kommune.test" {
			s = x
		}
	}
	if s.Batch != "20261201T060000Z" || len(s.Changes) != 1 {
		t.Fatalf("batch %s, changes %+v", s.Batch, s.Changes)
	}
	c := s.Changes[0]
	if c.Previous != "20261101T060000Z" {
		t.Errorf("compared with %s", c.Previous)
	}
	want := []string{"robots.txt changed", "GPTBot: allowed → disallowed", "text changed: https://kommune.test/vilkar"}
	for _, w := range want {
		found := false
		for _, item := range c.Items {
			found = found || item == w
		}
		if !found {
			t.Errorf("change %q not recorded; items: %v", w, c.Items)
		}
	}
	for _, item := range c.Items {
		if strings.Contains(item, "personvern") || strings.Contains(item, "apne-data") {
			t.Errorf("unchanged page reported as changed: %s", item)
		}
	}
	// The diffs: exactly the robots.txt lines added and the sentence that
	// went, nothing unchanged, each quoted from the batch it stood in.
	diffs := map[string]signals.Diff{}
	for _, d := range c.Diffs {
		diffs[d.What+" "+d.URL] = d
	}
	if len(c.Diffs) != 2 {
		t.Errorf("diffs: %+v, want one for robots.txt and one for the terms", c.Diffs)
	}
	r := diffs["robots https://kommune.test/robots.txt"]
	if !slices.Equal(r.Added, []string{"User-agent: GPTBot", "Disallow: /"}) || len(r.Removed) != 0 {
		t.Errorf("robots.txt diff: %+v", r)
	}
	d := diffs["document https://kommune.test/vilkar"]
	if !slices.Equal(d.Removed, []string{"Dette gjelder også innsamling med sikte på maskinlæring."}) || len(d.Added) != 0 {
		t.Errorf("terms diff: %+v", d)
	}
	// The trend: one entry per batch, GPTBot's verdict in each.
	if len(s.History) != 2 || s.History[0].Verdict("GPTBot") != "allowed" || s.History[1].Verdict("GPTBot") != "disallowed" ||
		s.History[1].Verdict("ClaudeBot") != "allowed" || !slices.Equal(s.History[1].Disallowed, []string{"GPTBot"}) {
		t.Errorf("history: %+v", s.History)
	}
}
