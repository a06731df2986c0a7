package extract

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract/internal/readtest"
)

// updateGolden rewrites testdata/realweb-pages.sha256 from the current
// code: run it only when a change of what HTML reads is intended.
var updateGolden = flag.Bool("update-realweb-golden", false, "rewrite testdata/realweb-pages.sha256")

const goldenFile = "testdata/realweb-pages.sha256"

// goldenContentTypes are the headers each real page is read with: none
// (meta, then UTF-8 validity decide), a Western label (the UTF-8 override
// rule), and a single-byte label that is decoded as written.
var goldenContentTypes = []string{"text/html", "text/html; charset=iso-8859-1", "text/html; charset=koi8-r"}

// TestRealwebPagesUnchanged reads every real HTML page of ../shared/realweb
// and compares a digest of everything HTML returns (text, blocks, links,
// footer, alternates, app shell, charset) with the digests recorded in
// testdata (extract/pdf does the same for every real PDF), so a change made for speed cannot change a byte of what is
// read. The pages themselves stay outside the project; only digests are
// kept.
func TestRealwebPagesUnchanged(t *testing.T) {
	files := realwebHTMLFiles(t)
	if len(files) == 0 {
		t.Skip("real pages not available (../shared/realweb)")
	}
	got := map[string]string{}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		base, _ := url.Parse("https://" + strings.TrimSuffix(filepath.Base(f), ".html") + ".test/a/b/")
		for i, ct := range goldenContentTypes {
			page, err := HTML(body, ct, base)
			var out []byte
			if err != nil {
				out = []byte("error: " + err.Error())
			} else if out, err = json.Marshal(page); err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(out)
			got[fmt.Sprintf("%s#%d", name, i)] = hex.EncodeToString(sum[:])
		}
	}
	readtest.CheckDigests(t, goldenFile, got, *updateGolden, "what HTML reads")
}
