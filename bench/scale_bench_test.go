package bench_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/internal/pageweight"
)

// BenchmarkScale times what a user runs, as whole processes of the
// crawlsignals binary (`make bench` builds it and runs this once), on a web
// of real pages (../shared/realweb served as fixture sites, read at bench
// time; synthetic pages of about the same size where it is absent):
//
//  1. the crawl of BENCH_HOSTS (2,000) loopback hosts with the command's
//     default flags (its default workers and the 2 s floor): its wall time
//     over the politeness floor (the longest host's waits plus the server's
//     answer times, from the fixture server's log) and its peak RSS. The
//     fixture server runs in this test process, so the RSS is the
//     crawler's alone.
//  2. `build` of that batch cold (no derived file: those the crawl kept,
//     the texts of the PDFs it read, deleted) against Hugo building a
//     project whose output is our website file for file
//     (bench_hugo_test.go), and against the I/O floor: reading the
//     evidence (gunzip of every WARC) and writing the site (a copy of
//     public/); and, once, the build right after the crawl, as a weekly
//     run does it (the crawl's PDF texts taken). Then the build's peak RSS
//     and public/'s bytes per site, by kind of file (pageweight.Weights).
//  3. `build` of BENCH_HISTORY (400) sites with 8 earlier batches against
//     the newest batch alone, both warm (derived files current); the nine
//     batches are nine crawls of a web that changes between them (a
//     quarter of the sites change each week), twice: with edits to the
//     same files (a robots.txt group, a sentence of the terms), as most
//     weeks' changes are, and with whole files replaced by other sites',
//     the most a change can say; each with public/'s bytes beside it.
//
// Each comparison alternates the two commands BENCH_RUNS (3) times after
// one warm-up each and reports medians. It enforces nothing: the numbers go
// in the README and the issue, with the machine's load at start and end.
// BENCH_NOFILE runs the crawl under that open-files limit, BENCH_FLOOR and
// BENCH_WORKERS pass -min-delay and -workers instead of the defaults;
// BENCH_ONLY=crawl stops after the crawl; BENCH_ONLY=history measures the
// history alone.
func BenchmarkScale(b *testing.B) {
	bin := os.Getenv("CRAWLSIGNALS_BIN")
	if bin == "" {
		b.Skip("CRAWLSIGNALS_BIN is not set: run `make bench`, which builds the binary")
	}
	hosts, history, runs := envInt("BENCH_HOSTS", 2000), envInt("BENCH_HISTORY", 400), envInt("BENCH_RUNS", 3)
	pages, err := loadBenchPages()
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		dir := scaleDir(b)
		toml := filepath.Join(dir, "sites.toml")
		web, err := writeBenchWeb(pages, hosts, 0, false, toml)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Printf("scale benchmark: %d CPUs (GOMAXPROCS %d), load average at the start %s", runtime.NumCPU(), runtime.GOMAXPROCS(0), loadavg())
		fmt.Printf("pages: %s\n", pages.from)
		if gnuTime() == "" {
			fmt.Println("peak RSS: GNU time is not installed (apt-get install time), so each peak is at least this test process's own: an upper bound")
		}
		fmt.Printf("%-62s %10s %10s %8s\n", "what", "ours", "against", "ratio")

		batches := filepath.Join(dir, "batches")
		only := os.Getenv("BENCH_ONLY")
		if only != "history" {
			crawlScale(b, bin, web, toml, batches, hosts)
		}
		if only == "" {
			coldBuild(b, bin, dir, toml, batches, runs)
		}
		if only != "crawl" {
			warmHistory(b, bin, dir, pages, history, runs, true)
			warmHistory(b, bin, dir, pages, history, runs, false)
		}
		fmt.Printf("load average at the end %s", loadavg())
	}
}

// loadavg is /proc/loadavg: the machine's load, printed beside the figures.
func loadavg() string {
	load, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown\n"
	}
	return string(load)
}

