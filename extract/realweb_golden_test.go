package extract

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
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
// footer, alternates, app shell, charset), and of what PDFExtract returns
// for every real PDF, with the digests recorded in
// testdata, so a change made for speed cannot change a byte of what is
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
	pdfs, _ := filepath.Glob(filepath.Join(realwebDir, "*", "*.pdf"))
	for _, f := range pdfs {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text, info, err := PDFExtract(body, 0)
		out, jerr := json.Marshal(struct {
			Text string
			Info PDFInfo
			Err  string
		}{text, info, fmt.Sprint(err)})
		if jerr != nil {
			t.Fatal(jerr)
		}
		sum := sha256.Sum256(out)
		got[filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f)] = hex.EncodeToString(sum[:])
	}
	if *updateGolden {
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s  %s\n", got[k], k)
		}
		if err := os.WriteFile(goldenFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	fh, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if sum, key, ok := strings.Cut(sc.Text(), "  "); ok {
			want[key] = sum
		}
	}
	for k, sum := range got {
		switch w, ok := want[k]; {
		case !ok:
			t.Errorf("%s: no recorded digest (a new page in ../shared/realweb? run with -update-realweb-golden on the unchanged code)", k)
		case w != sum:
			t.Errorf("%s: what HTML reads changed (digest %s, recorded %s)", k, sum[:12], w[:12])
		}
	}
}
