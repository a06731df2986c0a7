package signals

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/extract/pdf"
	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/sites"
	"github.com/crawlsignals/crawlsignals/terms"
)

// MaxBody is the most of a stored body we decode (the crawler's cap).
const MaxBody = 10 << 20

// maxPDFPages caps the pages of a PDF we take text from.
const maxPDFPages = 200

// Options are what a build needs besides the list and the evidence.
type Options struct {
	Content fs.FS // content/: curated quotes, overrides and notes; may be nil
	Log     *slog.Logger
	// PDF takes a PDF's text in place of the build's own reader; derived
	// files are read and kept only when Code names it (pdfreader.go).
	PDF func(body []byte) (string, error)
	// PDFChild is the command line of a child process that reads one PDF
	// (the binary itself and its hidden command; pdf.Isolated),
	// under pdf.DefaultLimits. Nil reads in process, for tests.
	PDFChild []string
	// Workers is how many sites are derived at once; GOMAXPROCS when 0.
	// The findings are the same whatever the number.
	Workers int
	// Code names the deriving code in the key of derived files; when
	// empty, the code's digest (CodeVersion) and the PDF reader.
	Code string
	// Fresh derives every batch from its WARC, reading no derived file
	// (it still keeps what it derives): for checks that must rest on the
	// evidence alone, such as `verify`.
	Fresh bool
	// check, when set (Verify), keeps nothing: each derived file, kept
	// PDF text and history record is compared with what the evidence
	// gives instead, and the files that differ are collected in it.
	check *checker
}

// builder holds one build's options and what it knows of the batches:
// which sites each holds and each batch's kind, read once per build.
type builder struct {
	opt        Options
	code       string
	batchesDir string
	batches    []string
	holds      map[string]map[string]bool // batch → sites with a manifest in it (or in the store's listing)
	listed     bool                       // the store's listing is here (listing.go)
	kinds      map[string]string          // batch → kind of its batch.json ("crawl", "recheck")
	agents     map[string]robots.Agent    // the agents list by token, for derived files
}

// Build derives the findings of every site in the list from the newest
// batch under batchesDir that holds it. A site never crawled still gets an
// entry that says so.
func Build(list *sites.List, batchesDir string, opt Options) ([]*Site, error) {
	out := make([]*Site, len(list.Sites))
	started, err := each(list, batchesDir, opt, func(i int, s *Site) error {
		out[i] = s
		return nil
	})
	if !started {
		return nil, err
	}
	return out, err
}

// Each is Build for a build that keeps no site whole: it hands each site's
// findings to fn as soon as they are derived, on the worker that derived
// them (so fn runs on several sites at once, in any order; i is the site's
// place in the list), and keeps nothing itself. A 10,000-site build writes
// each site's files in fn and holds only what the views across sites read.
// The error joins, in list order, each site's evidence problems and what fn
// returned for it.
func Each(list *sites.List, batchesDir string, opt Options, fn func(i int, s *Site) error) error {
	_, err := each(list, batchesDir, opt, fn)
	return err
}

// each is Each, saying also whether it got as far as deriving sites.
func each(list *sites.List, batchesDir string, opt Options, fn func(i int, s *Site) error) (started bool, err error) {
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	b := &builder{opt: opt, code: opt.codeName(), batchesDir: batchesDir, agents: knownAgents()}
	listErr, err := b.scan() // a batch that cannot be listed holds no site, and fails the build
	if err != nil {
		return false, err
	}
	n := len(list.Sites)
	errs := make([]error, n)
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var donePDF func()
	b.opt.PDF, donePDF = opt.pdfReader(workers)
	defer donePDF()
	// Each site is derived on its own, and handed on with its own slot:
	// the result and the order of the errors do not depend on how many
	// run at once.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, max(n, 1)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				cur, cerr := LoadCuration(opt.Content, list.Sites[i].Host)
				s, err := b.site(&list.Sites[i], cur)
				errs[i] = errors.Join(cerr, err, fn(i, s))
			}
		})
	}
	wg.Wait()
	return true, errors.Join(append([]error{listErr}, errs...)...)
}

