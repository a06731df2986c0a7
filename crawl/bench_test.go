package crawl

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/sites"
)

// The benchmarks of issue 3. They report, and enforce nothing:
//
//	go test -run '^$' -bench Crawl -benchtime 1x ./crawl
//
// BenchmarkCrawl1000Hosts crawls 1,000 generated hosts on loopback, each
// with robots.txt, a home page whose footer links to 7 reading-word pages
// (8 addresses), and the 5 well-known addresses (answering 404): 14 requests
// a host, at a 50 ms floor. It reports the batch's wall time against the
// politeness floor (the longest host's required waits plus its response
// times, from the server's log), requests per second, and the process's
// peak RSS. BenchmarkCrawlBombAndEndless reports the peak heap while the
// crawler meets a gzip bomb, an endless body and a 12 MiB page.

const (
	benchHosts   = 1000
	benchFloor   = 50 * time.Millisecond
	benchWorkers = 128
)

var benchPages = []struct{ path, text string }{
	{"vilkar", "Vilkår"}, {"personvern", "Personvern"}, {"lisens", "Lisens"}, {"betingelser", "Kjøpsbetingelser"},
	{"utviklere", "API for utviklere"}, {"apne-data", "Åpne data"}, {"legal", "Legal"},
}

// benchWeb generates the hosts in memory, and their sites.toml.
func benchWeb(n int) (fstest.MapFS, string) {
	web := fstest.MapFS{}
	var toml strings.Builder
	para := "<p>" + strings.Repeat("Dette nettstedet er en del av et stort, oppdiktet nett som bare finnes for å måle en høflig leser. ", 8) + "</p>\n"
	var footer strings.Builder
	for _, p := range benchPages {
		fmt.Fprintf(&footer, "<li><a href=\"/%s\">%s</a></li>\n", p.path, p.text)
	}
	home := "<!DOCTYPE html>\n<html lang=\"nb\">\n<head>\n<meta charset=\"utf-8\">\n<title>Vert</title>\n</head>\n<body>\n<main>\n<h1>Vert</h1>\n" +
		para + "</main>\n<footer>\n<ul>\n" + footer.String() + "</ul>\n</footer>\n</body>\n</html>\n"
	for i := range n {
		h := fmt.Sprintf("h%04d.test", i)
		web[h+"/robots.txt"] = &fstest.MapFile{Data: []byte("User-agent: *\nDisallow: /privat/\n")}
		web[h+"/index.html"] = &fstest.MapFile{Data: []byte(home)}
		for _, p := range benchPages {
			web[h+"/"+p.path+".html"] = &fstest.MapFile{Data: []byte("<!DOCTYPE html>\n<html lang=\"nb\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
				p.text + "</title>\n</head>\n<body>\n<main>\n<h1>" + p.text + "</h1>\n" + para + para + "</main>\n</body>\n</html>\n")}
		}
		fmt.Fprintf(&toml, "[[site]]\nname = %q\nurl = \"http://%s/\"\nhosts = [%q]\n\n", h, h, h)
	}
	return web, toml.String()
}

// benchFS is the generated web with a quick "not there": fstest.MapFS
// looks through every file to answer for a name it does not hold (it might
// be a folder), and with 16,000 files that is the fixture server's time, not
// the crawler's.
type benchFS struct {
	m    fstest.MapFS
	dirs map[string]bool
}

