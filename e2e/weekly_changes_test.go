package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// make weekly says which sites' findings changed in the week's batch (the
// build's changes, as sites.json's last_changed gives them), and on GitHub
// (GITHUB_STEP_SUMMARY) the run's summary gets each shard's crawl summary
// and the sites that changed, as Markdown.
func TestWeeklySaysWhatChanged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	summary := filepath.Join(t.TempDir(), "summary.md")
	env := []string{"GITHUB_STEP_SUMMARY=" + summary}
	code, out := weekly(t, env, dir, "week")
	if code != 0 {
		t.Fatalf("week 1: exit %d\n%s", code, out)
	}
	week1 := weekBatch(t, out)
	if want := "weekly: no site's findings changed in batch " + week1 + "\n"; !strings.Contains(out, want) {
		t.Errorf("week 1 lacks %q:\n%s", want, out)
	}
	code, out = weekly(t, env, dir, "week")
	if code != 0 {
		t.Fatalf("week 2: exit %d\n%s", code, out)
	}
	week2 := weekBatch(t, out)
	// Stage 2 of the fixture web: avis.test refuses CCBot, feed.test's
	// Content-Signal refuses AI answers, kommune.test's terms changed;
	// nothing else did.
	if want := "weekly: findings changed in batch " + week2 + ": avis.test, feed.test, kommune.test (changes/ lists what changed)\n"; !strings.Contains(out, want) {
		t.Errorf("week 2 lacks %q:\n%s", want, out)
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### Crawl of batch " + week1 + ", shard 0/2\n",
		"### Crawl of batch " + week2 + ", shard 1/2\n",
		"### Sites whose findings changed in batch " + week1 + "\n\nNone: no site's findings changed since its previous batch.\n",
		"### Sites whose findings changed in batch " + week2 + "\n\n- avis.test\n- feed.test\n- kommune.test\n",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("GITHUB_STEP_SUMMARY lacks %q:\n%s", want, md)
		}
	}
}