// site derives a site's findings from its newest batch, and its history
// from the batches before (history.go).
func (bd *builder) site(ls *sites.Site, cur0 *Curation) (*Site, error) {
	held := bd.held(ls)
	rechecked := bd.rechecked(ls, held)
	if len(held) == 0 {
		s := newSite(ls)
		s.Robots.Meaning = "Not read yet: no batch has crawled this site."
		if ls.Blocked {
			s.Robots.Meaning = "Not read: the site asked us to stop."
		}
		s.Rechecked = rechecked
		applyCuration(s, cur0, nil)
		return s, nil
	}
	s, err := bd.history(ls, cur0, held)
	if s != nil {
		s.Rechecked = rechecked
	}
	return s, err
}

// rechecked lists the dates the site was re-checked on request: those
// sites.toml records, and those of batches whose batch.json says kind
// "recheck" and that hold the site. A blocked site shows none.
func (bd *builder) rechecked(ls *sites.Site, held []string) []string {
	if ls.Blocked {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(d string) {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, d := range ls.Rechecked {
		add(d)
	}
	for _, b := range held {
		if bd.kinds[b] != "recheck" {
			continue
		}
		if t, err := evidence.ParseBatchName(b); err == nil {
			add(t.Format(time.DateOnly))
		}
	}
	slices.Sort(out)
	return out
}

func newSite(ls *sites.Site) *Site {
	return &Site{
		Host: ls.Host, Name: ls.Name, URL: ls.URL, Category: ls.Category, Hosts: ls.Hosts,
		Blocked: ls.Blocked, BlockedSince: ls.BlockedSince, Notes: ls.Notes,
		Read: []Document{}, NotRead: []Gap{}, NotPublished: []string{}, Quotes: []Quote{},
		Robots:   Robots{Host: ls.Host, Outcome: "not-read", Sitemaps: []string{}, LicenseLines: []RobotsLicense{}, Agents: []Agent{}, CommentQuotes: []string{}, Groups: []Group{}, ContentSignals: []ContentSignal{}},
		Signals:  Signals{TDM: []TDMRep{}, Headers: []HeaderSignal{}},
		Licences: []Licence{}, APIs: []APIEvidence{}, Contradictions: []Contradiction{}, Changes: []Change{}, History: []BatchVerdicts{},
		AIUse: AIUse{Refused: []string{}, RobotsAllowed: []string{}, RobotsRefused: []string{}, Crawlers: []AICrawler{}, Sources: []AISource{}},
	}
}

// derive gives the findings of one batch of a site: from its derived file
// when that is current, else from the WARC, keeping what it derived. texts
// gives the visible text of the pages read, loaded only when called.
// clean is false when the findings hold damage or a failure that may pass.
func (bd *builder) derive(ls *sites.Site, batch string) (s *Site, texts func() map[string]pageText, clean bool, err error) {
	dir := filepath.Join(bd.batchesDir, batch)
	key, kerr := evidenceKey(dir, ls.Host, bd.code)
	keyed := kerr == nil && bd.code != ""
	if keyed && !bd.opt.Fresh {
		if s, ok := loadDerived(dir, ls.Host, key, bd.agents); ok {
			fromList(s, ls)
			return s, func() map[string]pageText {
				if t, ok := loadDerivedTexts(dir, ls.Host, key); ok {
					return t
				}
				_, t, _, _ := bd.fromBatch(ls, dir, batch) // the texts file alone is gone
				return t
			}, true, nil
		}
	}
	s, pages, transient, err := bd.fromBatch(ls, dir, batch)
	// Damage is found again at every build, and a page whose text a child
	// process could not give may give it next time: neither is kept.
	if keyed && err == nil && !transient && bd.opt.check != nil {
		bd.opt.check.checkDerived(dir, ls.Host, key, s, pages, bd.agents)
	} else if keyed && err == nil && !transient {
		if err := saveDerived(dir, ls.Host, key, s, pages, bd.agents); err != nil {
			bd.opt.Log.Debug("derived findings not kept", "site", ls.Host, "batch", batch, "err", err)
		}
	}
	return s, func() map[string]pageText { return pages }, err == nil && !transient, err
}

// fromList sets what a site's findings take from the list rather than from
// evidence: a name or category edited in sites.toml shows without deriving
// again.
func fromList(s *Site, ls *sites.Site) {
	s.Host, s.Name, s.URL, s.Category, s.Hosts = ls.Host, ls.Name, ls.URL, ls.Category, ls.Hosts
	s.Blocked, s.BlockedSince, s.Notes = ls.Blocked, ls.BlockedSince, ls.Notes
}

// fromBatch derives the findings of one batch's evidence of a site.
// transient is set when a page's text could not be taken for a reason that
// may not hold next time (a PDF read in a child process).
func (bd *builder) fromBatch(ls *sites.Site, batchDir, batch string) (s *Site, texts map[string]pageText, transient bool, err error) {
	s = newSite(ls)
	texts = map[string]pageText{}
	es, err := evidence.OpenSite(batchDir, ls.Host)
	if err != nil {
		return s, texts, false, fmt.Errorf("%s: %w", ls.Host, err)
	}
	defer es.Close()
	m := es.Manifest
	s.Batch = batch
	if m.Blocked {
		// No request was sent: there is no time the site was read.
		s.Robots.Meaning = "Not read: the site asked us to stop on " + m.BlockedSince + "."
	} else {
		at := m.Started.UTC().Format(time.RFC3339)
		s.ReadAt = &at
	}

	var errs []error
	for _, hr := range m.Hosts {
		r, err := robotsSection(es, hr, m.Addresses)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ls.Host, err))
		}
		if r.wholeLines != nil {
			// As valid UTF-8, so that the lines a diff compares are the same
			// whether they come from the WARC or from a derived file.
			lines := make([]string, len(r.wholeLines))
			for i, l := range r.wholeLines {
				lines[i] = strings.ToValidUTF8(l, "\uFFFD")
			}
			texts[robotsTextKey(r.URL)] = pageText{sentences: lines}
			r.wholeLines = nil // the texts keep them; the findings need not
		}
		if hr.Host == ls.Host {
			s.Robots = r
		} else {
			s.OtherRobots = append(s.OtherRobots, r)
		}
	}
	var home *readResult
	rslAt := rslURLs(s) // the RSL files robots.txt names, and the robots.txt naming each
	parsedRSL := map[string]RSLFile{}
	for _, a := range m.Addresses {
		switch a.Outcome {
		case evidence.OutcomeNotPublished:
			if a.FoundVia != "robots" {
				s.NotPublished = append(s.NotPublished, a.URL)
			}
		case evidence.OutcomeGap:
			detail := a.Detail
			if a.Reason == evidence.ReasonRobotsUnavailable && a.FoundVia != "robots" {
				if u, err := url.Parse(a.URL); err == nil {
					detail = notReadGapDetail(strings.ToLower(u.Hostname()))
				}
			}
			s.NotRead = append(s.NotRead, Gap{URL: a.URL, Reason: a.Reason, Detail: detail, FoundVia: a.FoundVia, LinkText: a.LinkText, Status: a.Status})
		case evidence.OutcomeRead:
			if a.FoundVia == "robots" {
				continue // shown in the robots.txt section
			}
			rr := bd.readDocument(batchDir, es, a)
			transient = transient || rr.transient
			rr.doc.Role = roleOf(a, s)
			if rr.damage != nil {
				// Damaged evidence fails the build and verify, naming the
				// record; the page still says what became of the address.
				errs = append(errs, fmt.Errorf("%s: %s: %w", ls.Host, a.URL, rr.damage))
			} else if rr.doc.TextError != "" {
				bd.opt.Log.Warn("no text", "site", ls.Host, "url", a.URL, "err", rr.doc.TextError)
			}
			pt := pageText{text: rr.text, readAt: rr.doc.ReadAt}
			var quotes []Quote
			if rr.doc.Role == RolePolicy && rr.text != "" {
				var r terms.Reading
				quotes, r = readQuotes(rr.text, rr.blocks, rr.lang)
				pt.sentences = r.Sentences // the same cut for diffs between batches
				rr.doc.Language, rr.doc.NotReadForMeaning = r.Language, !r.Read
			}
			s.Read = append(s.Read, rr.doc)
			texts[rr.doc.URL] = pt
			if _, ok := texts[rr.doc.FinalURL]; !ok {
				texts[rr.doc.FinalURL] = pt
			}
			s.Signals.Headers = append(s.Signals.Headers, headerSignals(rr)...)
			s.Licences = append(s.Licences, declaredLicences(rr)...)
			if robotsURL, ok := rslAt[a.URL]; ok {
				parsedRSL[a.URL] = readRSL(rr, s.URL, robotsURL)
			}
			switch a.FoundVia {
			case "home":
				home = &rr
			case "well-known", "llms":
				wellKnown(s, a, rr)
			}
			if rr.doc.Role == RolePolicy && rr.text != "" {
				for _, q := range quotes {
					q.URL, q.ReadAt = rr.doc.URL, rr.doc.ReadAt
					s.Quotes = append(s.Quotes, q)
				}
				s.Licences = append(s.Licences, findLicences(rr.doc.URL, rr.text, pt.sentences, rr.links)...)
			}
		}
	}
	s.Signals.TDMReservation = tdmFor(s, home)
	s.RSL = rslFiles(s, m.Addresses, parsedRSL)
	s.Licences = append(s.Licences, rslLicences(s)...)
	rankQuotes(s.Quotes)
	return s, texts, transient, errors.Join(errs...)
}

