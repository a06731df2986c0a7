package render

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Stream is a build under way, for a list too long to hold whole: Site
// writes one site's own files (its page, signals.json and feed) as soon as
// its findings are derived and keeps only what the views across sites read
// (brief); Close writes those views and puts the folder in place. The
// output is the same, byte for byte, as Build's with every site at hand.
type Stream struct {
	r        *Renderer
	in       Input
	w        writer
	out, tmp string

	mu     sync.Mutex
	kept   []*signals.Site // by the site's place in the list: brief, or whole when whole is set
	errs   []error         // by place, from Site
	whole  bool            // keep each site whole: Build, which holds them all anyway
	shared shared          // what briefs hold in common, each kept once
}

// shared holds what many briefs have alike, once: the robots.txt verdicts
// for the 43 crawlers (most sites answer alike), and the lists of which the
// views read only the length.
type shared struct {
	agents map[string][]signals.Agent
	docs   map[[2]int][]signals.Document // by length and policy documents
	gaps   map[int][]signals.Gap
	looks  map[int][]signals.Contradiction
	ai     map[int][]signals.AICrawler
	// purposeAI are the per-purpose crawler lists, shared by every site
	// whose crawlers meet the same objections.
	purposeAI map[string][]signals.AICrawler
}

// Stream starts a build of n sites into out (cleaned, a symbolic link
// followed, as Build does); Site must then be called for each place of
// 0..n-1, from any number of goroutines, and Close once at the end.
func (r *Renderer) Stream(out string, in Input, n int) (*Stream, error) {
	out = filepath.Clean(out)
	if fi, err := os.Lstat(out); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(out)
		if err != nil {
			return nil, fmt.Errorf("output folder %s is a symbolic link that cannot be followed: %w", out, err)
		}
		out = target
	}
	if err := restoreSwap(out); err != nil {
		return nil, err
	}
	tmp := out + ".new"
	if err := os.RemoveAll(tmp); err != nil {
		return nil, err
	}
	base, err := baseURL(in.BaseURL)
	if err != nil {
		return nil, err
	}
	if in.Contact == "" {
		in.Contact = sites.DefaultContact
	}
	in.Sites = nil // the sites come through Site
	return &Stream{r: r, in: in, w: writer{dir: tmp, base: base}, out: out, tmp: tmp,
		kept: make([]*signals.Site, n), errs: make([]error, n)}, nil
}

// Site writes the files of the site at place i of the list and keeps what
// the views across sites need of it.
func (st *Stream) Site(i int, s *signals.Site) error {
	err := st.site(s)
	st.mu.Lock()
	defer st.mu.Unlock()
	kept := s
	if !st.whole {
		kept = st.shared.brief(s)
	}
	st.kept[i], st.errs[i] = kept, err
	return err
}

func (st *Stream) site(s *signals.Site) error {
	if !safeSegment(s.Host) || !safeSegment(s.Category) {
		return fmt.Errorf("site %q: host %q or category %q cannot be a folder name", s.Name, s.Host, s.Category)
	}
	return st.r.siteFiles(st.w, st.in, st.w.base, s)
}

// Close writes the views across sites and swaps the new folder in for
// out (swap.go), so a failed build leaves the old site whole, and out is
// one whole site at every instant. The first error of a
// site, in list order, fails the build before the views are written.
func (st *Stream) Close() error {
	fail := func(err error) error {
		os.RemoveAll(st.tmp)
		return err
	}
	for i, err := range st.errs {
		if err != nil {
			return fail(err)
		}
		if st.kept[i] == nil {
			return fail(fmt.Errorf("render: site %d of %d was never written", i+1, len(st.kept)))
		}
	}
	if err := st.r.views(st.w, st.in, st.kept); err != nil {
		return fail(err)
	}
	exch := exchange
	if st.r.noExchange {
		exch = func(a, b string) error { return errors.ErrUnsupported }
	}
	return swapIn(st.tmp, st.out, exch, st.r.beforeSwapStep)
}

// Abort gives up the build: the new folder is removed and out is left as
// it was.
func (st *Stream) Abort() { os.RemoveAll(st.tmp) }

// Sites are what the stream kept of each site, in list order: what the
// views across sites read (brief).
func (st *Stream) Sites() []*signals.Site {
	st.mu.Lock()
	defer st.mu.Unlock()
	return append([]*signals.Site(nil), st.kept...)
}

