package evidence

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRecord writes exchanges with 100 KB bodies; MB/s is body bytes
// written per second (request, response and metadata records, compressed).
func BenchmarkRecord(b *testing.B) {
	body := pseudoText(100 << 10)
	x := get(b, "https://kommune.test/vilkar", 200, http.Header{"Content-Type": {"text/html"}}, body)
	w, err := Create(b.TempDir(), "kommune.test", nil)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Abort()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.Record(x); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecordSmall writes exchanges with 3 KB bodies, the size of most
// policy pages' answers on the wire and of every 404: the cost per request
// of keeping evidence. ratio is body bytes over bytes written.
func BenchmarkRecordSmall(b *testing.B) {
	body := pseudoText(3 << 10)
	x := get(b, "https://kommune.test/vilkar", 200, http.Header{"Content-Type": {"text/html"}}, body)
	w, err := Create(b.TempDir(), "kommune.test", nil)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Abort()
	// The first record makes the file (and its warcinfo record): the
	// ratio counts only the bytes of the records measured.
	if _, err := w.Record(x); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	start := w.out.n
	for b.Loop() {
		if _, err := w.Record(x); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(body)*b.N)/float64(w.out.n-start), "ratio")
}

// BenchmarkDecodeGzip undoes Content-Encoding: gzip on the real pages of
// ../shared/realweb (home and terms pages, gzipped as a server sends them),
// as the crawler does for each answer and the build for each stored page;
// MB/s is decoded bytes a second. Skipped without the pages.
func BenchmarkDecodeGzip(b *testing.B) {
	var bodies [][]byte
	var size int64
	for _, dir := range []string{"home", "terms"} {
		files, _ := filepath.Glob(filepath.Join("../../shared/realweb", dir, "*.html"))
		for _, f := range files {
			page, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			bodies = append(bodies, gzipped(b, page))
			size += int64(len(page))
		}
	}
	if len(bodies) == 0 {
		b.Skip("real pages not found at ../../shared/realweb")
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, body := range bodies {
			if _, _, err := DecodePrefix(body, []string{"gzip"}, 10<<20); err != nil {
				b.Fatal(err)
			}
		}
	}
}