// applyCuration adds a curator's quotes (each verified against this batch),
// then computes the verdict and the contradictions, honouring an override.
func applyCuration(s *Site, c *Curation, texts map[string]pageText) {
	if c != nil {
		s.Quotes = append(s.Quotes, verifyCurated(c, texts)...)
	}
	s.OpenByDesign = openByDesign(s)
	if c != nil && c.Override != nil {
		s.OpenByDesign.Formula = s.OpenByDesign.Word() + ": " + s.OpenByDesign.Why
		s.OpenByDesign.Verdict, s.OpenByDesign.Overridden = boolPtr(c.Override.Verdict), true
		s.OpenByDesign.Why = "A curator overruled the formula: " + c.Override.Reason
	}
	s.APIs = apiEvidence(s, apiLinks(s.Read))
	s.AIUse = aiUse(s)
	s.AIUse.Why += rslNotReadNote(s)
	s.Contradictions = contradictions(s)
}

// apiLinkText finds API or data named as a word in a link's text (§2.1).
var apiLinkText = regexp.MustCompile(`(?i)(^|[^\pL\pN])(api|data)([^\pL\pN]|$)`)

// apiLinks maps the documents reached through a link whose text names API
// or data to that text.
func apiLinks(read []Document) map[string]string {
	out := map[string]string{}
	for _, d := range read {
		if apiLinkText.MatchString(d.LinkText) {
			out[d.URL] = d.LinkText
		}
	}
	return out
}