const (
	scaleBatch = "20261201T060000Z"
)

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// scaleDir is a fresh folder in memory (/dev/shm) where there is one: the
// numbers are then the programs' and not this virtual disk's. BENCH_DIR
// names another place (a real disk, to see what its syncs cost).
func scaleDir(b *testing.B) string {
	base := os.Getenv("BENCH_DIR")
	if st, err := os.Stat("/dev/shm"); base == "" && err == nil && st.IsDir() {
		base = "/dev/shm"
	}
	d, err := os.MkdirTemp(base, "crawlsignals-scale-")
	if err != nil {
		b.Fatal(err)
	}
	if os.Getenv("BENCH_KEEP") != "" {
		fmt.Println("keeping", d)
		return d
	}
	b.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// memWeb is the generated web in memory, so that the fixture server in this
// process costs as little of the two cores as it can and the benchmark
// measures the crawler. fstest.MapFS alone would look through every file
// for each name it does not have (each 404, each host without a spec file);
// here a missing name is one map lookup.
type memWeb struct{ fstest.MapFS }

func (w memWeb) missing(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
}

func (w memWeb) Stat(name string) (fs.FileInfo, error) {
	if _, ok := w.MapFS[name]; !ok && name != "." {
		return nil, w.missing("stat", name)
	}
	return w.MapFS.Stat(name)
}

func (w memWeb) ReadFile(name string) ([]byte, error) {
	if _, ok := w.MapFS[name]; !ok {
		return nil, w.missing("open", name)
	}
	return w.MapFS.ReadFile(name)
}

// procRun is one finished process: its wall time and peak RSS.
type procRun struct {
	start, end time.Time
	wall       time.Duration
	cpu        time.Duration // user and system
	rss        int64         // bytes
}

// gnuTime is GNU time's path, or "" where it is not installed (Debian:
// apt-get install time). A command's peak RSS is read from it: the kernel
// counts into a child's peak the peak of the process it was started from
// (Go starts a child with vfork, and exec records the memory it leaves),
// so the rusage of a command started from this test process is at least
// this process's own peak, and after a crawl served from here that is
// hundreds of MB. time forks the command from itself, small.
func gnuTime() string {
	if p, err := exec.LookPath("/usr/bin/time"); err == nil {
		return p
	}
	return ""
}

// runBin runs a command to the end; its output goes to logFile.
func runBin(b *testing.B, logFile string, name string, args ...string) procRun {
	b.Helper()
	out, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command(name, args...)
	rssFile := logFile + ".rss"
	if gnuTime() != "" {
		cmd = exec.Command(gnuTime(), append([]string{"-f", "%M", "-o", rssFile, name}, args...)...)
	}
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	err = cmd.Run()
	r := procRun{start: start, end: time.Now()}
	r.wall = r.end.Sub(start)
	if cmd.ProcessState == nil {
		b.Fatalf("%s: %v", name, err)
	}
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rss = ru.Maxrss << 10
	}
	if data, err := os.ReadFile(rssFile); err == nil {
		// time's last line is the peak in KB (a line before it says how
		// the command exited, when it failed).
		lines := strings.Fields(string(data))
		if kb, err := strconv.ParseInt(lines[len(lines)-1], 10, 64); err == nil {
			r.rss = kb << 10
		}
		os.Remove(rssFile)
	}
	if err != nil {
		tail, _ := os.ReadFile(logFile)
		if len(tail) > 2000 {
			tail = tail[len(tail)-2000:]
		}
		b.Fatalf("%s %s: %v\n%s", name, strings.Join(args[:min(len(args), 3)], " "), err, tail)
	}
	return r
}

