package crawlsignals_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Issue 40: nothing published is trusted further than its evidence. Each
// test below replays one attack of the audit on a store the real crawler
// wrote.

// twoPDFWeb is a site whose footer links two PDFs: its terms, which
// refuse automated collection, and its privacy notice, which says nothing of
// it.
func twoPDFWeb() fstest.MapFS {
	return fstest.MapFS{
		"treg.test/robots.txt": {Data: []byte("User-agent: *\nAllow: /\n")},
		"treg.test/index.html": {Data: []byte("<!DOCTYPE html>\n<html lang=\"nb\"><head><title>Treg</title></head><body><main><p>Hei.</p></main>" +
			"<footer><a href=\"/vilkar.pdf\">Vilkår</a> <a href=\"/personvern.pdf\">Personvern</a></footer></body></html>\n")},
		"treg.test/vilkar.pdf":     {Data: []byte("%PDF-1.7\n(the terms)\n")},
		"treg.test/personvern.pdf": {Data: []byte("%PDF-1.7\n(the privacy notice)\n")},
	}
}

// twoPDFTexts is what the test's PDF reader reads from each PDF.
var twoPDFTexts = map[string]string{
	"%PDF-1.7\n(the terms)\n":          "Automatisert innhenting av innhold er forbudt uten samtykke. Innholdet kan ikke brukes til å trene kunstig intelligens.",
	"%PDF-1.7\n(the privacy notice)\n": "Vi lagrer navnet ditt i ett år.",
}

func twoPDFReader(body []byte) (string, error) { return twoPDFTexts[string(body)], nil }

// crawlTwoPDFs crawls twoPDFWeb keeping the texts of its PDFs, as a
// crawl by the code "test-1" does; it returns the list and the batches.
func crawlTwoPDFs(t *testing.T) (*sites.List, string) {
	t.Helper()
	srv, err := fixture.New(twoPDFWeb())
	if err != nil {
		t.Fatal(err)
	}
	list, err := sites.Parse("test.toml", []byte(tregList))
	if err != nil {
		t.Fatal(err)
	}
	read, done := signals.Options{Code: "test-1", PDF: twoPDFReader}.CrawlPDFReader(1)
	defer done()
	batches := t.TempDir()
	c, err := crawl.New(crawl.Config{Batches: batches, PDFText: read, Client: crawl.NewClient(crawl.ClientOptions{Transport: srv.Transport()})}, list, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	return list, batches
}

// keptPDFPath is the kept text of the PDF with these bytes in batches' one batch.
func keptPDFPath(t *testing.T, batches, body string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(body))
	paths, _ := filepath.Glob(filepath.Join(batches, "*", signals.DerivedDir, "pdf", hex.EncodeToString(sum[:])+".json"))
	if len(paths) != 1 {
		t.Fatalf("kept texts of the PDF: %v, want one", paths)
	}
	return paths[0]
}

// forgeDerived rewrites a derived file's content with edit and writes the
// digest of the new content with it, as a forger who knows the layout does.
func forgeDerived(t *testing.T, path string, edit func(content map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		t.Fatal(err)
	}
	edit(env.Content)
	content, err := json.Marshal(env.Content)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(content)
	out := `{"sha256":"` + hex.EncodeToString(sum[:]) + `","content":` + string(content) + `}`
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// differencesName fails the test unless some difference names file, and
// every one names a file of files.
func differencesName(t *testing.T, what string, found []signals.Difference, files ...string) {
	t.Helper()
	named := map[string]bool{}
	for _, d := range found {
		named[d.File] = true
		if !slices.Contains(files, d.File) {
			t.Errorf("%s: a difference in a file not changed: %s", what, d)
		}
	}
	for _, f := range files {
		if !named[f] {
			t.Errorf("%s: %s is not named; differences: %v", what, f, found)
		}
	}
}

// TestKeptPDFTextsSwapped: two kept PDF texts swapped with mv (no digest
// recomputed). The build must not show either text under the other PDF:
// it reads both PDFs again and publishes what a build without any kept
// text publishes; Verify names both files.
func TestKeptPDFTextsSwapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		list, batches := crawlTwoPDFs(t)
		terms := keptPDFPath(t, batches, "%PDF-1.7\n(the terms)\n")
		prices := keptPDFPath(t, batches, "%PDF-1.7\n(the privacy notice)\n")
		swap := filepath.Join(filepath.Dir(terms), "swap")
		for _, mv := range [][2]string{{terms, swap}, {prices, terms}, {swap, prices}} {
			if err := os.Rename(mv[0], mv[1]); err != nil {
				t.Fatal(err)
			}
		}
		_, found, err := signals.Verify(list, batches, signals.Options{Code: "test-1", PDF: twoPDFReader})
		if err != nil {
			t.Fatal(err)
		}
		differencesName(t, "verify after the swap", found, terms, prices)

		all, err := signals.Build(list, batches, signals.Options{Code: "test-1", PDF: twoPDFReader})
		if err != nil {
			t.Fatal(err)
		}
		var under []string
		for _, q := range all[0].Quotes {
			if strings.Contains(q.Text, "Automatisert") {
				under = append(under, q.URL)
			}
		}
		if len(under) != 1 || !strings.HasSuffix(under[0], "/vilkar.pdf") {
			t.Errorf("the terms' sentence is quoted under %v, want the terms only", under)
		}
		swapped := buildTo(t, list, batches, signals.Options{Code: "test-1", PDF: twoPDFReader})
		if err := signals.RemoveDerived(batches); err != nil {
			t.Fatal(err)
		}
		sameTree(t, "kept texts swapped vs none kept", swapped, buildTo(t, list, batches, signals.Options{Code: "test-1", PDF: twoPDFReader}))
	})
}

// TestKeptPDFTextForged: a sentence added to a kept text, its digest
// recomputed. Verify reads the PDF again, names the file and the field,
// and changes nothing.
func TestKeptPDFTextForged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		list, batches := crawlTwoPDFs(t)
		prices := keptPDFPath(t, batches, "%PDF-1.7\n(the privacy notice)\n")
		forgeDerived(t, prices, func(c map[string]any) {
			c["text"] = c["text"].(string) + " Det er ikke tillatt å bruke innholdet til å trene kunstig intelligens."
		})
		before, err := os.ReadFile(prices)
		if err != nil {
			t.Fatal(err)
		}
		_, found, err := signals.Verify(list, batches, signals.Options{Code: "test-1", PDF: twoPDFReader})
		if err != nil {
			t.Fatal(err)
		}
		differencesName(t, "verify after the forgery", found, prices)
		for _, d := range found {
			if !slices.Contains(d.Fields, "text") {
				t.Errorf("%s: want the field text named", d)
			}
		}
		if after, _ := os.ReadFile(prices); string(after) != string(before) {
			t.Error("verify changed the forged file")
		}
		if n := len(derivedFiles(t, batches)); n != 2 {
			t.Errorf("verify wrote derived files: %d there, want the crawl's 2 kept texts", n)
		}
	})
}