// Document roles.
const (
	RolePolicy  = "policy"  // a terms, privacy, licence, data or developer page: searched for quotes
	RoleHome    = "home"    // read for its footer links only, never quoted (design §2 item 3)
	RoleListing = "listing" // a sitemap robots.txt names: we record that it answers
	RoleFile    = "file"    // a well-known file or llms.txt: a signal for programs, not prose
)

// roleOf says what a read address is to us. An address robots.txt names is
// a listing only when it is one of its Sitemap lines; one its comments
// point to (a licensing page) is read and quoted like a footer page.
func roleOf(a evidence.Address, s *Site) string {
	switch a.FoundVia {
	case "home":
		return RoleHome
	case "well-known", "llms":
		return RoleFile
	case "robots-named":
		if _, ok := rslURLs(s)[a.URL]; ok {
			return RoleFile // an RSL file: read as a signal, not prose
		}
		for _, r := range append([]Robots{s.Robots}, s.OtherRobots...) {
			if slices.Contains(r.Sitemaps, a.URL) {
				return RoleListing
			}
		}
	}
	return RolePolicy
}

// readResult is one read document as evidence gives it back.
type readResult struct {
	doc    Document
	text   string // visible text, normalised
	raw    string // decoded text before normalising (for line-based formats)
	blocks []extract.Block
	lang   string // the lang attribute of an HTML page
	links  []extract.Link
	// licenseLinks are the page's <link rel="license"> elements.
	licenseLinks []extract.LicenseLink
	header       http.Header
	meta         map[string][]string
	damage       error // the stored answer could not be read back (names the record)
	// transient is set when the text could not be taken for a reason that
	// may pass (the PDF reader's child process failed).
	transient bool
}

