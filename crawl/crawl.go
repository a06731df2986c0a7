// Package crawl runs a batch: for each reviewed site, the plan of design §2
// (robots.txt first, the home page's footer, one hop, the well-known files,
// approved addresses), fetched under the politeness rules of §2.2, each
// exchange kept as evidence. It is the only package that touches the network.
//
// How the rules are kept, and the choices the design left open:
//
//   - Pacing (pacer.go): one clock per host for the whole batch, whatever
//     the scheme; one request at a time; from the end of one request to the
//     start of the next at least the floor (2 s), raised to robots.txt's
//     Crawl-delay (our group's, else *'s; fractions kept) and held back by
//     Retry-After. A request we hung up on before its body ended counts as
//     ending hangUpGrace (0.5 s) later, because the server's side of it
//     ends only when our reset reaches it.
//   - Concurrency (Run): every site runs at once, each strictly serial;
//     Config.Workers bounds the requests on the wire over all hosts, and a
//     host waiting out its clock holds no worker, so the batch takes about
//     as long as its slowest host (the politeness floor). The sites started
//     together first all send their first request before any reads its
//     first answer (wave.go), so the last chain starts as soon as it can.
//   - 429 and 503 (follow): Retry-After in seconds or as a date (measured
//     from the answer's Date and from our clock, the longer wait wins);
//     retried once when the wait is at most 5 min, 60 s when no
//     Retry-After is given; a longer wait stops the host for the run. Not
//     retried for robots.txt, which is then robots-unavailable.
//   - The guarded client (package crawl/guard, the only client New
//     takes): policy timeouts, a transfer floor (1 KiB per 5 s window, so a
//     trickle holds a host for 5 s, not 60), HTTP/1.1 with one kept
//     connection per host, heads of at most 1 MiB, no cookies, no proxy, no
//     automatic redirects or decompression, no request sent again by the
//     transport, and every resolved address checked at dial time.
//   - Content-Type decides before the body is read; bodies are read to the
//     10 MB cap and a byte more, never further, and decoded to the cap.
//   - Bot challenges (challenge.go): strong markers only, whatever the
//     status; never retried, kept as evidence, never read as content.
//   - Two timeouts or connection failures in a row stop a host.
package crawl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/policy"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Identity and floor, from the policy the about page prints.
const (
	UserAgent = policy.UserAgent
	Token     = policy.Token
	Version   = policy.Version
	// MinDelayFloor can be lowered only when every host of the run is
	// mapped to loopback (the fixture web).
	MinDelayFloor = policy.MinDelay
)

// SitesPerCore bounds the sites in progress for each processor. One core
// sends about 3,500 plain HTTP requests a second (README, "Capacity"),
// fewer over TLS: at the 2 s floor about 1,000 hosts over TLS (5,000 over
// plain HTTP). More sites in progress than the processors can serve would
// not finish sooner, only hold more memory (about 20 KB each, and 1 KB
// for an idle connection).
const SitesPerCore = 1000

