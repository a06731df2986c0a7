package evidence

import (
	"net/http"
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
