package crawl

import (
	"context"
	"fmt"
	"hash/fnv"
	"net/url"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/policy"
	"github.com/crawlsignals/crawlsignals/sites"
)

// siteRun is one site's crawl: its plan, its hosts' robots.txt, its evidence.
type siteRun struct {
	c                 *Crawler
	dir               string // the batch's folder
	site              *sites.Site
	w                 *evidence.Writer
	m                 evidence.Manifest
	hosts             map[string]*hostState
	addrs             []*evidence.Address // the plan, in order; copied into the manifest at the end
	planned           map[string]bool     // addresses already in the plan, without fragment
	budget            int                 // addresses (robots.txt aside) still allowed this batch
	requests          int
	homeLang          string                                    // primary language of the home page
	alternates        map[string]*evidence.Address              // hreflang alternates of pages read → the page's address
	variants          map[string]*evidence.Address              // footer and hop addresses by languageSwitch key
	pendingAlternates [][2]string                               // language variants not read: {address read instead, variant}
	reused            int                                       // stored answers used instead of a request
	seed              *seed                                     // stored answers to reuse; nil: none
	failures          map[string]int                            // consecutive timeouts or connection failures per host
	down              map[string]string                         // hosts not tried again this run, and why
	werr              error                                     // evidence could not be written: stop reading
	texts             map[*evidence.Address]evidence.PackedText // visible text of each page read
	pdfs              pdfTexts                                  // the PDFs' texts, taken while the site goes on
	answered          int                                       // requests that got an answer, of any status
	turns             map[string]int                            // requests so far per address on shared hosts
	donors            map[string]bool                           // sites whose records this manifest points at
	shared            int                                       // answers another site asked for
	wave              *waveTicket                               // the site's place among the sites started first
}

func (c *Crawler) crawlSite(ctx context.Context, dir, batch string, s *sites.Site) SiteResult {
	if e := c.ends[s.Host]; e != nil {
		defer e.fail() // whatever ended early ended badly; see finish
	}
	if s.Blocked {
		return c.writeSite(ctx, dir, batch, s, nil)
	}
	var sd *seed
	var err error
	if c.cfg.Recheck {
		if sd, err = c.recheckSeed(s.Host, batch, time.Now()); err != nil {
			return SiteResult{Site: s.Host, Err: err}
		}
	}
	return c.writeSite(ctx, dir, batch, s, sd)
}