func crawlScale(b *testing.B, bin string, web memWeb, toml, batches string, hosts int) {
	// The command's defaults: the 2 s floor and its own number of workers.
	// BENCH_FLOOR (a duration, loopback only below 2 s) and BENCH_WORKERS
	// pass -min-delay and -workers instead.
	floorSetting := crawl.MinDelayFloor
	args := []string{"crawl", "-sites", toml, "-batches", batches, "-batch", scaleBatch}
	flags := "default flags"
	if d, err := time.ParseDuration(os.Getenv("BENCH_FLOOR")); err == nil && d > 0 {
		floorSetting = d
		args = append(args, "-min-delay", d.String())
		flags = "-min-delay " + d.String()
	}
	if w := os.Getenv("BENCH_WORKERS"); w != "" {
		args = append(args, "-workers", w)
		flags += " -workers " + w
	}
	srv, err := fixture.New(web)
	if err != nil {
		b.Fatal(err)
	}
	addr, err := srv.Start()
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	for i := range hosts {
		args = append(args, "-resolve", fmt.Sprintf("h%05d.test=%s", i, addr))
	}
	name := bin
	what := fmt.Sprintf("crawl %d hosts, %s (%s floor): wall / floor", hosts, flags, floorSetting)
	if nofile := os.Getenv("BENCH_NOFILE"); nofile != "" {
		// ulimit in a shell sets the hard limit too, so the crawler cannot
		// raise it again.
		args = append([]string{"-c", "ulimit -n " + nofile + " && exec \"$0\" \"$@\"", bin}, args...)
		name = "sh"
		what += " (ulimit -n " + nofile + ")"
	}
	logFile := filepath.Join(filepath.Dir(batches), "crawl.log")
	before := selfCPU()
	r := runBin(b, logFile, name, args...)
	server := selfCPU() - before
	log := srv.SettledLog(10 * time.Second)
	floor, longest := fixture.PolitenessFloor(log, floorSetting)
	perReq := float64(r.cpu.Microseconds()) / float64(len(log))
	ofLongest := 0
	for _, q := range log {
		if q.Host == longest {
			ofLongest++
		}
	}
	fmt.Printf("%-62s %9.2fs %9.2fs %7.2f×   peak RSS %d MB, %d requests (%.1f a host; the floor's host %d), %.0f req/s, CPU a request: crawler %.0f µs, fixture server %.0f µs\n", what,
		r.wall.Seconds(), floor.Seconds(), r.wall.Seconds()/floor.Seconds(), r.rss>>20, len(log), float64(len(log))/float64(hosts), ofLongest,
		float64(len(log))/r.wall.Seconds(), perReq, float64(server.Microseconds())/float64(len(log)))
	first, last := log[0].Start, log[0].End
	hostFirst := map[string]time.Time{}
	for _, q := range log {
		if q.Start.Before(first) {
			first = q.Start
		}
		if q.End.After(last) {
			last = q.End
		}
		if t, ok := hostFirst[q.Host]; !ok || q.Start.Before(t) {
			hostFirst[q.Host] = q.Start
		}
	}
	lastStart := first
	for _, t := range hostFirst {
		if t.After(lastStart) {
			lastStart = t
		}
	}
	if os.Getenv("BENCH_RAMP") != "" {
		var ts []float64
		for _, t := range hostFirst {
			ts = append(ts, t.Sub(r.start).Seconds())
		}
		slices.Sort(ts)
		for _, q := range []int{10, 25, 50, 75, 90, 99} {
			fmt.Printf("  %d%% of hosts had their first request by %.2fs\n", q, ts[len(ts)*q/100])
		}
		second := map[string]time.Time{}
		for _, q := range log {
			if !q.Start.Equal(hostFirst[q.Host]) && (second[q.Host].IsZero() || q.Start.Before(second[q.Host])) {
				second[q.Host] = q.Start
			}
		}
		var gaps []float64
		for h, t := range second {
			gaps = append(gaps, t.Sub(hostFirst[h]).Seconds())
		}
		slices.Sort(gaps)
		fmt.Printf("  first to second request of a host: median %.3fs, 90%% %.3fs, max %.3fs\n", gaps[len(gaps)/2], gaps[len(gaps)*9/10], gaps[len(gaps)-1])
		// The host that ended the batch: when each of its requests started
		// and how long past the floor each wait was, as the server saw it.
		var lastHost string
		for _, q := range log {
			if q.End.Equal(last) {
				lastHost = q.Host
			}
		}
		var prev fixture.Request
		line := "  the last host's requests (start, then each wait past the floor):"
		for _, q := range log {
			if q.Host != lastHost {
				continue
			}
			if prev.Host == "" {
				line += fmt.Sprintf(" %.2fs", q.Start.Sub(r.start).Seconds())
			} else {
				line += fmt.Sprintf(" +%dms", (q.Start.Sub(prev.End) - floorSetting).Milliseconds())
			}
			prev = q
		}
		fmt.Println(line)
	}
	// The machine's own floor: the crawler's and the fixture server's CPU
	// spread over every core. A crawl can end no sooner than the later of
	// the two floors.
	cpuFloor := (r.cpu + server) / time.Duration(runtime.NumCPU())
	fmt.Printf("%-62s CPU floor (crawler and server CPU over %d cores) %.2fs: wall / the later floor %.2f×\n", "",
		runtime.NumCPU(), cpuFloor.Seconds(), r.wall.Seconds()/max(floor, cpuFloor).Seconds())
	fmt.Printf("%-62s first request %.2fs after the start, the last host's first %.2fs, exit %.2fs after the last answer\n", "",
		first.Sub(r.start).Seconds(), lastStart.Sub(r.start).Seconds(), r.end.Sub(last).Seconds())
	b.ReportMetric(perReq, "crawl-cpu-µs/req")
	b.ReportMetric(r.wall.Seconds()/floor.Seconds(), "crawl-wall/floor")
	b.ReportMetric(r.wall.Seconds()/max(floor, cpuFloor).Seconds(), "crawl-wall/later-floor")
	b.ReportMetric(float64(r.rss>>20), "crawl-peak-RSS-MB")

	// Every site must have its evidence, and no local failure (a
	// descriptor limit) may have become a gap on a site's page.
	got, err := evidence.Sites(filepath.Join(batches, scaleBatch))
	if err != nil {
		b.Fatal(err)
	}
	local := 0
	for _, s := range got {
		data, _ := os.ReadFile(filepath.Join(batches, scaleBatch, s+".json"))
		if bytes.Contains(data, []byte("too many open files")) {
			local++
		}
	}
	fmt.Printf("%-62s %d of %d sites with evidence; %d with a local error as a gap\n", "", len(got), hosts, local)
	if len(got) != hosts || local > 0 {
		b.Errorf("%d of %d sites have evidence, %d show a local error", len(got), hosts, local)
	}
}