// Config is what a batch needs besides the reviewed list.
type Config struct {
	Batches  string        // folder holding batch folders
	Batch    string        // this batch's name; empty: the UTC start time
	MinDelay time.Duration // 0: MinDelayFloor
	// Resolve maps reviewed hosts to IP:PORT (the fixture web on loopback).
	Resolve map[string]string
	// Workers is how many requests the batch has in flight at once, over
	// all hosts; 0: 8. Each host is always one request at a time, and a
	// host waiting out its delay holds no worker, so a few workers keep many
	// hosts at their politeness pace.
	Workers int
	// MaxOpenSites is how many sites are in progress at once; 0:
	// SitesPerCore for each processor the crawl may use. A site in progress
	// holds its plan and what it read so far, and, while it waits, at most
	// its idle connection (see IdleConnsFor); its evidence file is open
	// only while written.
	MaxOpenSites int
	// Client is the guarded client (guard.NewClient), and no other: New
	// refuses any other (see guard.Check).
	Client *http.Client
	Logger *slog.Logger
	// Progress receives one line per site as it finishes; nil: none. A
	// site cut short by an interrupt gets no line (the error Run returns,
	// an *Interrupted, counts them).
	Progress io.Writer
	// Status receives, on long work, a line naming what the crawl waits
	// on: the sites done, and the host whose clock holds it back and why
	// (its Retry-After, its Crawl-delay), at most one line a StatusEvery
	// while no site finishes, and one when a wait longer than StatusEvery
	// starts. nil: none. The command sends it to standard error.
	Status io.Writer
	// PDFText takes a PDF's text for the saved texts beside the evidence
	// (the command runs it in a child process); batchDir is the batch's
	// folder, where the reader may keep what it derives for the build
	// (derived.CrawlPDFReader). nil leaves the text to the build.
	PDFText func(batchDir string, body []byte) (string, error)

	// Resume continues the batch named Batch, started earlier and
	// interrupted: sites with a manifest in it are not read again, and a
	// site's interrupted attempt is read back and its stored answers used
	// instead of asking again (see seed).
	Resume bool
	// Recheck marks a batch crawled on a site owner's request: robots.txt
	// answers of the newest earlier batch younger than RobotsMaxAge are
	// reused, and each host's clock starts at the end of that batch's
	// requests to it. batch.json says kind "recheck".
	Recheck bool
	// SitesFile and SitesSHA256 name the reviewed list in batch.json.
	SitesFile, SitesSHA256 string
	// Shard is "i/n" when this run is one shard of the batch; its batch
	// records then carry the shard in their names.
	Shard string
}

// Crawler crawls the sites of one reviewed list.
type Crawler struct {
	cfg   Config
	list  *sites.List
	pacer *pacer
	slots chan struct{}     // one token per request in flight (Workers)
	stop  map[string]string // host of a blocked site → that site

	// Set by Run for its batch: the answers of hosts shared by several
	// sites, and how each site's evidence ended (see shared.go).
	shared *sharedAnswers
	ends   map[string]*siteEnd
	peers  map[string][]string // the other sites of each site's group in this run
	// files bounds the evidence files opened for a write at once (one per
	// worker); held bounds the sites that keep theirs open between
	// requests (HeldFilesFor), the others open it only while they write.
	files chan struct{}
	held  chan struct{}
	wave  *startWave // set by Run: the sites started together first
}

// New checks the configuration against the politeness promises and returns a crawler.
func New(cfg Config, list *sites.List, only []string) (*Crawler, error) {
	if err := guard.Check(cfg.Client); err != nil {
		return nil, fmt.Errorf("crawl: %w", err)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 8
	}
	if cfg.MaxOpenSites <= 0 {
		cfg.MaxOpenSites = SitesPerCore * runtime.GOMAXPROCS(0)
	}
	if cfg.MinDelay == 0 {
		cfg.MinDelay = MinDelayFloor
	}
	if cfg.MinDelay < 0 {
		return nil, fmt.Errorf("-min-delay %s: must not be negative", cfg.MinDelay)
	}
	if cfg.Batches == "" {
		cfg.Batches = "batches"
	}
	selected, err := Select(list, only)
	if err != nil {
		return nil, err
	}
	for host := range cfg.Resolve {
		if _, ok := list.Lookup(host); !ok {
			return nil, fmt.Errorf("-resolve %s: not a reviewed host in %s; we never contact a host that is not on the list", host, list.Path)
		}
	}
	if cfg.MinDelay < MinDelayFloor {
		for _, s := range selected {
			for _, h := range s.Hosts {
				to, ok := cfg.Resolve[h]
				if !ok || !guard.LoopbackTarget(to) {
					return nil, fmt.Errorf("-min-delay %s is below the %s floor, which may be lowered only when every host is mapped to loopback with -resolve; %s is not (mapped to %q)", cfg.MinDelay, MinDelayFloor, h, to)
				}
			}
		}
	}
	held, err := HeldFilesFor(cfg.Workers, cfg.MaxOpenSites, OpenFilesLimit())
	if err != nil {
		return nil, err
	}
	// sites.Parse refuses a blocked site's host listed for another site;
	// a list made otherwise still never reaches one (see follow).
	stop := map[string]string{}
	for _, s := range list.Sites {
		if s.Blocked {
			for _, h := range s.Hosts {
				stop[h] = s.Host
			}
		}
	}
	return &Crawler{cfg: cfg, list: list, pacer: newPacer(cfg.MinDelay), stop: stop,
		slots: make(chan struct{}, cfg.Workers), files: make(chan struct{}, cfg.Workers), held: make(chan struct{}, held)}, nil
}

