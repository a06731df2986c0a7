package signals

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
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

// Build derives the findings of every site in the list from the newest
// batch under batchesDir that holds it. A site never crawled still gets an
// entry that says so.
func Build(list *sites.List, batchesDir string, log *slog.Logger) ([]*Site, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	batches, err := evidence.Batches(batchesDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var out []*Site
	var errs []error
	for i := range list.Sites {
		s, err := buildSite(&list.Sites[i], batchesDir, batches, log)
		if err != nil {
			errs = append(errs, err)
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}

// latestBatch returns the newest batch holding a manifest for site.
func latestBatch(batchesDir string, batches []string, site string) string {
	for i := len(batches) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(batchesDir, batches[i], site+".json")); err == nil {
			return batches[i]
		}
	}
	return ""
}

func buildSite(ls *sites.Site, batchesDir string, batches []string, log *slog.Logger) (*Site, error) {
	s := &Site{
		Host: ls.Host, Name: ls.Name, URL: ls.URL, Category: ls.Category, Hosts: ls.Hosts,
		Blocked: ls.Blocked, BlockedSince: ls.BlockedSince, Notes: ls.Notes,
		Read: []Document{}, NotRead: []Gap{}, NotPublished: []string{}, Quotes: []Quote{},
		Robots: Robots{Host: ls.Host, Outcome: "not-read", Sitemaps: []string{}, Agents: []Agent{}, CommentQuotes: []string{}},
	}
	batch := latestBatch(batchesDir, batches, ls.Host)
	if batch == "" {
		s.Robots.Meaning = "Not read yet: no batch has crawled this site."
		if ls.Blocked {
			s.Robots.Meaning = "Not read: the site asked us to stop."
		}
		s.OpenByDesign = openByDesign(nil)
		return s, nil
	}
	es, err := evidence.OpenSite(filepath.Join(batchesDir, batch), ls.Host)
	if err != nil {
		return s, fmt.Errorf("%s: %w", ls.Host, err)
	}
	m := es.Manifest
	s.Batch = batch
	s.ReadAt = m.Started.UTC().Format(time.RFC3339)
	if m.Blocked {
		s.Robots.Meaning = "Not read: the site asked us to stop on " + m.BlockedSince + "."
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
			doc, text := readDocument(es, a)
			if doc.TextError != "" {
				log.Warn("no text", "site", ls.Host, "url", a.URL, "err", doc.TextError)
			}
			s.Read = append(s.Read, doc)
			if quotable(a.FoundVia) {
				for _, q := range findQuotes(text) {
					q.URL, q.ReadAt = doc.URL, doc.ReadAt
					s.Quotes = append(s.Quotes, q)
				}
			}
		}
	}
	s.OpenByDesign = openByDesign(s.Quotes)
	return s, errors.Join(errs...)
}

// quotable: the home page is read only for its links (design §2 item 3),
// and machine-readable files are signals, not prose.
func quotable(via string) bool {
	switch via {
	case "footer", "hop", "approved":
		return true
	}
	return false
}

// readDocument reads a stored page back (digests checked) and takes its text.
func readDocument(es *evidence.Site, a evidence.Address) (Document, string) {
	doc := Document{
		URL: a.URL, FinalURL: a.FinalURL, Status: a.Status, ContentType: a.ContentType,
		FoundVia: a.FoundVia, LinkText: a.LinkText, ReadAt: a.FetchedAt.UTC().Format(time.RFC3339),
	}
	if doc.FinalURL == "" {
		doc.FinalURL = a.URL
	}
	if len(a.Exchanges) == 0 {
		doc.TextError = "no stored answer"
		return doc, ""
	}
	last := a.Exchanges[len(a.Exchanges)-1]
	doc.SHA256 = last.PayloadSHA256
	resp, err := es.Response(last)
	if err != nil {
		doc.TextError = err.Error()
		return doc, ""
	}
	body, err := resp.DecodedBody(MaxBody)
	if err != nil {
		doc.TextError = err.Error()
		return doc, ""
	}
	var text string
	switch extract.Kind(a.ContentType) {
	case "html":
		base, _ := url.Parse(doc.FinalURL)
		page, err := extract.HTML(body, a.ContentType, base)
		if err != nil {
			doc.TextError = err.Error()
			break
		}
		text, doc.Title = page.Text, page.Title
	case "pdf":
		text, err = extract.PDFText(body, maxPDFPages)
		if err != nil {
			doc.TextError = err.Error()
		}
	default:
		text, _, _ = extract.PlainText(body, a.ContentType)
	}
	doc.Chars = utf8.RuneCountInString(text)
	return doc, text
}
