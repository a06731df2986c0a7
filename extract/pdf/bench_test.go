package pdf

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract/internal/readtest"
)

func BenchmarkPDFText(b *testing.B) {
	name := "generated"
	body, err := os.ReadFile(filepath.Join(realwebDir, "docs", "fruitz-terms-of-service.pdf"))
	if err != nil {
		var pages [][]byte
		rng := rand.New(rand.NewSource(2))
		for range 20 {
			var s strings.Builder
			for line := range 50 {
				fmt.Fprintf(&s, "BT /F1 10 Tf 72 %d Td (%s) Tj ET\n", 750-line*14, readtest.Words(rng, 10))
			}
			pages = append(pages, []byte(s.String()))
		}
		body = buildPDF(pages...)
	} else {
		name = "fruitz-terms-of-service.pdf"
	}
	b.Logf("pdf: %s, %d bytes", name, len(body))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Text(body, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPDFRealweb reads every real PDF of ../shared/realweb/pdf once
// per iteration (skips where the folder is absent).
func BenchmarkPDFRealweb(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(realwebDir, "pdf", "*.pdf"))
	if len(files) == 0 {
		b.Skip("real PDFs not available (../shared/realweb/pdf)")
	}
	var bodies [][]byte
	var total int64
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, body)
		total += int64(len(body))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, body := range bodies {
			if _, err := Text(body, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
}
