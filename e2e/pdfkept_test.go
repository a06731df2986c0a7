package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/sites"
)

// TestCrawlKeepsPDFTextsForTheBuild: the crawl keeps the text it took of
// each PDF in its batch's derived files; a build by the same code takes it
// from there and does not read the PDF again; a build by other code, or
// after the derived files are deleted, reads it again; and the website is
// the same every way.
func TestCrawlKeepsPDFTextsForTheBuild(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, err := fixture.New(tregPDFWeb("%PDF-1.7\n(the reader below reads it)\n"))
		if err != nil {
			t.Fatal(err)
		}
		list, err := sites.Parse("test.toml", []byte(tregList))
		if err != nil {
			t.Fatal(err)
		}
		const text = "Automatisert innsamling av innhold er ikke tillatt."
		reads := 0
		reader := func(body []byte) (string, error) {
			reads++
			return text, nil
		}
		read, done := derived.Options{Code: "test-1", PDF: reader}.CrawlPDFReader(1)
		defer done()
		batches := t.TempDir()
		c, err := crawl.New(crawl.Config{Batches: batches, PDFText: read, Client: guard.NewClient(guard.Options{Transport: srv.Transport()})}, list, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Run(t.Context(), nil); err != nil {
			t.Fatal(err)
		}
		if reads != 1 {
			t.Fatalf("the crawl read the PDF %d times, want once", reads)
		}
		kept, _ := filepath.Glob(filepath.Join(batches, "*", evidence.DerivedDir, "pdf", "*.json"))
		if len(kept) != 1 {
			t.Fatalf("the crawl kept %d PDF texts, want 1: %v", len(kept), kept)
		}

		build := func(code string) string {
			return buildTo(t, list, batches, derived.Options{Code: code, PDF: reader})
		}
		reads = 0
		first := build("test-1")
		if reads != 0 {
			t.Errorf("the build read the PDF %d times, though the crawl kept its text", reads)
		}
		page, _ := os.ReadFile(filepath.Join(first, "sites", "treg.test", "signals.json"))
		if !strings.Contains(string(page), `"application/pdf"`) || strings.Contains(string(page), "text_error") || !strings.Contains(string(page), `"chars":51`) {
			t.Errorf("the kept text did not make the document's text:\n%s", page)
		}
		other := build("test-2")
		if reads != 1 {
			t.Errorf("a build by other code read the PDF %d times, want once (the kept text is another code's)", reads)
		}
		sameTree(t, "the kept text vs the PDF read again by other code", first, other)
		if err := derived.RemoveDerived(batches); err != nil {
			t.Fatal(err)
		}
		reads = 0
		again := build("test-1")
		if reads != 1 {
			t.Errorf("after the derived files were deleted the build read the PDF %d times, want once", reads)
		}
		sameTree(t, "the kept text vs the PDF read again", first, again)
	})
}
