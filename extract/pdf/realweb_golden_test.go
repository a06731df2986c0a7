package pdf

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract/internal/readtest"
)

// updateGolden rewrites testdata/realweb-pdfs.sha256 from the current
// code: run it only when a change of what Extract reads is intended.
var updateGolden = flag.Bool("update-realweb-golden", false, "rewrite testdata/realweb-pdfs.sha256")

const goldenFile = "testdata/realweb-pdfs.sha256"

// TestRealwebPDFsUnchanged reads every real PDF of ../shared/realweb and
// compares a digest of what Extract returns (text, page counts, error)
// with the digests recorded in testdata, so a change made for speed
// cannot change a byte of what is read. The PDFs themselves stay outside
// the project; only digests are kept.
func TestRealwebPDFsUnchanged(t *testing.T) {
	pdfs, _ := filepath.Glob(filepath.Join(realwebDir, "*", "*.pdf"))
	if len(pdfs) == 0 {
		t.Skip("real PDFs not available (../shared/realweb)")
	}
	got := map[string]string{}
	for _, f := range pdfs {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text, info, err := Extract(body, 0)
		out, jerr := json.Marshal(struct {
			Text string
			Info Info
			Err  string
		}{text, info, fmt.Sprint(err)})
		if jerr != nil {
			t.Fatal(jerr)
		}
		sum := sha256.Sum256(out)
		got[filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f)] = hex.EncodeToString(sum[:])
	}
	readtest.CheckDigests(t, goldenFile, got, *updateGolden, "what Extract reads")
}