// evidenceUnreadable is what a page says of an address whose stored answer
// could not be read back: in words, the file and record go to the operator.
const evidenceUnreadable = "Evidence of this address could not be read back: the stored answer is damaged or missing, so nothing from it is shown."

// readDocument reads a stored page of the batch in batchDir back (digests
// checked) and takes its text.
func (bd *builder) readDocument(batchDir string, es *evidence.Site, a evidence.Address) readResult {
	rr := readResult{doc: Document{
		URL: a.URL, FinalURL: a.FinalURL, Status: a.Status, ContentType: a.ContentType,
		FoundVia: a.FoundVia, LinkText: a.LinkText, ReadAt: a.FetchedAt.UTC().Format(time.RFC3339),
		Alternates: a.Alternates,
	}}
	doc := &rr.doc
	if doc.FinalURL == "" {
		doc.FinalURL = a.URL
	}
	if len(a.Exchanges) == 0 {
		doc.TextError = "no stored answer"
		return rr
	}
	last := a.Exchanges[len(a.Exchanges)-1]
	doc.SHA256, doc.Record = last.PayloadSHA256, last.ResponseID
	resp, err := es.Response(last)
	if err != nil {
		doc.TextError, rr.damage = evidenceUnreadable, err
		return rr
	}
	rr.header = resp.Header
	body, err := decodedBody(resp)
	if err != nil {
		doc.TextError = err.Error()
		return rr
	}
	switch extract.Kind(a.ContentType) {
	case "html":
		base, _ := url.Parse(doc.FinalURL)
		page, err := extract.HTML(body, a.ContentType, base)
		if err != nil {
			doc.TextError = err.Error()
			break
		}
		rr.text, rr.blocks, rr.links, doc.Title, rr.lang, rr.meta = page.Text, page.Blocks, page.Links, page.Title, page.Lang, page.Meta
		rr.licenseLinks = page.LicenseLinks
	case "pdf":
		var kept bool
		if bd.opt.check == nil {
			rr.text, kept = keptPDFText(batchDir, bd.code, body)
		}
		if !kept {
			rr.text, err = bd.opt.PDF(body)
			if err == nil && bd.opt.check != nil {
				bd.opt.check.comparePDFText(batchDir, bd.code, body, rr.text)
			}
		}
		if err != nil {
			// A child that crashed may not next time: not kept. One that
			// ran out of time would again, for the same bytes and code:
			// kept, so a PDF that defeats the reader costs its time limit
			// once per code version, not at every build.
			doc.TextError, rr.transient = err.Error(), !errors.Is(err, pdf.ErrTimeout)
		}
		rr.blocks = extract.LineBlocks(rr.text)
		rr.text = extract.Normalize(rr.text)
	default:
		rr.raw, _, _ = extract.PlainText(body, a.ContentType)
		rr.blocks = extract.LineBlocks(rr.raw)
		rr.text = extract.Normalize(rr.raw)
	}
	doc.Chars = utf8.RuneCountInString(rr.text)
	if rr.text != "" {
		sum := sha256.Sum256([]byte(rr.text))
		doc.TextSHA256 = hex.EncodeToString(sum[:])
	}
	return rr
}

// decodedBody is resp.DecodedBody(MaxBody) without its copy of a body
// that has no Content-Encoding to undo: resp is this read's own copy of
// the record, so its body can be read where it is. The copy was a twelfth
// of what a cold build of real pages allocates.
func decodedBody(resp *evidence.StoredResponse) ([]byte, error) {
	if len(resp.Header.Values("Content-Encoding")) == 0 && len(resp.Body) <= MaxBody {
		return resp.Body, nil
	}
	return resp.DecodedBody(MaxBody)
}
