package render

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals/internal/tuning"
)

// benchSites is the size of the synthetic directory. BENCH_SITES overrides
// it (for a quick look at a smaller one).
func benchSites() int {
	if n, err := strconv.Atoi(os.Getenv("BENCH_SITES")); err == nil && n > 0 {
		return n
	}
	return 10000
}

// BenchmarkBuild10k builds a synthetic directory of 10,000 sites (their
// findings generated directly, every section of a site's page filled, each
// streamed into the build as it is made) and reports pages per second and
// the process's peak RSS (taken before the Hugo run, which needs every site
// at once). In the same run it
// builds an equivalent site with Hugo, from one generated Markdown file per
// site and templates that lay out the same page, and reports our time over
// Hugo's (below 1 means we are faster). Without hugo on PATH it says so and
// reports only our numbers. `make bench-render` runs it once.
func BenchmarkBuild10k(b *testing.B) {
	n := benchSites()
	agents := manyAgents()
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	// Both builds write to a tmpfs (/dev/shm) when there is one: creating
	// 30,000 files on this kind of virtual disk costs about as much as
	// everything else together, varies from run to run by a factor of two,
	// and is the same work for both. BENCH_DIR chooses another folder
	// (BENCH_DIR=/tmp measures the disk too).
	dir := b.TempDir()
	base := os.Getenv("BENCH_DIR")
	if st, err := os.Stat("/dev/shm"); base == "" && err == nil && st.IsDir() {
		base = "/dev/shm"
	}
	if base != "" {
		d, err := os.MkdirTemp(base, "bench-render-")
		if err != nil {
			b.Fatal(err)
		}
		defer os.RemoveAll(d)
		dir = d
	}
	out := filepath.Join(dir, "public")
	// The memory limit and the collector's pace the build command sets
	// for this many sites.
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(tuning.BuildMemoryLimit(n)))
	}
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(tuning.BuildGCPercent))
	}
	var pages int
	b.ResetTimer()
	for b.Loop() {
		// As the build command does: each site made (here: generated,
		// there: derived) and written at once, only its brief kept.
		workers, _ := strconv.Atoi(os.Getenv("BENCH_WORKERS"))
		st, err := r.Stream(out, Input{Content: testContent, Workers: workers}, n)
		if err != nil {
			b.Fatal(err)
		}
		jobs := make([]func() error, n)
		for i := range jobs {
			jobs[i] = func() error { return st.Site(i, manySite(i, agents)) }
		}
		runJobs(workers, jobs)
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	ours := b.Elapsed() / time.Duration(b.N)
	pages = countFiles(b, out, ".html")
	b.ReportMetric(float64(pages)/ours.Seconds(), "pages/s")
	b.ReportMetric(float64(peakRSS())/(1<<20), "peak-RSS-MiB")
	b.Logf("crawlsignals: %d sites, %d HTML pages (%d files) in %s (in %s): %.0f pages/s; peak RSS %.0f MiB",
		n, pages, countFiles(b, out, ""), ours.Round(time.Millisecond), filepath.Dir(dir), float64(pages)/ours.Seconds(), float64(peakRSS())/(1<<20))

	hugo, err := exec.LookPath("hugo")
	if err != nil {
		b.Logf("hugo not found on PATH: skipping the Hugo comparison (Debian: apt-get install hugo)")
		return
	}
	src := filepath.Join(dir, "hugo")
	if err := WriteHugoProject(src, manySites(n)); err != nil {
		b.Fatal(err)
	}
	hugoRun := func(dest string) error {
		outp, err := exec.Command(hugo, "--source", src, "--destination", dest, "--cacheDir", filepath.Join(dir, "hugo-cache"), "--quiet").CombinedOutput()
		if err != nil {
			return fmt.Errorf("hugo: %v\n%s", err, outp)
		}
		return nil
	}
	// One run to warm the caches (its binary, the sources), then the timed
	// one into a fresh folder: every file is created new, as ours are.
	if err := hugoRun(filepath.Join(dir, "hugo-warm")); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := hugoRun(filepath.Join(dir, "hugo-public")); err != nil {
		b.Fatal(err)
	}
	theirs := time.Since(start)
	hugoPages := countFiles(b, filepath.Join(dir, "hugo-public"), ".html")
	hugoFiles := countFiles(b, filepath.Join(dir, "hugo-public"), "")
	b.ReportMetric(ours.Seconds()/theirs.Seconds(), "ours/hugo")
	b.Logf("hugo: %d HTML pages (%d files) in %s: %.0f pages/s; crawlsignals/hugo time ratio %.2f (below 1: we are faster)",
		hugoPages, hugoFiles, theirs.Round(time.Millisecond), float64(hugoPages)/theirs.Seconds(), ours.Seconds()/theirs.Seconds())
}

func countFiles(b *testing.B, dir, ext string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ext) {
			n++
		}
		return nil
	})
	return n
}

// peakRSS is VmHWM of /proc/self/status, in bytes; 0 where there is none.
func peakRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkSitePage renders one site's page (every section filled, the
// whole agents list) to memory: the template work alone, without files.
func BenchmarkSitePage(b *testing.B) {
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	s := manySites(1)[0]
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := r.pages["site.html"].ExecuteTemplate(&buf, "layout", sitePage(s, "", "crawler@crawlsignals.test")); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}
