package signals

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/extract/pdf"
	"github.com/crawlsignals/crawlsignals/sites"
	"github.com/crawlsignals/crawlsignals/terms"
)

// MaxBody is the most of a stored body we decode (the crawler's cap).
const MaxBody = 10 << 20

// maxPDFPages caps the pages of a PDF we take text from.
const maxPDFPages = 200

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

// Unread is the findings of a site that no batch holds: nothing read, the
// list's entry and the curation only (a curated quote cannot verify).
func Unread(ls *sites.Site, cur *Curation) *Site {
	s := newSite(ls)
	s.Robots.Meaning = "Not read yet: no batch has crawled this site."
	if ls.Blocked {
		s.Robots.Meaning = "Not read: the site asked us to stop."
	}
	applyCuration(s, cur, nil)
	return s
}

// FromList sets what a site's findings take from the list rather than from
// evidence: a name or category edited in sites.toml shows without deriving
// again.
func FromList(s *Site, ls *sites.Site) {
	s.Host, s.Name, s.URL, s.Category, s.Hosts = ls.Host, ls.Name, ls.URL, ls.Category, ls.Hosts
	s.Blocked, s.BlockedSince, s.Notes = ls.Blocked, ls.BlockedSince, ls.Notes
}

// FromBatch derives the findings of one batch's evidence of a site: the
// batch's folder batchDir, named batch, read back through evidence (every
// record's digest checked). readPDF takes a PDF's text (PDFReader). The
// findings are the list's entry and what the evidence says, nothing else:
// curation and the batches before come in through History. texts are the
// pages read, by address; transient is set when a page's text could not be
// taken for a reason that may not hold next time (a PDF read in a child
// process). err names the evidence that could not be read back; when ctx
// is done between two addresses it is ctx's error, and the findings are
// cut short.
func FromBatch(ctx context.Context, log *slog.Logger, ls *sites.Site, batchDir, batch string, readPDF func(body []byte) (string, error)) (s *Site, texts map[string]PageText, transient bool, err error) {
	s = newSite(ls)
	texts = map[string]PageText{}
	if err := ctx.Err(); err != nil {
		return s, texts, false, err
	}
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
			texts[robotsTextKey(r.URL)] = PageText{Sentences: lines}
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
		if err := ctx.Err(); err != nil {
			return s, texts, transient, err
		}
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
			rr := readDocument(es, a, readPDF)
			transient = transient || rr.transient
			rr.doc.Role = roleOf(a, s)
			if rr.damage != nil {
				// Damaged evidence fails the build and verify, naming the
				// record; the page still says what became of the address.
				errs = append(errs, fmt.Errorf("%s: %s: %w", ls.Host, a.URL, rr.damage))
			} else if rr.doc.TextError != "" {
				log.Warn("no text", "site", ls.Host, "url", a.URL, "err", rr.doc.TextError)
			}
			pt := PageText{Text: rr.text, ReadAt: rr.doc.ReadAt}
			var quotes []Quote
			if rr.doc.Role == RolePolicy && rr.text != "" {
				var r terms.Reading
				quotes, r = readQuotes(rr.text, rr.blocks, rr.lang)
				pt.Sentences = r.Sentences // the same cut for diffs between batches
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
				s.Licences = append(s.Licences, findLicences(rr.doc.URL, rr.text, pt.Sentences, rr.links)...)
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
func applyCuration(s *Site, c *Curation, texts map[string]PageText) {
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

// readDocument reads a stored page of a batch back (digests checked) and
// takes its text, a PDF's with readPDF.
func readDocument(es *evidence.Site, a evidence.Address, readPDF func(body []byte) (string, error)) readResult {
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
		rr.text, err = readPDF(body)
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
