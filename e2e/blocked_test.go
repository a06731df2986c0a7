package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// TestBlockedSiteShowsNothingFromEarlierBatches: a site read in one batch
// asks us to stop. Its earlier evidence stays on disk, but nothing from it
// is published again: no document, no quote, no change history, both
// before the next batch (the block is in sites.toml only) and after it (a
// batch that sent no request).
func TestBlockedSiteShowsNothingFromEarlierBatches(t *testing.T) {
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	batches := filepath.Join(t.TempDir(), "batches")
	web := copyHosts(t, "kommune.test", "data.kommune.test")
	crawlInto(t, web, list, batches, "20261101T060000Z")

	open, err := derived.Build(context.Background(), list, batches, derived.Options{Content: crawlsignals.Content()})
	if err != nil {
		t.Fatal(err)
	}
	if s := find(open, "kommune.test"); len(s.Read) == 0 || len(s.Quotes) == 0 {
		t.Fatalf("the fixture's kommune.test reads nothing before the block; read %d, quotes %d", len(s.Read), len(s.Quotes))
	}

	k, _ := list.Lookup("kommune.test")
	k.Blocked, k.BlockedSince = true, "2026-11-15"
	check := func(when string) {
		all, err := derived.Build(context.Background(), list, batches, derived.Options{Content: crawlsignals.Content()})
		if err != nil {
			t.Fatal(err)
		}
		s := find(all, "kommune.test")
		if !s.Blocked || s.BlockedSince != "2026-11-15" || len(s.Read) != 0 || len(s.Quotes) != 0 || len(s.Changes) != 0 || len(s.Licences) != 0 || len(s.OtherRobots) != 0 || s.Robots.Outcome != "not-read" {
			t.Errorf("%s: blocked site shows earlier evidence: blocked %v since %q, %d read, %d quotes, %d changes, %d licences, robots %s",
				when, s.Blocked, s.BlockedSince, len(s.Read), len(s.Quotes), len(s.Changes), len(s.Licences), s.Robots.Outcome)
		}
	}
	check("before the next batch")
	crawlInto(t, web, list, batches, "20261201T060000Z")
	check("after a batch")
	if _, err := os.Stat(filepath.Join(batches, "20261101T060000Z", "kommune.test.warc.gz")); err != nil {
		t.Errorf("earlier evidence is gone: %v", err)
	}
}

func find(all []*signals.Site, host string) *signals.Site {
	for _, s := range all {
		if s.Host == host {
			return s
		}
	}
	return nil
}