// writeSite crawls one site into the batch. With a seed, its stored
// answers are used instead of requests and its clocks start where an
// earlier run left them.
func (c *Crawler) writeSite(ctx context.Context, dir, batch string, s *sites.Site, sd *seed) SiteResult {
	wave := c.wave.ticket(s.Host)
	defer wave.sent() // a site that sent no request holds no one back
	res := SiteResult{Site: s.Host}
	info := map[string]string{
		"software":   "crawlsignals/" + Version,
		"batch":      batch,
		"site":       s.Host,
		"min-delay":  c.cfg.MinDelay.String(),
		"user-agent": UserAgent,
	}
	w, err := evidence.Create(dir, s.Host, info) // the file is made with the first record
	if err != nil {
		res.Err = err
		return res
	}
	select {
	case c.held <- struct{}{}: // a descriptor to spare: keep the WARC open
		w.Hold()
		defer func() { <-c.held }()
	default:
	}
	// Whatever happens, the file is closed before the site ends (after Seal
	// or Close, Abort does nothing).
	defer w.Abort()
	r := &siteRun{
		c: c, dir: dir, site: s, w: w, wave: wave,
		m:          evidence.Manifest{Site: s.Host, Name: s.Name, Batch: batch, Started: time.Now().UTC()},
		hosts:      map[string]*hostState{},
		planned:    map[string]bool{},
		failures:   map[string]int{},
		down:       map[string]string{},
		budget:     c.list.Global.MaxAddresses,
		alternates: map[string]*evidence.Address{},
		variants:   map[string]*evidence.Address{},
		turns:      map[string]int{},
		donors:     map[string]bool{},
	}
	if r.budget <= 0 {
		r.budget = sites.DefaultMaxAddresses
	}
	if c.cfg.Resume && !s.Blocked {
		// After Create, which moved the interrupted attempt's .open aside.
		// What the interrupted attempts of this site, and of the sites
		// sharing a host with it, stored: a shared address may have been
		// asked by any of them.
		for _, o := range c.resumingWith(s) {
			resumed, err := c.resumeSeed(dir, o)
			if err != nil {
				w.Abort()
				res.Err = err
				return res
			}
			sd = sd.merge(resumed)
		}
	}
	r.seed = sd
	if sd != nil {
		for host, t := range sd.clocks {
			c.pacer.seed(host, t, time.Time{})
		}
	}
	if s.Blocked {
		r.m.Blocked, r.m.BlockedSince = true, s.BlockedSince
		r.addrs = append(r.addrs, &evidence.Address{
			URL: s.URL, FoundVia: "home", Outcome: evidence.OutcomeGap,
			Reason: evidence.ReasonAskedToStop, Detail: "blocked since " + s.BlockedSince,
		})
	} else {
		r.run(ctx)
		r.waitPDFs()
	}
	r.settleAlternates()
	r.m.Finished = time.Now().UTC()
	for _, a := range r.addrs {
		r.m.Addresses = append(r.m.Addresses, *a)
	}
	for host, hs := range r.hosts {
		r.m.Hosts = append(r.m.Hosts, hs.record(host))
	}
	sortHosts(r.m.Hosts)
	// Requests sent are counted whatever became of the site's evidence.
	res.Requests, res.Reused, res.Answered, res.Shared = r.requests, r.reused, r.answered, r.shared
	if err := r.finish(ctx); err != nil {
		res.Err = err
		return res
	}
	c.files <- struct{}{}
	if err := evidence.WritePackedTexts(dir, s.Host, r.savedTexts()); err != nil {
		res.Err = fmt.Errorf("saving the text of read pages: %w", err)
	}
	<-c.files
	for _, a := range r.m.Addresses {
		switch a.Outcome {
		case evidence.OutcomeRead:
			res.Read++
		case evidence.OutcomeGap:
			res.Gaps++
		}
	}
	res.Blocked = s.Blocked
	res.MainGap = mainGap(&r.m)
	return res
}

// groupError is a site's evidence left incomplete because another site of
// its group (the sites sharing a host) could not complete its own.
type groupError struct{ msg string }

func (e *groupError) Error() string { return e.msg }

// finish completes the site's evidence: WARC, then manifest. An
// interrupted site leaves its .open file and no manifest: a resumed batch
// crawls it again from the start. Sites that share a host complete their
// evidence together (see siteEnd): each seals its WARC only when every
// site of its group ran well, and writes its manifest only when they have
// all sealed theirs, so a manifest never points at a WARC that is not
// there; if one of them could not keep its evidence, none of the group
// keeps it, and a resume reads them all again from what they stored.
func (r *siteRun) finish(ctx context.Context) error {
	end := r.c.ends[r.site.Host]
	if end == nil {
		end = newSiteEnd() // a run outside Run (tests): no one waits on it
	}
	// Evidence that could not be written is said as such, even when the
	// crawl was stopped too: only a site merely cut short is left quietly
	// for crawl -resume (see Interrupted).
	err := r.werr
	if err == nil {
		err = ctx.Err()
	}
	end.setRan(err == nil)
	if err == nil {
		if site := r.c.waitPeers(r.site.Host, false); site != "" {
			err = &groupError{fmt.Sprintf("%s, which shares a host with it, could not complete its evidence; the sites sharing a host complete theirs together", site)}
		}
	}
	if err != nil {
		r.w.Abort()
		end.fail()
		return err
	}
	r.c.files <- struct{}{} // sealing syncs the file: one of the bounded open files
	err = r.w.Seal()
	<-r.c.files
	if err != nil {
		end.fail()
		return err
	}
	end.setSealed(true)
	if site := r.c.waitPeers(r.site.Host, true); site != "" && r.donors[site] {
		// The WARC is complete and stays; without a manifest the build
		// does not read it.
		return &groupError{fmt.Sprintf("its manifest would point at records of %s, whose WARC could not be completed", site)}
	}
	r.c.files <- struct{}{}
	defer func() { <-r.c.files }()
	return r.w.Close(r.m)
}