// selfCPU is the CPU time this test process has used so far: during the
// crawl, the fixture server's share of the two cores.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// alternate runs a and b in turn, after one warm-up each, and returns the
// median of each and of the ratios a/b pair by pair.
func alternate(runs int, prepA, prepB func(), a, bb func() procRun) (ma, mb procRun, ratio float64) {
	prepA()
	a()
	prepB()
	bb()
	var as, bs []procRun
	var rs []float64
	for range runs {
		prepA()
		ra := a()
		prepB()
		rb := bb()
		as, bs = append(as, ra), append(bs, rb)
		rs = append(rs, ra.wall.Seconds()/rb.wall.Seconds())
	}
	med := func(rr []procRun) procRun {
		slices.SortFunc(rr, func(x, y procRun) int { return int(x.wall - y.wall) })
		return rr[len(rr)/2]
	}
	slices.Sort(rs)
	return med(as), med(bs), rs[len(rs)/2]
}

// coldBuild times `build` of the crawled batch, cold, against Hugo
// writing the same website and against the I/O floor, then reports the
// build's peak RSS and public/'s bytes per site.
func coldBuild(b *testing.B, bin, dir, toml, batches string, runs int) {
	content := filepath.Join(dir, "content")
	os.MkdirAll(content, 0o755)
	out := filepath.Join(dir, "public")
	logFile := filepath.Join(dir, "build.log")
	cold := func() {
		if err := derived.RemoveDerived(batches); err != nil {
			b.Fatal(err)
		}
		os.RemoveAll(out)
	}
	ours := func() procRun {
		return runBin(b, logFile, bin, "build", "-sites", toml, "-batches", batches, "-content", content, "-out", out)
	}
	// What a weekly run's build does with the batch its crawl just wrote:
	// derived files only from the crawl (the texts of the PDFs it read,
	// derived.CrawlPDFReader). Timed once, before anything else.
	os.RemoveAll(out)
	afterCrawl := ours()
	cold()
	ours()
	n := countSites(b, out)

	// The I/O floor: every WARC read and decompressed, public/ written.
	// One gzip reads them all (a WARC is a series of gzip members, and so
	// are several WARCs one after another), one cp writes the site.
	floorOut := filepath.Join(dir, "public-copy")
	ioFloor := func() procRun {
		return runBin(b, logFile, "sh", "-c", `cat "$1"/*/*.warc.gz | gzip -dc >/dev/null && cp -R "$2" "$3"`, "sh", batches, out, floorOut)
	}
	preps := []func(){cold, func() { os.RemoveAll(floorOut) }}
	cmds := []func() procRun{ours, ioFloor}
	hugo, err := exec.LookPath("hugo")
	var mirror hugoMirror
	src, dest := filepath.Join(dir, "hugo"), filepath.Join(dir, "hugo-public")
	if err != nil {
		hugo = ""
	} else {
		if mirror, err = writeHugoMirror(out, src); err != nil {
			b.Fatal(err)
		}
		preps = append(preps, func() { os.RemoveAll(dest) })
		cmds = append(cmds, func() procRun {
			return runBin(b, logFile, hugo, "--source", src, "--destination", dest, "--cacheDir", filepath.Join(dir, "hugo-cache"), "--quiet")
		})
	}
	// A warm build (the derived files of the cold build kept, public/
	// written anew) is the render and the views alone: what Hugo does.
	warmAt := len(cmds)
	preps = append(preps, func() { os.RemoveAll(out) })
	cmds = append(cmds, ours)
	// The cold build just run is ours's warm-up; one cold build of 2,000
	// real sites takes minutes on a busy machine.
	med, ratios := alternateAll(runs, preps, cmds)
	a := med[0]
	fmt.Printf("%-62s %9.2fs %9.2fs %7.2f×\n", fmt.Sprintf("build, cold, %d sites / I/O floor (gunzip WARCs, cp public/)", n),
		a.wall.Seconds(), med[1].wall.Seconds(), ratios[1])
	b.ReportMetric(ratios[1], "cold-build/io-floor")
	fmt.Printf("%-62s %9.2fs %9.2fs %7.2f×   (one run; the crawl's PDF texts taken, every page read from its WARC)\n",
		"build right after the crawl, as a weekly run / I/O floor", afterCrawl.wall.Seconds(), med[1].wall.Seconds(), afterCrawl.wall.Seconds()/med[1].wall.Seconds())
	b.ReportMetric(afterCrawl.wall.Seconds()/med[1].wall.Seconds(), "after-crawl-build/io-floor")
	if hugo == "" {
		fmt.Printf("%-62s %9.2fs %10s\n", "build, cold, of the crawled batch / Hugo", a.wall.Seconds(), "—")
		fmt.Printf("%-62s %9.2fs %10s\n", "build, warm (derived files kept), of the crawled batch / Hugo", med[warmAt].wall.Seconds(), "—")
		fmt.Println("hugo not found on PATH: no comparison with Hugo (Debian: apt-get install hugo)")
	} else {
		d, err := compareSites(out, dest)
		if err != nil {
			b.Fatal(err)
		}
		h := med[2]
		fmt.Printf("%-62s %9.2fs %9.2fs %7.2f×   peak RSS %d MB (Hugo %d MB)\n", fmt.Sprintf("build, cold, %d sites / Hugo writing the same site", n),
			a.wall.Seconds(), h.wall.Seconds(), ratios[2], a.rss>>20, h.rss>>20)
		fmt.Printf("%-62s Hugo's project: %s\n%-62s its output against ours: %s\n", "", mirror, "", d)
		b.ReportMetric(ratios[2], "cold-build/hugo")
		w := med[warmAt]
		fmt.Printf("%-62s %9.2fs %9.2fs %7.2f×   (medians; the same Hugo runs)\n", fmt.Sprintf("build, warm (derived files kept), %d sites / Hugo", n),
			w.wall.Seconds(), h.wall.Seconds(), w.wall.Seconds()/h.wall.Seconds())
		b.ReportMetric(w.wall.Seconds()/h.wall.Seconds(), "warm-build/hugo")
	}

	fmt.Printf("%-62s %8d MB %10s %8s   %.0f KB a site; 10,000 sites: make bench-render (the render alone) or BENCH_HOSTS=10000\n",
		fmt.Sprintf("build, cold, %d sites: peak RSS", n), a.rss>>20, "", "", float64(a.rss)/float64(n)/1024)
	b.ReportMetric(float64(a.rss>>20), "cold-build-peak-RSS-MB")
	// Page weight by kind of file, as the render package adds it up.
	weights, err := pageweight.Weights(out)
	if err != nil {
		b.Fatal(err)
	}
	perSite := pageweight.PerSite(weights, n)
	fmt.Printf("%-62s %8.1f KB %10s %8s   by kind of file:\n", fmt.Sprintf("public/ per site (%d sites)", n), float64(perSite)/1000, "", "")
	pageweight.WriteWeights(os.Stdout, weights, n)
	b.ReportMetric(float64(perSite)/1000, "public-KB/site")
}

