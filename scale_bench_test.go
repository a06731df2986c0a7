package crawlsignals_test

import (
	"bytes"
	"encoding/json"
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

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/render"
	"github.com/crawlsignals/crawlsignals/signals"
)

// BenchmarkScale times what a user runs, as whole processes of the
// crawlsignals binary (`make bench` builds it and runs this once):
//
//  1. the crawl of BENCH_HOSTS (2,000) loopback hosts, 10 addresses each, at
//     a 500 ms floor: its wall time over the politeness floor (the longest
//     host's waits plus the server's answer times, from the fixture
//     server's log) and its peak RSS. The fixture server runs in this test
//     process, so the RSS is the crawler's alone.
//  2. `build` of that batch cold (as the crawl left it: no derived file)
//     against Hugo building the same pages from the same findings.
//  3. `build` of BENCH_HISTORY (400) sites with 8 earlier batches against
//     the newest batch alone, both warm (derived files current).
//
// Each comparison alternates the two commands BENCH_RUNS (3) times after
// one warm-up each and reports medians. It enforces nothing: the numbers go
// in the README and the issue. BENCH_NOFILE runs the crawl under that
// open-files limit, BENCH_FLOOR at another floor; BENCH_ONLY=crawl stops
// after the crawl.
func BenchmarkScale(b *testing.B) {
	bin := os.Getenv("CRAWLSIGNALS_BIN")
	if bin == "" {
		b.Skip("CRAWLSIGNALS_BIN is not set: run `make bench`, which builds the binary")
	}
	hosts, history, runs := envInt("BENCH_HOSTS", 2000), envInt("BENCH_HISTORY", 400), envInt("BENCH_RUNS", 3)
	for range b.N {
		dir := scaleDir(b)
		web, toml := writeScaleWeb(b, dir, hosts)
		load, _ := os.ReadFile("/proc/loadavg")
		fmt.Printf("scale benchmark: %d CPUs (GOMAXPROCS %d), load average %s", runtime.NumCPU(), runtime.GOMAXPROCS(0), load)
		fmt.Printf("%-62s %10s %10s %8s\n", "what", "ours", "against", "ratio")

		batches := filepath.Join(dir, "batches")
		crawlScale(b, bin, web, toml, batches, hosts)
		if os.Getenv("BENCH_ONLY") == "crawl" {
			continue
		}
		coldVsHugo(b, bin, dir, toml, batches, runs)
		warmHistory(b, bin, dir, batches, history, runs)
	}
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

// writeScaleWeb makes the generated web, in memory (see memWeb): per host
// robots.txt, a home page whose footer links to three policy pages with
// sentences about licences, APIs and scraping, and nothing else, so the five
// well-known addresses answer 404: 10 requests a host. The list of sites is
// written to dir.
func writeScaleWeb(b *testing.B, dir string, n int) (web memWeb, toml string) {
	web = memWeb{fstest.MapFS{}}
	filler := strings.Repeat("Dette nettstedet er en del av et stort, oppdiktet nett som bare finnes for å måle en høflig leser. ", 6)
	pages := []struct{ path, title, says string }{
		{"vilkar", "Vilkår for bruk", "Automatisert innsamling av innhold (skraping) er ikke tillatt uten skriftlig avtale. Innholdet kan ikke brukes til å trene kunstig intelligens."},
		{"personvern", "Personvern", "Vi samler ikke inn personopplysninger om besøkende utover det som trengs for å levere tjenesten."},
		{"apne-data", "Åpne data", "Alle data er tilgjengelige under Norsk lisens for offentlige data (NLOD 2.0). Vi tilbyr et åpent API uten nøkkel for alle som vil bruke dataene."},
	}
	var footer strings.Builder
	for _, p := range pages {
		fmt.Fprintf(&footer, "<li><a href=\"/%s\">%s</a></li>\n", p.path, p.title)
	}
	home := "<!DOCTYPE html>\n<html lang=\"nb\"><head><meta charset=\"utf-8\"><title>Vert</title></head>\n<body><main><h1>Vert</h1><p>" +
		filler + "</p></main>\n<footer><ul>\n" + footer.String() + "</ul></footer></body></html>\n"
	files := map[string]string{"robots.txt": "User-agent: *\nDisallow: /privat/\n\nUser-agent: GPTBot\nDisallow: /\n", "index.html": home}
	for _, p := range pages {
		files[p.path+".html"] = "<!DOCTYPE html>\n<html lang=\"nb\"><head><meta charset=\"utf-8\"><title>" + p.title + "</title></head>\n<body><main><h1>" +
			p.title + "</h1>\n<p>" + filler + "</p>\n<p>" + p.says + "</p>\n<p>" + filler + "</p></main></body></html>\n"
	}
	categories := []string{"public-sector", "news", "reference", "transport"}
	var list strings.Builder
	for i := range n {
		h := fmt.Sprintf("h%05d.test", i)
		web.MapFS[h] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
		for name, body := range files {
			web.MapFS[h+"/"+name] = &fstest.MapFile{Data: []byte(body), Mode: 0o644}
		}
		fmt.Fprintf(&list, "[[site]]\nname = \"Vert %d\"\nurl = \"http://%s/\"\nhosts = [%q]\ncategory = %q\n\n", i, h, h, categories[i%len(categories)])
	}
	toml = filepath.Join(dir, "sites.toml")
	if err := os.WriteFile(toml, []byte(list.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return web, toml
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

// runBin runs a command to the end; its output goes to logFile.
func runBin(b *testing.B, logFile string, name string, args ...string) procRun {
	b.Helper()
	out, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command(name, args...)
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
	// BENCH_FLOOR (a duration) replaces the 500 ms floor; 2s is the
	// product's own.
	floorSetting := 500 * time.Millisecond
	if d, err := time.ParseDuration(os.Getenv("BENCH_FLOOR")); err == nil && d > 0 {
		floorSetting = d
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
	args := []string{"crawl", "-sites", toml, "-batches", batches, "-batch", scaleBatch,
		"-min-delay", floorSetting.String(), "-workers", strconv.Itoa(envInt("BENCH_WORKERS", 32))}
	for i := range hosts {
		args = append(args, "-resolve", fmt.Sprintf("h%05d.test=%s", i, addr))
	}
	name := bin
	what := fmt.Sprintf("crawl %d hosts × 10 at %s: wall / politeness floor", hosts, floorSetting)
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
	floor, _ := fixture.PolitenessFloor(log, floorSetting)
	perReq := float64(r.cpu.Microseconds()) / float64(len(log))
	fmt.Printf("%-62s %9.2fs %9.2fs %7.2f×   peak RSS %d MB, %d requests, %.0f req/s, CPU a request: crawler %.0f µs, fixture server %.0f µs\n", what,
		r.wall.Seconds(), floor.Seconds(), r.wall.Seconds()/floor.Seconds(), r.rss>>20, len(log), float64(len(log))/r.wall.Seconds(), perReq,
		float64(server.Microseconds())/float64(len(log)))
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
	fmt.Printf("%-62s first request %.2fs after the start, the last host's first %.2fs, exit %.2fs after the last answer\n", "",
		first.Sub(r.start).Seconds(), lastStart.Sub(r.start).Seconds(), r.end.Sub(last).Seconds())
	b.ReportMetric(perReq, "crawl-cpu-µs/req")
	b.ReportMetric(r.wall.Seconds()/floor.Seconds(), "crawl-wall/floor")
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

func coldVsHugo(b *testing.B, bin, dir, toml, batches string, runs int) {
	content := filepath.Join(dir, "content")
	os.MkdirAll(content, 0o755)
	out := filepath.Join(dir, "public")
	logFile := filepath.Join(dir, "build.log")
	cold := func() {
		if err := signals.RemoveDerived(batches); err != nil {
			b.Fatal(err)
		}
		os.RemoveAll(out)
	}
	ours := func() procRun {
		return runBin(b, logFile, bin, "build", "-sites", toml, "-batches", batches, "-content", content, "-out", out)
	}
	hugo, err := exec.LookPath("hugo")
	if err != nil {
		cold()
		r := ours()
		fmt.Printf("%-62s %9.2fs %10s\n", "build, cold, of the crawled batch", r.wall.Seconds(), "—")
		fmt.Println("hugo not found on PATH: skipping the comparison with Hugo (Debian: apt-get install hugo)")
		return
	}
	cold()
	ours()
	all := readFindings(b, out)
	src := filepath.Join(dir, "hugo")
	if err := render.WriteHugoProject(src, all); err != nil {
		b.Fatal(err)
	}
	dest := filepath.Join(dir, "hugo-public")
	theirs := func() procRun {
		return runBin(b, logFile, hugo, "--source", src, "--destination", dest, "--cacheDir", filepath.Join(dir, "hugo-cache"), "--quiet")
	}
	a, h, ratio := alternate(runs, cold, func() { os.RemoveAll(dest) }, ours, theirs)
	fmt.Printf("%-62s %9.2fs %9.2fs %7.2f×   peak RSS %d MB (Hugo %d MB)\n", fmt.Sprintf("build, cold, %d crawled sites / Hugo, same pages", len(all)),
		a.wall.Seconds(), h.wall.Seconds(), ratio, a.rss>>20, h.rss>>20)
	b.ReportMetric(ratio, "cold-build/hugo")
}

// readFindings reads each site's signals.json from a built website.
func readFindings(b *testing.B, public string) []*signals.Site {
	var all []*signals.Site
	err := fs.WalkDir(os.DirFS(public), "sites", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) != "signals.json" {
			return err
		}
		data, err := os.ReadFile(filepath.Join(public, p))
		if err != nil {
			return err
		}
		var s signals.Site
		all = append(all, &s)
		return json.Unmarshal(data, &s)
	})
	if err != nil {
		b.Fatal(err)
	}
	return all
}

// warmHistory builds the first n sites with 8 earlier batches (the crawled
// batch again under earlier names, linked, not copied) and with the newest
// alone, both with current derived files.
func warmHistory(b *testing.B, bin, dir, batches string, n, runs int) {
	list, err := os.ReadFile(filepath.Join(dir, "sites.toml"))
	if err != nil {
		b.Fatal(err)
	}
	entries := strings.SplitAfter(string(list), "\n\n")
	n = min(n, len(entries))
	toml := filepath.Join(dir, "history.toml")
	if err := os.WriteFile(toml, []byte(strings.Join(entries[:n], "")), 0o644); err != nil {
		b.Fatal(err)
	}
	src := filepath.Join(batches, scaleBatch)
	newest, hist := filepath.Join(dir, "newest"), filepath.Join(dir, "history")
	t0, _ := evidence.ParseBatchName(scaleBatch)
	for week := range 9 {
		name := t0.AddDate(0, 0, -7*week).Format("20060102T150405Z")
		targets := []string{filepath.Join(hist, name)}
		if week == 0 {
			targets = append(targets, filepath.Join(newest, name))
		}
		for _, to := range targets {
			if err := os.MkdirAll(to, 0o755); err != nil {
				b.Fatal(err)
			}
			for i := range n {
				h := fmt.Sprintf("h%05d.test", i)
				for _, f := range []string{h + ".json", h + ".warc.gz", h + ".text.jsonl"} {
					if err := os.Link(filepath.Join(src, f), filepath.Join(to, f)); err != nil && !os.IsNotExist(err) {
						b.Fatal(err)
					}
				}
			}
		}
	}
	content := filepath.Join(dir, "content")
	logFile := filepath.Join(dir, "history.log")
	build := func(batches string) func() procRun {
		return func() procRun {
			return runBin(b, logFile, bin, "build", "-sites", toml, "-batches", batches, "-content", content, "-out", filepath.Join(dir, "public-h"))
		}
	}
	nothing := func() {}
	h, one, ratio := alternate(runs, nothing, nothing, build(hist), build(newest))
	fmt.Printf("%-62s %9.2fs %9.2fs %7.2f×   peak RSS %d MB\n", fmt.Sprintf("build, warm, %d sites with 8 earlier batches / newest alone", n),
		h.wall.Seconds(), one.wall.Seconds(), ratio, h.rss>>20)
	b.ReportMetric(ratio, "history-build/newest")
}