// brief is what the views across sites read of a site (the directory and
// its views, sites.json and the CSV, agents.json and the crawler pages, the
// comparison, changes/, the directory's feed and the sitemap): the site's
// own page has had the rest. What is left out is what only the site's
// page shows: robots.txt's text and groups, the other hosts' robots.txt,
// the quotes, the signals files but TDMRep, licences, APIs and the AI
// signals' sources. Of the documents read, the gaps, the places to look
// twice and the per-crawler AI verdicts the views read only how many there
// are (and how many documents are policies), so the brief holds a shared
// list of as many empty ones; the crawlers' robots.txt verdicts are shared
// by every site that gives the same. A test builds with every site whole
// and compares each file. The caller holds the stream's lock.
func (sh *shared) brief(s *signals.Site) *signals.Site {
	if sh.agents == nil {
		*sh = shared{agents: map[string][]signals.Agent{}, docs: map[[2]int][]signals.Document{},
			gaps: map[int][]signals.Gap{}, looks: map[int][]signals.Contradiction{}, ai: map[int][]signals.AICrawler{},
			purposeAI: map[string][]signals.AICrawler{}}
	}
	b := *s
	b.Robots.Lines, b.Robots.Groups, b.Robots.CommentQuotes, b.Robots.Sitemaps = nil, nil, nil, nil
	b.OtherRobots, b.Quotes, b.NotPublished, b.Licences, b.APIs = nil, nil, nil, nil, nil
	b.Signals = signals.Signals{TDMReservation: s.Signals.TDMReservation}
	b.AIUse.Sources = nil
	b.Robots.Agents = sh.sameAgents(s.Robots.Agents)
	docs := s.Documents()
	b.Read = sameLen(sh.docs, [2]int{len(s.Read), docs}, len(s.Read), func(d []signals.Document) {
		for i := range docs {
			d[i].Role = signals.RolePolicy
		}
	})
	b.NotRead = sameLen(sh.gaps, len(s.NotRead), len(s.NotRead), nil)
	b.Contradictions = sameLen(sh.looks, len(s.Contradictions), len(s.Contradictions), nil)
	b.AIUse.Crawlers = sameLen(sh.ai, len(s.AIUse.Crawlers), len(s.AIUse.Crawlers), nil)
	// The views read each purpose's verdict, and the crawler pages each
	// crawler's verdict per purpose with the signals that object for it:
	// those sources are kept (a term's sentence but its kind left out),
	// every other left empty in its place.
	if len(s.AIUse.Purposes) > 0 {
		b.AIUse.Purposes = make([]signals.AIPurpose, len(s.AIUse.Purposes))
		used := map[int]bool{}
		for i, p := range s.AIUse.Purposes {
			b.AIUse.Purposes[i] = signals.AIPurpose{Purpose: p.Purpose, Verdict: p.Verdict, Crawlers: sh.samePurposeCrawlers(p.Crawlers)}
			for _, c := range p.Crawlers {
				for _, o := range c.Objections {
					used[o] = o >= 0 && o < len(s.AIUse.Sources)
				}
			}
		}
		for o, ok := range used {
			if !ok {
				continue
			}
			if b.AIUse.Sources == nil {
				b.AIUse.Sources = make([]signals.AISource, len(s.AIUse.Sources))
			}
			src := s.AIUse.Sources[o]
			if src.Kind == "terms" {
				src.Says = ""
			}
			src.Record, src.Purposes, src.ObjectsFor = "", nil, nil
			b.AIUse.Sources[o] = src
		}
	}
	return &b
}

// samePurposeCrawlers is a purpose's crawler list shared by every site
// whose crawlers meet the same objections.
func (sh *shared) samePurposeCrawlers(cs []signals.AICrawler) []signals.AICrawler {
	if cs == nil {
		return nil
	}
	var k strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&k, "%s\x00%s\x00%s\x00%t\x00%v\x01", c.Agent, c.Robots, c.Group, c.Refused, c.Objections)
	}
	if l, ok := sh.purposeAI[k.String()]; ok {
		return l
	}
	sh.purposeAI[k.String()] = cs
	return cs
}

// sameLen is a shared list of n empty values (nil for none, as the site's
// own), made once per key and set up by fill.
func sameLen[K comparable, T any](m map[K][]T, key K, n int, fill func([]T)) []T {
	if n == 0 {
		return nil
	}
	if l, ok := m[key]; ok {
		return l
	}
	l := make([]T, n)
	if fill != nil {
		fill(l)
	}
	m[key] = l
	return l
}

// sameAgents is the agents list shared by every site whose robots.txt
// gives each crawler the same answer.
func (sh *shared) sameAgents(agents []signals.Agent) []signals.Agent {
	if agents == nil {
		return nil
	}
	var k strings.Builder
	for _, a := range agents {
		fmt.Fprintf(&k, "%s\x00%s\x00%s\x00%s\x00%d\x00%s\x00%s\x00%s\x00%s\x01",
			a.Agent, a.ParserToken, a.Category, a.Group, a.Line, a.Verdict(), a.Note, a.Operator, a.Purpose)
	}
	if l, ok := sh.agents[k.String()]; ok {
		return l
	}
	sh.agents[k.String()] = agents
	return agents
}