func (f benchFS) Open(name string) (fs.File, error) {
	if _, ok := f.m[name]; ok || f.dirs[name] {
		return f.m.Open(name)
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func newBenchFS(m fstest.MapFS) benchFS {
	dirs := map[string]bool{".": true}
	for name := range m {
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	return benchFS{m: m, dirs: dirs}
}

// benchDir is where a benchmark's evidence goes: memory (/dev/shm) where
// there is one, so the numbers are the crawler's and not the disk's.
func benchDir(b *testing.B) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		d, err := os.MkdirTemp("/dev/shm", "crawlsignals-bench-")
		if err == nil {
			b.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return b.TempDir()
}

// cpuTime is the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkCrawl1000Hosts(b *testing.B) { benchCrawl(b, benchHosts) }

// BenchmarkCrawl100Hosts is the same with a tenth of the hosts: where the
// machine's CPUs are not the limit, it shows how near the scheduling comes
// to the politeness floor.
func BenchmarkCrawl100Hosts(b *testing.B) { benchCrawl(b, 100) }

func benchCrawl(b *testing.B, hosts int) {
	mapfs, toml := benchWeb(hosts)
	web := newBenchFS(mapfs)
	list, err := sites.Parse("bench.toml", []byte(toml))
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		b.StopTimer()
		debug.FreeOSMemory() // what an earlier benchmark left is not this one's RSS
		srv, err := fixture.New(web)
		if err != nil {
			b.Fatal(err)
		}
		addr, err := srv.Start()
		if err != nil {
			b.Fatal(err)
		}
		resolve := map[string]string{}
		for _, s := range list.Sites {
			resolve[s.Host] = addr
		}
		c, err := New(Config{
			Batches: benchDir(b), MinDelay: benchFloor, Resolve: resolve, Workers: benchWorkers,
			Client: guard.NewClient(guard.Options{Resolve: resolve}),
		}, list, nil)
		if err != nil {
			b.Fatal(err)
		}
		m := sampleMemory(5*time.Millisecond, false)
		b.StartTimer()
		cpu0 := cpuTime()
		start := time.Now()
		sum, err := c.Run(b.Context(), nil)
		wall := time.Since(start)
		cpu := cpuTime() - cpu0
		b.StopTimer()
		_, rss := m.end()
		if err != nil {
			b.Fatal(err)
		}
		log := srv.SettledLog(10 * time.Second)
		srv.Close()
		floor, host := fixture.PolitenessFloor(log, benchFloor)
		read := 0
		for _, s := range sum.Sites {
			read += s.Read
		}
		if want := hosts * (2 + len(benchPages)); read != want { // robots.txt, home, footer pages
			b.Errorf("%d addresses read, want %d", read, want)
		}
		b.ReportMetric(wall.Seconds()/floor.Seconds(), "wall/floor")
		b.ReportMetric(wall.Seconds(), "wall-s")
		b.ReportMetric(floor.Seconds(), "floor-s")
		b.ReportMetric(float64(len(log))/wall.Seconds(), "req/s")
		b.ReportMetric(float64(len(log)), "requests")
		b.ReportMetric(rss, "peak-RSS-MB")
		b.ReportMetric(cpu.Seconds()/wall.Seconds(), "CPUs-busy")
		b.ReportMetric(float64(cpu.Microseconds())/float64(len(log)), "cpu-µs/req")
		b.Logf("%d hosts, %d requests in %s; floor %s (%s); %d workers, %d CPUs", hosts, len(log), wall.Round(time.Millisecond),
			floor.Round(time.Millisecond), host, benchWorkers, runtime.GOMAXPROCS(0))
		b.StartTimer()
	}
}

// memSampler records the highest heap in use (runtime.MemStats.HeapInuse)
// and the highest resident set (/proc/self/statm) while it runs. VmHWM
// would be simpler for the RSS, but it cannot be reset between benchmarks
// everywhere.
type memSampler struct {
	stop      chan struct{}
	done      sync.WaitGroup
	heap, rss uint64
}

func sampleMemory(every time.Duration, heap bool) *memSampler {
	m := &memSampler{stop: make(chan struct{})}
	page := uint64(os.Getpagesize())
	m.done.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			if heap {
				runtime.ReadMemStats(&ms)
				m.heap = max(m.heap, ms.HeapInuse)
			}
			if b, err := os.ReadFile("/proc/self/statm"); err == nil {
				if f := strings.Fields(string(b)); len(f) > 1 {
					n, _ := strconv.ParseUint(f[1], 10, 64)
					m.rss = max(m.rss, n*page)
				}
			}
			select {
			case <-t.C:
			case <-m.stop:
				return
			}
		}
	})
	return m
}

// end stops the sampler and returns the peaks in MB.
func (m *memSampler) end() (heapMB, rssMB float64) {
	close(m.stop)
	m.done.Wait()
	return float64(m.heap) / (1 << 20), float64(m.rss) / (1 << 20)
}

func BenchmarkCrawlBombAndEndless(b *testing.B) {
	list := hostileList(b)
	only := []string{"bomb.test", "endless.test", "big.test"}
	for range b.N {
		b.StopTimer()
		debug.FreeOSMemory() // what an earlier benchmark left is not this one's RSS
		srv := newWeb(b, nil)
		addr, err := srv.Start()
		if err != nil {
			b.Fatal(err)
		}
		resolve := map[string]string{}
		for _, h := range only {
			resolve[h] = addr
		}
		// The site URLs are https; the plain listener is reached over http.
		var plain sites.List = *list
		plain.Sites = nil
		for _, s := range list.Sites {
			if s.Host == "bomb.test" || s.Host == "endless.test" || s.Host == "big.test" {
				s.URL = "http://" + s.Host + "/"
				plain.Sites = append(plain.Sites, s)
			}
		}
		// One request at a time: the peak is what one capped body costs.
		c, err := New(Config{Batches: benchDir(b), MinDelay: benchFloor, Resolve: resolve, Workers: 1, Client: guard.NewClient(guard.Options{Resolve: resolve})}, &plain, nil)
		if err != nil {
			b.Fatal(err)
		}
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		m := sampleMemory(time.Millisecond, true)
		b.StartTimer()
		sum, err := c.Run(b.Context(), nil)
		b.StopTimer()
		peak, rss := m.end()
		srv.Close()
		if err != nil {
			b.Fatal(err)
		}
		gaps := 0
		for _, s := range sum.Sites {
			gaps += s.Gaps
		}
		b.ReportMetric(peak, "peak-heap-MB")
		b.ReportMetric(rss, "peak-RSS-MB")
		b.ReportMetric(float64(before.HeapInuse)/(1<<20), "heap-before-MB")
		b.Logf("gzip bomb (%d MiB), endless body, 12 MiB page: peak heap %.1f MB (cap %d MB per body)", fixture.GzipBombSize>>20, peak, MaxBody>>20)
		b.StartTimer()
	}
}
