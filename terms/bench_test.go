package terms

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract"
)

// realTerms is the labelled folder of real terms documents, outside the
// project (design: never copied in); the scorer of terms/score reads it too.
const realTerms = "../../shared/realweb/terms"

// BenchmarkRead reads the real terms documents as a build does, once
// each per iteration (the HTML already extracted): the reader's cost per
// page is what a cold build pays for every policy page.
func BenchmarkRead(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(realTerms, "*.html"))
	if len(files) == 0 {
		b.Skipf("real terms not found at %s", realTerms)
	}
	var docs [][]extract.Block
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		p, err := extract.HTML(body, "text/html; charset=utf-8", nil)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, p.Blocks)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, d := range docs {
			Read(d, "")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(docs)), "µs/page")
}
