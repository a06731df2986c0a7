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
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/sites"
)

// MaxBody is the most of a stored body we decode (the crawler's cap).
const MaxBody = 10 << 20

// maxPDFPages caps the pages of a PDF we take text from.
const maxPDFPages = 200

// Options are what a build needs besides the list and the evidence.
type Options struct {
	Content fs.FS // content/: curated quotes, overrides and notes; may be nil
	Log     *slog.Logger
	// PDF takes a PDF's text. The command runs it in a child process
	// (extract.PDFIsolated); nil reads in process, for tests.
	PDF func(body []byte) (string, error)
}

// builder holds one build's options and the batches it reads.
type builder struct {
	opt        Options
	batchesDir string
	batches    []string
}

// Build derives the findings of every site in the list from the newest
// batch under batchesDir that holds it. A site never crawled still gets an
// entry that says so.
func Build(list *sites.List, batchesDir string, opt Options) ([]*Site, error) {
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.PDF == nil {
		opt.PDF = func(body []byte) (string, error) { return extract.PDFText(body, maxPDFPages) }
	}
	batches, err := evidence.Batches(batchesDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	b := &builder{opt: opt, batchesDir: batchesDir, batches: batches}
	var out []*Site
	var errs []error
	for i := range list.Sites {
		cur, err := LoadCuration(opt.Content, list.Sites[i].Host)
		if err != nil {
			errs = append(errs, err)
		}
		s, err := b.site(&list.Sites[i], cur)
		if err != nil {
			errs = append(errs, err)
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}

// maxHistory is how many earlier batches a site's changes are traced through.
const maxHistory = 8

// buildSite derives a site's findings from its newest batch, and its
// changes from the batches before.
func (bd *builder) site(ls *sites.Site, cur0 *Curation) (*Site, error) {
	var held []string
	for _, b := range bd.batches {
		if _, err := os.Stat(filepath.Join(bd.batchesDir, b, ls.Host+".json")); err == nil {
			held = append(held, b)
		}
	}
	if ls.Blocked {
		// A site that asked us to stop shows only that: nothing read in
		// earlier batches (no documents, no quotes, no history), only the
		// newest batch when it is the one that sent no request. The earlier
		// evidence stays on disk, never republished.
		var newest []string
		if n := len(held); n > 0 {
			if m, err := evidence.ReadManifest(filepath.Join(bd.batchesDir, held[n-1], ls.Host+".json")); err == nil && m.Blocked {
				newest = held[n-1:]
			}
		}
		held = newest
	}
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
	if len(held) > maxHistory+1 {
		held = held[len(held)-maxHistory-1:]
	}
	var prev, cur *Site
	var prevTexts map[string]pageText
	changes := []Change{}
	history := []BatchVerdicts{}
	var err error
	lastVerified := map[string]string{} // curated quote text → newest batch date it verified
	for i, b := range held {
		var e error
		var texts map[string]pageText
		cur, texts, e = bd.fromBatch(ls, filepath.Join(bd.batchesDir, b), b)
		if i == len(held)-1 {
			err = e // only the newest batch's damage fails the build
		}
		applyCuration(cur, cur0, texts)
		for j := range cur.Quotes {
			q := &cur.Quotes[j]
			if q.Source != "curated" {
				continue
			}
			if q.Verified {
				lastVerified[q.URL+"\x00"+q.Text] = q.ReadAt
			} else {
				q.LastVerified = lastVerified[q.URL+"\x00"+q.Text]
			}
		}
		if prev != nil {
			if c := diff(prev, cur, prevTexts, texts); c != nil {
				changes = append([]Change{*c}, changes...)
			}
		}
		if !cur.Blocked {
			history = append(history, BatchVerdicts{Batch: b, AIUse: cur.AIUse.Verdict, Agents: cur.agentVerdicts("")})
		}
		prev, prevTexts = cur, texts
	}
	cur.Changes = changes
	cur.History = history
	cur.Rechecked = rechecked
	return cur, err
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
		rec, err := evidence.ReadBatchStart(filepath.Join(bd.batchesDir, b), "")
		if err != nil || rec.Kind != "recheck" {
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
		Robots:   Robots{Host: ls.Host, Outcome: "not-read", Sitemaps: []string{}, Agents: []Agent{}, CommentQuotes: []string{}, Groups: []Group{}, ContentSignals: []ContentSignal{}},
		Signals:  Signals{TDM: []TDMRep{}, Headers: []HeaderSignal{}},
		Licences: []Licence{}, APIs: []APIEvidence{}, Contradictions: []Contradiction{}, Changes: []Change{}, History: []BatchVerdicts{},
		AIUse: AIUse{Refused: []string{}, Allowed: []string{}, Sources: []AISource{}},
	}
}

// fromBatch derives the findings of one batch's evidence of a site.
func (bd *builder) fromBatch(ls *sites.Site, batchDir, batch string) (*Site, map[string]pageText, error) {
	s := newSite(ls)
	texts := map[string]pageText{}
	es, err := evidence.OpenSite(batchDir, ls.Host)
	if err != nil {
		return s, texts, fmt.Errorf("%s: %w", ls.Host, err)
	}
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
		if hr.Host == ls.Host {
			s.Robots = r
		} else {
			s.OtherRobots = append(s.OtherRobots, r)
		}
	}
	var home *readResult
	for _, a := range m.Addresses {
		switch a.Outcome {
		case evidence.OutcomeNotPublished:
			if a.FoundVia != "robots" {
				s.NotPublished = append(s.NotPublished, a.URL)
			}
		case evidence.OutcomeGap:
			s.NotRead = append(s.NotRead, Gap{URL: a.URL, Reason: a.Reason, Detail: a.Detail, FoundVia: a.FoundVia, LinkText: a.LinkText, Status: a.Status})
		case evidence.OutcomeRead:
			if a.FoundVia == "robots" {
				continue // shown in the robots.txt section
			}
			rr := bd.readDocument(es, a)
			rr.doc.Role = roleOf(a, s)
			if rr.damage != nil {
				// Damaged evidence fails the build and verify, naming the
				// record; the page still says what became of the address.
				errs = append(errs, fmt.Errorf("%s: %s: %w", ls.Host, a.URL, rr.damage))
			} else if rr.doc.TextError != "" {
				bd.opt.Log.Warn("no text", "site", ls.Host, "url", a.URL, "err", rr.doc.TextError)
			}
			s.Read = append(s.Read, rr.doc)
			pt := pageText{text: rr.text, readAt: rr.doc.ReadAt}
			texts[rr.doc.URL] = pt
			if _, ok := texts[rr.doc.FinalURL]; !ok {
				texts[rr.doc.FinalURL] = pt
			}
			s.Signals.Headers = append(s.Signals.Headers, headerSignals(rr)...)
			switch a.FoundVia {
			case "home":
				home = &rr
			case "well-known", "llms":
				wellKnown(s, a, rr)
			}
			if rr.doc.Role == RolePolicy {
				for _, q := range findQuotes(rr.text, rr.blocks) {
					q.URL, q.ReadAt = rr.doc.URL, rr.doc.ReadAt
					q.Objects = prohibitsAI(q.Text)
					s.Quotes = append(s.Quotes, q)
				}
				s.Licences = append(s.Licences, findLicences(rr.doc.URL, rr.text, rr.blocks, rr.links)...)
			}
		}
	}
	s.Signals.TDMReservation = tdmFor(s, home)
	return s, texts, errors.Join(errs...)
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
	blocks []string
	links  []extract.Link
	header http.Header
	meta   map[string][]string
	damage error // the stored answer could not be read back (names the record)
}

// evidenceUnreadable is what a page says of an address whose stored answer
// could not be read back: in words, the file and record go to the operator.
const evidenceUnreadable = "Evidence of this address could not be read back: the stored answer is damaged or missing, so nothing from it is shown."

// readDocument reads a stored page back (digests checked) and takes its text.
func (bd *builder) readDocument(es *evidence.Site, a evidence.Address) readResult {
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
	body, err := resp.DecodedBody(MaxBody)
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
		rr.text, rr.blocks, rr.links, doc.Title = page.Text, page.Blocks, page.Links, page.Title
		rr.meta = extract.MetaTags(body, a.ContentType)
	case "pdf":
		rr.text, err = bd.opt.PDF(body)
		if err != nil {
			doc.TextError = err.Error()
		}
		rr.blocks = strings.Split(rr.text, "\n")
		rr.text = extract.Normalize(rr.text)
	default:
		rr.raw, _, _ = extract.PlainText(body, a.ContentType)
		rr.blocks = strings.Split(rr.raw, "\n")
		rr.text = extract.Normalize(rr.raw)
	}
	doc.Chars = utf8.RuneCountInString(rr.text)
	if rr.text != "" {
		sum := sha256.Sum256([]byte(rr.text))
		doc.TextSHA256 = hex.EncodeToString(sum[:])
	}
	return rr
}
