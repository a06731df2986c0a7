package crawl

import (
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// A crash or a full disk between the WARC's rename and the manifest's write
// leaves a complete WARC and no manifest (and no done.json). Resume
// recognises it: the WARC is set aside unchanged, its answers are reused
// (the site is asked nothing again) and the site gets its manifest.
func TestResumeAfterCrashBeforeManifest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, nil)
		batches := t.TempDir()
		cfg := Config{Batches: batches, Batch: "20261201T060000Z"}
		first := crawlMemory(t, srv, demoList(t), []string{"kommune.test"}, cfg)
		if first.err != nil {
			t.Fatal(first.err)
		}
		dir := first.sum.Dir
		warc, _ := os.ReadFile(filepath.Join(dir, "kommune.test.warc.gz"))
		for _, f := range []string{"kommune.test.json", "kommune.test.text.jsonl", "done.json"} {
			if err := os.Remove(filepath.Join(dir, f)); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
		if errs := evidence.Verify(dir); len(errs) == 0 {
			t.Error("evidence verify finds nothing wrong with a WARC that has no manifest")
		}
		asked := len(srv.Log())

		cfg.Resume = true
		second := crawlMemory(t, srv, demoList(t), []string{"kommune.test"}, cfg)
		if second.err != nil {
			t.Fatalf("resume: %v", second.err)
		}
		if again := srv.Log()[asked:]; len(again) > 0 {
			t.Errorf("resume asked the site again %d times, first %s%s", len(again), again[0].Host, again[0].Path)
		}
		if kept, _ := os.ReadFile(filepath.Join(dir, "kommune.test.warc.gz.aborted.1")); string(kept) != string(warc) {
			t.Error("the WARC without a manifest was not set aside unchanged")
		}
		if len(second.mans["kommune.test"].Addresses) != len(first.mans["kommune.test"].Addresses) {
			t.Errorf("resumed manifest has %d addresses, first run %d", len(second.mans["kommune.test"].Addresses), len(first.mans["kommune.test"].Addresses))
		}
		if errs := evidence.Verify(dir); len(errs) > 0 {
			t.Errorf("verify after resume: %v", errs)
		}
	})
}
