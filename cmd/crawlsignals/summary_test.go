package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/sites"
)

// fixtureTLS serves the fixture web over TLS on loopback and returns the
// server and the flags that crawl the demo list from it.
func fixtureTLS(t *testing.T) (*fixture.Server, []string) {
	t.Helper()
	srv, err := fixture.New(crawlsignals.FixtureWeb())
	if err != nil {
		t.Fatal(err)
	}
	addr, _, err := srv.StartTLS()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, srv.CAPEM(), 0o644); err != nil {
		t.Fatal(err)
	}
	list, err := sites.Load(demoSites)
	if err != nil {
		t.Fatal(err)
	}
	flags := []string{"-sites", demoSites, "-ca", ca, "-min-delay", "100ms"}
	for _, s := range list.Sites {
		for _, h := range s.Hosts {
			flags = append(flags, "-resolve", h+"="+addr)
		}
	}
	return srv, flags
}

// The crawl ends with what it read and what it did not: the sites read
// fully, those with gaps by their main reason (with the host's answer),
// those skipped because they asked us to stop, and, once the folder holds
// an earlier batch, where the changes since it are found. The same goes
// to the run's summary page on GitHub as Markdown.
func TestCrawlEndSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls the fixture web twice")
	}
	_, flags := fixtureTLS(t)
	batches := filepath.Join(t.TempDir(), "batches")
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)

	crawlArgs := func(batch string) []string {
		return append(append([]string{"crawl"}, flags...), "-batches", batches, "-batch", batch)
	}
	code, out, stderr := runCmd(t, crawlArgs("20200101T000000Z")...)
	if code != exitOK {
		t.Fatalf("crawl: exit %d\n%s%s", code, out, stderr)
	}
	for _, want := range []string{
		"\nbatch 20200101T000000Z: 21 sites, ",
		"\n  read fully: 11 sites\n",
		"\n  read with gaps: 9 sites, by main reason:\n",
		"\n    robots.txt answered 503: 1 (nede.test)\n",
		"\n    robots.txt answered with a bot challenge: 1 (vakt.test)\n",
		"\n    robots.txt disallows us: 1 (avis.test)\n",
		"\n  skipped, asked us to stop (blocked): 1 (stopp.test)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the end of the first crawl lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "changes since") {
		t.Errorf("the first batch of the folder speaks of changes:\n%s", out)
	}

	code, out, stderr = runCmd(t, crawlArgs("20200108T000000Z")...)
	if code != exitOK {
		t.Fatalf("second crawl: exit %d\n%s%s", code, out, stderr)
	}
	if want := "\n  changes since the previous batch (20200101T000000Z): run build (changes/ lists them)\n"; !strings.HasSuffix(out, want[1:]) {
		t.Errorf("the second crawl does not end with %q:\n%s", want, out)
	}

	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### Crawl of batch 20200101T000000Z\n\nbatch 20200101T000000Z: 21 sites, ",
		"\n- read fully: 11 sites\n- read with gaps: 9 sites, by main reason:\n",
		"\n  - robots.txt answered 503: 1 (nede.test)\n",
		"\n- skipped, asked us to stop (blocked): 1 (stopp.test)\n",
		"### Crawl of batch 20200108T000000Z\n",
		"\n- changes since the previous batch (20200101T000000Z): run build (changes/ lists them)\n",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("GITHUB_STEP_SUMMARY lacks %q:\n%s", want, md)
		}
	}
}

// recheck builds, so it says whether the site's findings changed since
// its previous batch and what changed (the build's signals.Change), or
// that nothing did; on GitHub in the run's summary too.
func TestRecheckSaysWhatChanged(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls the fixture web")
	}
	srv, flags := fixtureTLS(t)
	dir := t.TempDir()
	batches := filepath.Join(dir, "batches")
	summary := filepath.Join(dir, "summary.md")
	if code, out, stderr := runCmd(t, append(append([]string{"crawl"}, flags...), "-batches", batches, "-batch", "20200101T000000Z")...); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s%s", code, out, stderr)
	}
	// Stage 2: kommune.test's terms changed (testdata/web/README.md,
	// "Stages"). (avis.test's robots.txt changed too, but a re-check reuses
	// a robots.txt less than 24 h old.)
	if err := srv.SetStage(2); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	recheck := func(host string) string {
		t.Helper()
		args := append(append([]string{"recheck"}, flags...), "-batches", batches, "-out", filepath.Join(dir, "public"), "-content", filepath.Join(dir, "none"), host)
		code, out, stderr := runCmd(t, args...)
		if code != exitOK {
			t.Fatalf("recheck %s: exit %d\n%s%s", host, code, out, stderr)
		}
		return out
	}
	out := recheck("kommune.test")
	for _, want := range []string{
		"\nkommune.test changed since the previous batch (20200101T000000Z): ",
		"\n  text changed: https://kommune.test/vilkar\n",
		"\n  kommune.test: read fully (10 read)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("recheck kommune.test lacks %q:\n%s", want, out)
		}
	}
	if i, j := strings.Index(out, "changed since the previous batch"), strings.Index(out, "rechecked = ["); i < 0 || j < i {
		t.Errorf("the line to add to sites.toml should come last:\n%s", out)
	}

	// A re-check names its batch by its start second: the next one needs
	// a second of its own.
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
	out = recheck("butikk.test")
	if want := "\nbutikk.test: nothing changed since the previous batch (20200101T000000Z)\n"; !strings.Contains(out, want) {
		t.Errorf("recheck butikk.test lacks %q:\n%s", want, out)
	}

	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### Re-check of kommune.test\n\nrecheck batch ",
		"\n- kommune.test changed since the previous batch (20200101T000000Z): ",
		"\n  - text changed: https://kommune.test/vilkar\n",
		"### Re-check of butikk.test\n",
		"\n- butikk.test: nothing changed since the previous batch (20200101T000000Z)\n",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("GITHUB_STEP_SUMMARY lacks %q:\n%s", want, md)
		}
	}
}