// Select returns the sites named by only, or all. A site is named by any of
// its hosts; a host shared by several sites names every one of them.
func Select(list *sites.List, only []string) ([]*sites.Site, error) {
	if len(only) == 0 {
		out := make([]*sites.Site, len(list.Sites))
		for i := range list.Sites {
			out[i] = &list.Sites[i]
		}
		return out, nil
	}
	var out []*sites.Site
	seen := map[string]bool{}
	for _, h := range only {
		s, ok := list.Lookup(strings.ToLower(h))
		if !ok {
			return nil, fmt.Errorf("-site %s: not in %s", h, list.Path)
		}
		named := []*sites.Site{s}
		if s.Host != strings.ToLower(h) {
			// A host reviewed for several sites names them all.
			named = list.Sharing(h)
		}
		for _, s := range named {
			if !seen[s.Host] {
				seen[s.Host] = true
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// SiteResult sums up one site's part of the batch.
type SiteResult struct {
	Site     string
	Read     int
	Gaps     int
	Requests int
	Answered int   // requests that got an answer, whatever its status
	Reused   int   // stored answers used instead of a request (resume, recheck)
	Shared   int   // answers of a shared host another site of the batch asked for
	Skipped  bool  // complete in this batch already (resume): not read again
	Blocked  bool  // asked us to stop: nothing was sent to it
	Err      error // the site's evidence could not be written, or Interrupted
	// Interrupted is set when the site was cut short because the crawl
	// was stopped (Err is then the context's error, or a site of its group
	// that was cut short): its evidence is left for crawl -resume; it is no
	// failure to write evidence.
	Interrupted bool
	// MainGap is the main reason of the site's gaps in a few words
	// ("robots.txt answered 503"): the reason most of its addresses not
	// read share; "" when every address was read.
	MainGap string
}

// Summary is the end of a batch.
type Summary struct {
	Batch string
	Dir   string
	Sites []SiteResult // the sites that ended, well or not, by host
	// Total is how many sites the run was to crawl, those complete in the
	// batch already (resume) included: an interrupted run ends some of
	// them before they start, and they have no result.
	Total    int
	Requests int
	Answered int
	Elapsed  time.Duration
}

// Run crawls the selected sites (all when only is empty) into a new batch
// folder, many sites at once, each host strictly one request at a time.
func (c *Crawler) Run(ctx context.Context, only []string) (*Summary, error) {
	selected, err := Select(c.list, only)
	if err != nil {
		return nil, err
	}
	started := time.Now().UTC()
	batch := c.cfg.Batch
	if batch == "" {
		if c.cfg.Resume {
			return nil, errors.New("resume: no batch named")
		}
		batch = evidence.NewBatchName(started)
	}
	dir := filepath.Join(c.cfg.Batches, batch)
	sum := &Summary{Batch: batch, Dir: dir, Total: len(selected)}
	c.shared = newSharedAnswers(sites.SharedHosts(selected))
	selected, done, err := c.start(dir, batch, started, selected)
	if err != nil {
		return nil, err
	}
	c.ends = map[string]*siteEnd{}
	for _, s := range selected {
		c.ends[s.Host] = newSiteEnd()
	}
	if c.cfg.Resume {
		if err := c.resumeShared(dir, selected, done); err != nil {
			return nil, err
		}
		// The interrupted run may have had a request on the wire to any
		// host of a site it left unfinished, sent after the last write of
		// any file (a kill leaves no trace of it), and ended only by the
		// process's end: before this run started. So each such host's
		// clock starts now, its end on the server's side allowed for.
		resumed := time.Now().Add(hangUpGrace)
		for _, s := range selected {
			if !s.Blocked {
				for _, h := range s.Hosts {
					c.pacer.seed(h, resumed, time.Time{})
				}
			}
		}
	}
	sum.Sites = append(sum.Sites, done...)
	if c.cfg.Progress != nil {
		for _, r := range done {
			fmt.Fprintln(c.cfg.Progress, r.line())
		}
	}
	var st *status
	if c.cfg.Status != nil {
		st = newStatus(c.cfg.Status, sum.Total, len(done), c.slots)
		c.pacer.setWatch(st.waiting)
		defer func() { c.pacer.setWatch(nil); st.close() }()
	}

	// Every site runs on its own goroutine (at most MaxOpenSites at once);
	// what bounds the work is the request slots, taken only while a request
	// is on the wire, so a host waiting out its clock costs no worker. Sites
	// that share a host complete their evidence together (see siteEnd), so
	// such a group starts as one and takes one place among MaxOpenSites.
	groups := c.runGroups(selected)
	open := len(groups)
	if n := c.cfg.MaxOpenSites; n > 0 && n < open {
		open = n
	}
	var first []string
	for _, group := range groups[:open] {
		for _, s := range group {
			first = append(first, s.Host)
		}
	}
	c.wave = newStartWave(first)
	results := make(chan SiteResult)
	go func() {
		var wg sync.WaitGroup
		defer func() { wg.Wait(); close(results) }()
		gate := make(chan struct{}, max(open, 1))
		for gi, group := range groups {
			select {
			case gate <- struct{}{}:
			case <-ctx.Done():
				for _, g := range groups[gi:] {
					for _, s := range g {
						c.ends[s.Host].fail() // never started: no one waits for it
					}
				}
				return
			}
			var members sync.WaitGroup
			for _, s := range group {
				members.Add(1)
				wg.Go(func() {
					defer members.Done()
					results <- c.crawlSite(ctx, dir, batch, s)
				})
			}
			wg.Go(func() { members.Wait(); <-gate })
		}
	}()

	var failed []error
	for r := range results {
		// A site cut short by the stop is no failure to write evidence:
		// it is left for crawl -resume, and the interruption is said once.
		r.Interrupted = r.Err != nil && ctx.Err() != nil && cutShort(r.Err)
		sum.Sites = append(sum.Sites, r)
		sum.Requests += r.Requests
		sum.Answered += r.Answered
		if c.cfg.Progress != nil && !r.Interrupted {
			fmt.Fprintln(c.cfg.Progress, r.line())
		}
		st.siteDone()
		if r.Err != nil && !r.Interrupted {
			failed = append(failed, fmt.Errorf("%s: %w", r.Site, r.Err))
		}
	}
	sort.Slice(sum.Sites, func(i, j int) bool { return sum.Sites[i].Site < sum.Sites[j].Site })
	sum.Elapsed = time.Since(started)
	if err := ctx.Err(); err != nil {
		in := &Interrupted{Batch: batch, Total: sum.Total, Err: err}
		for _, r := range sum.Sites {
			if r.Err == nil {
				in.Done++
			}
		}
		failed = append(failed, in)
	}
	if len(failed) == 0 {
		if err := c.finish(dir, batch, sum); err != nil {
			failed = append(failed, err)
		}
	}
	return sum, errors.Join(failed...)
}

// Interrupted is the error of a run stopped before every site was done
// (SIGINT, SIGTERM): the sites done have their evidence; the others left
// theirs for crawl -resume.
type Interrupted struct {
	Batch       string
	Done, Total int // sites with their manifest in the batch, of the run's
	Err         error
}

func (e *Interrupted) Error() string {
	return fmt.Sprintf("batch %s interrupted (%v) with %d of %d sites done; continue it with crawl -resume %s", e.Batch, e.Err, e.Done, e.Total, e.Batch)
}

func (e *Interrupted) Unwrap() error { return e.Err }

// cutShort tells an error that only says the site was stopped: the
// context's, or that a site of its group was (see finish).
func cutShort(err error) bool {
	var g *groupError
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.As(err, &g)
}

func (r SiteResult) line() string {
	if r.Skipped {
		return fmt.Sprintf("%-28s complete in this batch already; not read again", r.Site)
	}
	if r.Err != nil {
		return fmt.Sprintf("%-28s FAILED: %v", r.Site, r.Err)
	}
	line := fmt.Sprintf("%-28s %3d read, %3d not read, %3d requests", r.Site, r.Read, r.Gaps, r.Requests)
	if r.Reused > 0 {
		line += fmt.Sprintf(", %d stored answers reused", r.Reused)
	}
	if r.Shared > 0 {
		line += fmt.Sprintf(", %d answers shared with other sites", r.Shared)
	}
	return line
}
