package extract

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// realwebHTMLFiles returns every HTML page of ../shared/realweb (home,
// terms, docs), or nothing where the folder is absent.
func realwebHTMLFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, sub := range []string{"home", "terms", "docs"} {
		f, _ := filepath.Glob(filepath.Join(realwebDir, sub, "*.html"))
		files = append(files, f...)
	}
	return files
}

// BenchmarkHTMLRealweb reads every real HTML page once per iteration and
// reports the time per page (skips where the folder is absent).
func BenchmarkHTMLRealweb(b *testing.B) {
	files := realwebHTMLFiles(b)
	if len(files) == 0 {
		b.Skip("real pages not available (../shared/realweb)")
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
	cpu0 := cpuTime()
	for b.Loop() {
		for _, body := range bodies {
			if _, err := HTML(body, "text/html", nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	pages := float64(b.N * len(bodies))
	b.ReportMetric(float64(b.Elapsed().Microseconds())/pages/1000, "ms/page")
	// CPU time (all threads, the collector's included) says more than the
	// wall time on a machine shared with other work.
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/pages/1000, "cpu-ms/page")
}

// cpuTime is the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