// linksOnly keeps of a read footer page what the next hop needs, its
// links: a site holds its pages' bodies and text only while it reads them,
// not while it waits out its clock for the pages after.
func linksOnly(f *fetched) *fetched {
	if f == nil || f.html == nil {
		return f
	}
	return &fetched{addr: f.addr, status: f.status, contentType: f.contentType, html: &extract.Page{Links: f.html.Links}}
}

// run follows the plan of design §2: home page, its footer links, one more
// hop, the well-known files, approved addresses, then what robots.txt names.
// robots.txt of each host comes first, on demand, before any other request.
func (r *siteRun) run(ctx context.Context) {
	if u, err := url.Parse(r.site.URL); err == nil {
		r.robotsFor(ctx, u)
	}
	home := r.plan(evidence.Address{URL: r.site.URL, FoundVia: "home"})
	var footer []*fetched
	if page := r.fetch(ctx, home); page != nil && page.html != nil {
		hp := page.html
		switch {
		case hp.AppShell:
			r.gap(home, evidence.ReasonNeedsJavaScript, "the home page has no readable text without JavaScript")
		case !hp.FooterFound:
			r.gap(home, evidence.ReasonNoFooter, "no footer found on the home page")
		default:
			home.Detail = "footer: " + hp.FooterHow
			r.homeLang = primaryLanguage(hp.Lang)
			skip := r.languageVariants(hp.Footer)
			for _, l := range hp.Footer {
				if to, ok := skip[l.URL]; ok {
					r.deferAlternate(to, l.URL)
					continue
				}
				if a := r.planLink(l, "footer", home.URL); a != nil {
					footer = append(footer, linksOnly(r.fetch(ctx, a)))
				}
			}
		}
	}
	for _, f := range footer {
		if f == nil || f.html == nil {
			continue
		}
		skip := r.languageVariants(f.html.Links)
		for _, l := range f.html.Links {
			if to, ok := skip[l.URL]; ok {
				r.deferAlternate(to, l.URL)
				continue
			}
			if a := r.planLink(l, "hop", f.addr.URL); a != nil {
				r.fetch(ctx, a)
			}
		}
	}
	// The well-known files and the approved addresses are planned in the
	// order of the plan, and all of them before any is asked for: planning
	// is all their order could change (which addresses are duplicates or
	// over the limit). They are then asked for starting at a place of the
	// list that differs from site to site (spread), going round: the
	// approved documents are read at length where the well-known files
	// mostly answer 404, and were every site to ask for its documents last,
	// thousands of sites would read theirs in the same few seconds at the
	// end of the batch, each waiting on the processors to ask for the next,
	// while the processors sat idle during the well-known files before.
	var tail []*evidence.Address
	base, _ := url.Parse(r.site.URL)
	for _, p := range policy.WellKnown {
		via := "well-known"
		if p == "/llms.txt" {
			via = "llms"
		}
		u := *base
		u.Path, u.RawQuery, u.Fragment = p, "", ""
		if a := r.plan(evidence.Address{URL: u.String(), FoundVia: via}); a != nil {
			tail = append(tail, a)
		}
	}
	for _, u := range r.site.Approved {
		if a := r.plan(evidence.Address{URL: u, FoundVia: "approved"}); a != nil {
			tail = append(tail, a)
		}
	}
	first := spread(r.site.Host, len(tail))
	for i := range tail {
		r.fetch(ctx, tail[(first+i)%len(tail)])
	}
	for _, u := range r.robotsNamed() {
		if a := r.plan(evidence.Address{URL: u, FoundVia: "robots-named"}); a != nil {
			r.fetch(ctx, a)
		}
	}
}