// alternateAll runs the commands in turn, each after its preparation,
// runs times, after one warm-up of each but the first (its caller has just
// run it), and returns the median of each and, for each, the median of
// the first's time over its own, pair by pair.
func alternateAll(runs int, preps []func(), cmds []func() procRun) ([]procRun, []float64) {
	for i := 1; i < len(cmds); i++ {
		preps[i]()
		cmds[i]()
	}
	got := make([][]procRun, len(cmds))
	ratios := make([][]float64, len(cmds))
	for range runs {
		var first procRun
		for i, c := range cmds {
			preps[i]()
			r := c()
			if i == 0 {
				first = r
			}
			got[i] = append(got[i], r)
			ratios[i] = append(ratios[i], first.wall.Seconds()/r.wall.Seconds())
		}
	}
	med := make([]procRun, len(cmds))
	ratio := make([]float64, len(cmds))
	for i := range cmds {
		slices.SortFunc(got[i], func(x, y procRun) int { return int(x.wall - y.wall) })
		slices.Sort(ratios[i])
		med[i], ratio[i] = got[i][len(got[i])/2], ratios[i][len(ratios[i])/2]
	}
	return med, ratio
}

// countSites is how many site pages a built website has.
func countSites(b *testing.B, public string) int {
	entries, err := os.ReadDir(filepath.Join(public, "sites"))
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() {
			n++
		}
	}
	return n
}

