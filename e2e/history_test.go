package e2e_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/internal/sitecheck"
	"github.com/crawlsignals/crawlsignals/render"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Issue 25, item 1: a site's history is one record per site, extended by
// each new batch. A build that has only the newest batch's evidence, the
// earlier batches' manifests and the record (every earlier WARC and
// derived file gone, as in the publish job) gives the same website, to the
// byte, as a build of every batch's evidence; and last_changed looks back
// further than the MaxHistory batches the page shows.
func TestHistoryRecordEqualsAllEvidence(t *testing.T) {
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	all := filepath.Join(t.TempDir(), "all")   // every batch's evidence, never built
	part := filepath.Join(t.TempDir(), "part") // what the publish job has
	web := copyHosts(t, "kommune.test", "data.kommune.test")
	n := signals.MaxHistory + 3
	var names []string
	var last string
	for i := range n {
		b := fmt.Sprintf("202611%02dT060000Z", i+1)
		names = append(names, b)
		switch i {
		case 1: // a change that falls out of the pages' window
			robots := string(web["kommune.test/robots.txt"].Data) + "\nUser-agent: GPTBot\nDisallow: /\n"
			web["kommune.test/robots.txt"] = &fstest.MapFile{Data: []byte(robots)}
		}
		crawlInto(t, web, list, all, b)
		copyBatches(t, filepath.Join(all, b), filepath.Join(part, b))
		// Earlier batches keep their manifests and batch records only.
		for _, e := range names[:i] {
			for _, f := range []string{"kommune.test.warc.gz", "kommune.test.texts.json"} {
				os.Remove(filepath.Join(part, e, f))
			}
			if err := os.RemoveAll(filepath.Join(part, e, evidence.DerivedDir)); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(part, e, "kommune.test.json")); err != nil {
				t.Fatal(err)
			}
		}
		if i < n-1 {
			got, err := derived.Build(context.Background(), list, part, derived.Options{Code: "test-1", Content: crawlsignals.Content()})
			if err != nil {
				t.Fatalf("batch %d of %d, built from the history record: %v", i+1, n, err)
			}
			for _, s := range got {
				// Shown while the batch it compares with is among the newest MaxHistory.
				shown := i >= 1 && i < signals.MaxHistory
				if s.Host == "kommune.test" && shown != (len(s.Changes) == 1 && s.Changes[0].Batch == names[1]) {
					t.Errorf("batch %d: changes %+v, want the one of %s: %v", i+1, s.Changes, names[1], shown)
				}
			}
		}
		last = buildTo(t, list, part, derived.Options{Workers: 8, Code: "test-1"})
	}
	// What a build needs whole: the newest batch, while the record holds;
	// every batch under another code version.
	if got, err := derived.Needs(context.Background(), list, part, derived.Options{Code: "test-1", Content: crawlsignals.Content()}); err != nil || !slices.Equal(got, names[n-1:]) {
		t.Errorf("needs %q, %v; want %q", got, err, names[n-1:])
	}
	if got, err := derived.Needs(context.Background(), list, part, derived.Options{Code: "test-2", Content: crawlsignals.Content()}); err != nil || !slices.Equal(got, names) {
		t.Errorf("needs under another code %q, %v; want every batch", got, err)
	}
	cold := buildTo(t, list, all, derived.Options{Workers: 1, Code: "test-1"})
	sameTree(t, "every batch's evidence vs the newest batch and the history record", cold, last)

	// Every link resolves: the directory names the older change without
	// linking to a batch changes/ no longer shows.
	problems, err := sitecheck.Check(cold, render.DefaultBaseURL)
	if err != nil || len(problems) > 0 {
		t.Errorf("site check: %v %q", err, problems)
	}
	page, err := os.ReadFile(filepath.Join(cold, "sites", "kommune.test", "index.html"))
	if err != nil || !strings.Contains(string(page), "The last change we found is older, in the batch of") {
		t.Errorf("the site's page does not name the older change: %v", err)
	}
	got, err := derived.Build(context.Background(), list, all, derived.Options{Code: "test-1", Fresh: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got {
		if s.Host != "kommune.test" {
			continue
		}
		if len(s.History) != signals.MaxHistory || len(s.Changes) != 0 {
			t.Errorf("%d batches' verdicts and %d changes shown, want %d and none", len(s.History), len(s.Changes), signals.MaxHistory)
		}
		if lc := s.LastChanged(); lc == nil || *lc != names[1] {
			t.Errorf("last_changed %v, want %s, older than the batches shown", lc, names[1])
		}
	}
}

// A history record that does not match what it rests on is folded again:
// one of another curation, and one whose earlier evidence changed (its
// chain), which a fresh build (verify) reads every manifest to find.
func TestHistoryRecordStaleIsFoldedAgain(t *testing.T) {
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	batches := filepath.Join(t.TempDir(), "batches")
	web := copyHosts(t, "kommune.test", "data.kommune.test")
	crawlInto(t, web, list, batches, "20261101T060000Z")
	robots := string(web["kommune.test/robots.txt"].Data) + "\nUser-agent: GPTBot\nDisallow: /\n"
	web["kommune.test/robots.txt"] = &fstest.MapFile{Data: []byte(robots)}
	crawlInto(t, web, list, batches, "20261201T060000Z")
	opt := derived.Options{Code: "test-1"}
	if _, err := derived.Build(context.Background(), list, batches, opt); err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(batches, evidence.DerivedDir, "kommune.test.history.json")
	kept, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	// The earlier batch's evidence swapped for the newer's: the same
	// names, the newest manifest unchanged, a history that no longer holds.
	for _, f := range []string{"kommune.test.json", "kommune.test.warc.gz", "data.kommune.test.json", "data.kommune.test.warc.gz"} {
		data, err := os.ReadFile(filepath.Join(batches, "20261201T060000Z", f))
		if err != nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(batches, "20261101T060000Z", f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.RemoveAll(filepath.Join(batches, "20261101T060000Z", evidence.DerivedDir))
	fresh, err := derived.Build(context.Background(), list, batches, derived.Options{Code: "test-1", Fresh: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range fresh {
		if s.Host == "kommune.test" && len(s.Changes) != 0 {
			t.Errorf("a fresh build kept the record's changes over evidence that has none: %+v", s.Changes)
		}
	}
	if now, _ := os.ReadFile(record); string(now) == string(kept) {
		t.Error("the fresh build did not fold the record again")
	}
}
