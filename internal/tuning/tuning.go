// Package tuning is the process's memory tuning in one place: the soft
// memory limit and the collector's pace the crawl and build commands set for
// themselves (runtime/debug), each with the measurements it rests on. The
// packages of the pipeline never set them: a library does not own its
// process; the command does.
package tuning

import (
	"runtime"

	"github.com/crawlsignals/crawlsignals/crawl"
)

// CrawlMemoryLimit is the soft memory limit (runtime/debug.SetMemoryLimit)
// for a crawl with openSites sites in progress (0: crawl.SitesPerCore for each
// processor). A site in progress holds what the collector cannot free
// until its last request: its plan, its hosts' robots.txt as parsed, the
// text of each page it read (packed), its idle connection and its
// goroutine's stack. On pages of a few KB that was about 20 KB; on real
// pages (robots.txt files of tens of KB, home pages of 150–370 KB) the
// heap held about 65 KB a site with 2,000 sites in progress, and the
// stacks about 35 KB more. A limit below what the sites hold makes the
// collector run without pause: with 56 KiB a site the crawl's CPU a
// request doubled (7.6–8.5 ms against 3.8–4.4 ms without a limit, make
// bench's 2,000 real-page hosts). So the limit is twice what a site holds
// on real pages, plus a base for the requests in flight: above the heap
// the collector's own pace gives, it only trims the peak. It is soft: a
// crawl that needs more (ten answers of 10 MB at once) gets it, at the
// price of more collection.
func CrawlMemoryLimit(openSites int) int64 {
	if openSites <= 0 {
		openSites = crawl.SitesPerCore * runtime.GOMAXPROCS(0)
	}
	const base, perSite = 64 << 20, 160 << 10
	return base + int64(openSites)*perSite
}

// CrawlGCPercent is the collector's pace (runtime/debug.SetGCPercent) for a
// crawl, under the memory limit of CrawlMemoryLimit. On real pages the
// crawler allocates about 0.5 MB a request (most of it parsing HTML) and
// holds little of it, so at the default pace (100: collect when the heap
// has doubled) the collector and its stop-and-scan of every site's
// goroutine were about a seventh of the crawler's CPU with 2,000 sites in
// progress. At 400 the heap may grow to five times what is live before a
// collection, and the memory limit caps it where it would pass what the
// sites in progress may hold: a large crawl's peak is the limit either way
// (369-379 MB, make bench's 2,000 real-page hosts), a small one's stays a
// few times what it holds, and CPU a request fell by a tenth (2,653 µs at
// 100, 2,444 at 200, 2,368 at 400, 2,307 with no pace but the limit).
const CrawlGCPercent = 400

// BuildMemoryLimit is the soft memory limit (runtime/debug.SetMemoryLimit)
// the build command asks for when it builds sites sites: 48 MiB and 12 KiB
// a site. A streamed build holds about 5 KiB a site while the sites are
// written and about 11 KiB while the views across sites are (a 10,000-site
// synthetic build: its heap in use peaks near 110 MiB, with agents.json and
// sites.json written an element at a time); without a limit the collector
// lets the heap grow to twice that before it runs. At 16 KiB a site the
// peak RSS of that build was 196 MiB, at 12 KiB 179 MiB, for about 5% more
// CPU; the 48 MiB are for the derivation of real pages, whose parses are
// held per worker, not per site. It is a soft limit: a longer list that
// needs more gets more, collected more often.
func BuildMemoryLimit(sites int) int64 {
	return 48<<20 + int64(sites)*12<<10
}

// BuildGCPercent is the collector's pace (runtime/debug.SetGCPercent) the build
// command asks for, under the limit of BuildMemoryLimit. Deriving real pages
// allocates far more than it keeps (a cold build of 200 real-page sites
// allocates about 2 GB and holds tens of MB), so at the default pace (100)
// the collector ran about every few MB; at 400 the heap may grow to five
// times what is live, and the memory limit still caps it where a long list
// would pass it. A cold build of those 200 sites took 16% less CPU.
const BuildGCPercent = 400