// warmHistory crawls the first n sites in nine batches a week apart, the
// web changing between them, and times a warm build of the newest with the
// 8 earlier batches against one of the newest alone (its evidence linked,
// not copied), both with current derived files. edits chooses the changes:
// edits to the same files (editedSite), as most weeks' changes are, or
// whole files replaced by other sites' (site), the most a change can say.
// The history crawls are on loopback at BENCH_HISTORY_DELAY (100 ms)
// between requests, since their time is not what is measured.
func warmHistory(b *testing.B, bin, dir string, pages benchPages, n, runs int, edits bool) {
	kind, changes, metric := "replaced", "whole files replaced", "history-build/newest"
	if edits {
		kind, changes, metric = "edits", "files edited", "history-edits-build/newest"
	}
	dir = filepath.Join(dir, "history-"+kind)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	toml := filepath.Join(dir, "history.toml")
	hist, newest := filepath.Join(dir, "history"), filepath.Join(dir, "newest")
	delay := 100 * time.Millisecond
	if d, err := time.ParseDuration(os.Getenv("BENCH_HISTORY_DELAY")); err == nil && d > 0 {
		delay = d
	}
	t0, _ := evidence.ParseBatchName(scaleBatch)
	logFile := filepath.Join(dir, "history.log")
	var newestBatch string
	for week := 8; week >= 0; week-- {
		web, err := writeBenchWeb(pages, n, 8-week, edits, toml)
		if err != nil {
			b.Fatal(err)
		}
		srv, err := fixture.New(web)
		if err != nil {
			b.Fatal(err)
		}
		addr, err := srv.Start()
		if err != nil {
			b.Fatal(err)
		}
		newestBatch = t0.AddDate(0, 0, -7*week).Format("20060102T150405Z")
		args := []string{"crawl", "-sites", toml, "-batches", hist, "-batch", newestBatch, "-min-delay", delay.String()}
		for i := range n {
			args = append(args, "-resolve", fmt.Sprintf("h%05d.test=%s", i, addr))
		}
		runBin(b, logFile, bin, args...)
		srv.Close()
	}
	src, to := filepath.Join(hist, newestBatch), filepath.Join(newest, newestBatch)
	if err := os.MkdirAll(to, 0o755); err != nil {
		b.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			if err := os.Link(filepath.Join(src, e.Name()), filepath.Join(to, e.Name())); err != nil {
				b.Fatal(err)
			}
		}
	}
	content := filepath.Join(dir, "content") // none: the build's own
	if err := os.MkdirAll(content, 0o755); err != nil {
		b.Fatal(err)
	}
	outs := map[string]string{hist: filepath.Join(dir, "public-history"), newest: filepath.Join(dir, "public-newest")}
	build := func(batches string) func() procRun {
		return func() procRun {
			return runBin(b, logFile, bin, "build", "-sites", toml, "-batches", batches, "-content", content, "-out", outs[batches])
		}
	}
	nothing := func() {}
	h, one, ratio := alternate(runs, nothing, nothing, build(hist), build(newest))
	hb, ob := dirBytes(b, outs[hist]), dirBytes(b, outs[newest])
	fmt.Printf("%-62s %9.2fs %9.2fs %7.2f×   peak RSS %d MB (newest alone %d MB)\n",
		fmt.Sprintf("build, warm, %d sites with 8 earlier batches (%s) / newest alone", n, kind),
		h.wall.Seconds(), one.wall.Seconds(), ratio, h.rss>>20, one.rss>>20)
	fmt.Printf("%-62s %s; sites whose texts differ from the batch before: %s; public/ %.1f MB against %.1f MB (%.2f×; %.1f KB a site against %.1f), so %.2f× the newest's time a byte\n", "",
		changes, changedSites(b, hist), float64(hb)/1e6, float64(ob)/1e6, float64(hb)/float64(ob), float64(hb)/float64(n)/1e3, float64(ob)/float64(n)/1e3, ratio*float64(ob)/float64(hb))
	b.ReportMetric(ratio, metric)
}

// dirBytes is the size of every file under dir.
func dirBytes(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// changedSites says, for each batch of a history after the first, how many
// sites' saved texts differ from the batch before: the history is not one
// batch under nine names.
func changedSites(b *testing.B, batches string) string {
	names, err := evidence.Batches(batches)
	if err != nil {
		b.Fatal(err)
	}
	var counts []string
	for i := 1; i < len(names); i++ {
		sites, err := evidence.Sites(filepath.Join(batches, names[i]))
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, s := range sites {
			now, _ := os.ReadFile(filepath.Join(batches, names[i], s+".text.jsonl"))
			before, _ := os.ReadFile(filepath.Join(batches, names[i-1], s+".text.jsonl"))
			if !bytes.Equal(now, before) {
				n++
			}
		}
		counts = append(counts, strconv.Itoa(n))
	}
	return strings.Join(counts, ", ")
}
