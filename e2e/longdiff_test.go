package e2e_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// TestLongRobotsDiffThroughEvidence (issue 21, item 1): a robots.txt over
// 1,000 lines, crawled in two batches on the fixture web, is compared
// whole, from the WARC and again from the derived files: 1,200 comment
// lines that only moved and Sitemap lines still in the file are no
// change, and 3,000 added lines are listed in part and counted whole.
func TestLongRobotsDiffThroughEvidence(t *testing.T) {
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	batches := filepath.Join(t.TempDir(), "batches")
	web := copyHosts(t, "kommune.test", "data.kommune.test")
	base := string(web["kommune.test/robots.txt"].Data)
	var comments, added strings.Builder
	for i := 1; i <= 1200; i++ {
		fmt.Fprintf(&comments, "# note %d\n", i)
	}
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&added, "Disallow: /archive/%d/\n", i)
	}
	sitemaps := "Sitemap: https://kommune.test/sitemap-a.xml\nSitemap: https://kommune.test/sitemap-b.xml\n"
	// Batch 1: the file, then a group for another crawler, the comments and
	// the Sitemaps (the Sitemaps beyond line 1,000).
	v1 := base + "\nUser-agent: SomeBot\nDisallow: /x/\n" + comments.String() + sitemaps
	// Batch 2: the comments moved to the top, the Sitemaps just after them,
	// and 3,000 rules added to the other crawler's group.
	v2 := comments.String() + sitemaps + base + "\nUser-agent: SomeBot\nDisallow: /x/\n" + added.String()
	web["kommune.test/robots.txt"] = &fstest.MapFile{Data: []byte(v1)}
	crawlInto(t, web, list, batches, "20261101T060000Z")
	web["kommune.test/robots.txt"] = &fstest.MapFile{Data: []byte(v2)}
	crawlInto(t, web, list, batches, "20261201T060000Z")

	for _, build := range []string{"from the WARC", "from the derived files"} {
		all, err := derived.Build(context.Background(), list, batches, derived.Options{Code: "longdiff-test"})
		if err != nil {
			t.Fatal(err)
		}
		var s *signals.Site
		for _, x := range all {
			if x.Host == "kommune.test" {
				s = x
			}
		}
		if len(s.Changes) != 1 {
			t.Fatalf("%s: changes %+v", build, s.Changes)
		}
		if n := len(s.Robots.Lines); n != signals.MaxRobotsLines || s.Robots.LineCount < 4000 {
			t.Errorf("%s: %d lines shown of %d", build, n, s.Robots.LineCount)
		}
		var d *signals.Diff
		for i := range s.Changes[0].Diffs {
			if s.Changes[0].Diffs[i].What == "robots" {
				d = &s.Changes[0].Diffs[i]
			}
		}
		if d == nil {
			t.Fatalf("%s: no robots.txt diff: %+v", build, s.Changes[0])
		}
		if len(d.Added)+d.MoreAdded != 3000 || len(d.Added) == 0 || !strings.HasPrefix(d.Added[0], "Disallow: /archive/") {
			t.Errorf("%s: added %d listed + %d more, first %q; want 3,000 rules counted", build, len(d.Added), d.MoreAdded, d.Added)
		}
		if len(d.Removed) != 0 || d.MoreRemoved != 0 {
			t.Errorf("%s: removed %q (+%d): lines that moved, or Sitemaps still in the file", build, d.Removed, d.MoreRemoved)
		}
	}
}

// TestRobotsDiffPast500KiB (issue 39, item 12): a robots.txt longer than
// the 500 KiB its rules are read from still changes past them. Rules
// inserted near its top push lines past the cut, and rules appended at
// its end stand wholly past it: the diff compares every line kept, so
// the pushed lines are no removal and the appended ones are counted.
func TestRobotsDiffPast500KiB(t *testing.T) {
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	batches := filepath.Join(t.TempDir(), "batches")
	web := copyHosts(t, "kommune.test", "data.kommune.test")
	base := string(web["kommune.test/robots.txt"].Data)
	var long, inserted, appended strings.Builder
	for i := 1; long.Len() < 600<<10; i++ {
		fmt.Fprintf(&long, "Disallow: /catalogue/item-%06d/\n", i)
	}
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&inserted, "Disallow: /new-top/%d/\n", i)
	}
	for i := 1; i <= 524; i++ {
		fmt.Fprintf(&appended, "Disallow: /new-end/%d/\n", i)
	}
	group := "\nUser-agent: SomeBot\n"
	v1 := base + group + long.String()
	v2 := base + group + inserted.String() + long.String() + appended.String()
	web["kommune.test/robots.txt"] = &fstest.MapFile{Data: []byte(v1)}
	crawlInto(t, web, list, batches, "20261101T060000Z")
	web["kommune.test/robots.txt"] = &fstest.MapFile{Data: []byte(v2)}
	crawlInto(t, web, list, batches, "20261201T060000Z")

	for _, build := range []string{"from the WARC", "from the derived files"} {
		all, err := derived.Build(context.Background(), list, batches, derived.Options{Code: "longdiff-test"})
		if err != nil {
			t.Fatal(err)
		}
		var s *signals.Site
		for _, x := range all {
			if x.Host == "kommune.test" {
				s = x
			}
		}
		if len(s.Changes) != 1 {
			t.Fatalf("%s: changes %+v", build, s.Changes)
		}
		var d *signals.Diff
		for i := range s.Changes[0].Diffs {
			if s.Changes[0].Diffs[i].What == "robots" {
				d = &s.Changes[0].Diffs[i]
			}
		}
		if d == nil {
			t.Fatalf("%s: no robots.txt diff: %+v", build, s.Changes[0])
		}
		if n := len(d.Added) + d.MoreAdded; n != 624 || !strings.HasPrefix(d.Added[0], "Disallow: /new-top/") {
			t.Errorf("%s: added %d (first %q); want the 100 inserted and 524 appended rules", build, n, d.Added[0])
		}
		if len(d.Removed) != 0 || d.MoreRemoved != 0 {
			t.Errorf("%s: removed %q (+%d): lines pushed past 500 KiB are still in the file", build, d.Removed, d.MoreRemoved)
		}
	}
}