// spread is where in a list of n a site starts: the same for a site from
// batch to batch, and evenly spread over the sites of a list.
func spread(site string, n int) int {
	if n == 0 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(site))
	return int(h.Sum32() % uint32(n))
}

// planLink plans a footer or hop link when it names a reading word (§2.1).
func (r *siteRun) planLink(l extract.Link, via, from string) *evidence.Address {
	if _, ok := extract.MatchReadingWord(l); !ok {
		return nil
	}
	l.URL = browserURL(l.URL)
	if r.planned[planKey(l.URL)] {
		return nil
	}
	if same := r.alternateOf(l.URL); same != nil {
		skipAlternate(same, l.URL)
		return nil
	}
	a := evidence.Address{URL: l.URL, FoundVia: via, LinkText: l.Text, From: from}
	u, err := url.Parse(l.URL)
	if err != nil {
		return nil
	}
	if why, skip := extract.NotADocument(u); skip {
		if p := r.plan(a); p != nil {
			r.gap(p, evidence.ReasonFormat, "not read by design: "+why)
		}
		return nil
	}
	p := r.plan(a)
	if p != nil {
		if k, _ := languageSwitch(p.URL); r.variants[k] == nil {
			r.variants[k] = p
		}
	}
	return p
}

// deferAlternate notes that raw is not read because to, the same document
// in the preferred language, is read in its place; the note goes on to's
// address at the end of the run (settleAlternates), once it is planned.
func (r *siteRun) deferAlternate(to, raw string) {
	if r.planned[planKey(raw)] {
		return
	}
	r.pendingAlternates = append(r.pendingAlternates, [2]string{to, raw})
}

// settleAlternates puts the deferred language variants on the addresses
// read in their place.
func (r *siteRun) settleAlternates() {
	for _, p := range r.pendingAlternates {
		if a := r.addressFor(p[0]); a != nil {
			skipAlternate(a, p[1])
		}
	}
	r.pendingAlternates = nil
}

// plan adds an address to the manifest unless it is planned already, and
// returns it (nil when it was a duplicate). Beyond the site's limit it is
// planned as an over-limit gap.
func (r *siteRun) plan(a evidence.Address) *evidence.Address {
	// Planned, requested and recorded as a browser would send it.
	a.URL = browserURL(a.URL)
	key := planKey(a.URL)
	if r.planned[key] {
		return nil
	}
	r.planned[key] = true
	p := &a
	r.addrs = append(r.addrs, p)
	if a.FoundVia != "robots" {
		if r.budget <= 0 {
			r.gap(p, evidence.ReasonOverLimit, fmt.Sprintf("limit of %d addresses per site reached", r.c.list.Global.MaxAddresses))
			return nil
		}
		r.budget--
	}
	return p
}

// planKey is the address without its fragment: the same document.
func planKey(raw string) string {
	if i := strings.IndexByte(raw, '#'); i >= 0 {
		raw = raw[:i]
	}
	return raw
}

func (r *siteRun) gap(a *evidence.Address, reason, detail string) {
	a.Outcome, a.Reason, a.Detail = evidence.OutcomeGap, reason, detail
}

// saveText keeps the visible text of a page read, for SITE.text.jsonl,
// packed (evidence.PackedText): a site holds it until its last request.
// A text that cannot be packed fails the site, as evidence that cannot be
// written does.
func (r *siteRun) saveText(a *evidence.Address, t evidence.SavedText) {
	p, err := evidence.PackText(t)
	if err != nil {
		r.werr = fmt.Errorf("%w: the text of %s: %v", errEvidence, a.URL, err)
		return
	}
	if r.texts == nil {
		r.texts = map[*evidence.Address]evidence.PackedText{}
	}
	r.texts[a] = p
}

// savedTexts lists, in plan order, the texts of addresses that ended read.
func (r *siteRun) savedTexts() []evidence.PackedText {
	var out []evidence.PackedText
	for _, a := range r.addrs {
		if t, ok := r.texts[a]; ok && a.Outcome == evidence.OutcomeRead {
			out = append(out, t)
		}
	}
	return out
}
