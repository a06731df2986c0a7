package render

import (
	"html/template"
	"net/url"
	"sort"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/signals"
)

// page is what every template gets from the layout's point of view.
type page struct {
	Title       string
	Description string
	Root        string // relative path to the site root
	Section     string
	Feed        string
	Body        template.HTML
}

// date is a moment shown as <time>: machine-readable and for people.
type date struct{ ISO, Human string }

func newDate(rfc3339 string) *date {
	t, err := time.Parse(time.RFC3339, rfc3339)
	if err != nil {
		return nil
	}
	t = t.UTC()
	return &date{ISO: t.Format(time.RFC3339), Human: t.Format("2 January 2006, 15:04 UTC")}
}

func batchDate(batch string) *date {
	t, err := time.Parse(evidence.BatchLayout, batch)
	if err != nil {
		return nil
	}
	return newDate(t.Format(time.RFC3339))
}

type counts struct{ Sites, Full, WithGaps, Open int }

type row struct {
	Host, Name, Category, Robots, AI string
	Read, Gaps                       int
	Open                             bool
	ReadAt                           *date
}

type directory struct {
	page
	Counts    counts
	Generated *date
	Rows      []row
}

func directoryPage(all []*signals.Site) directory {
	idx := signals.NewIndex(all)
	d := directory{page: page{Title: "Directory", Root: "", Section: "directory",
		Description: "What reviewed websites say about reuse of their data, with evidence."}}
	d.Generated = batchDate(idx.Generated)
	for _, e := range idx.Sites {
		d.Counts.Sites++
		if e.Batch != "" && e.NotRead == 0 {
			d.Counts.Full++
		}
		if e.NotRead > 0 {
			d.Counts.WithGaps++
		}
		if e.OpenByDesign {
			d.Counts.Open++
		}
		d.Rows = append(d.Rows, row{Host: e.Host, Name: e.Name, Category: e.Category, Robots: outcomeWords(e.RobotsOutcome),
			AI: e.AITraining, Read: e.Read, Gaps: e.NotRead, Open: e.OpenByDesign, ReadAt: newDate(e.ReadAt)})
	}
	return d
}

// outcomeWords names a robots.txt outcome for the directory table.
func outcomeWords(o string) string {
	switch o {
	case "rules":
		return "rules"
	case "none":
		return "none (no file)"
	case "disallow-all":
		return "everything disallowed"
	}
	return "not read"
}

type docView struct {
	URL, Title, Via, ContentType, SHA256, Problem string
	Chars                                         int
	*date
	Quotes []signals.Quote
}

type gapView struct {
	signals.Gap
	Meaning string
}

type siteView struct {
	page
	Site    *signals.Site
	HomeURL string
	ReadAt  *date
	Docs    []docView
	Gaps    []gapView
	Notes   template.HTML
	Recheck string
}

func sitePage(s *signals.Site, notes template.HTML, contact string) siteView {
	v := siteView{
		page: page{Title: s.Name, Root: rootFor("sites/" + s.Host + "/index.html"), Section: "site",
			Description: "What " + s.Host + " says about reuse of its data, with evidence."},
		Site: s, ReadAt: newDate(s.ReadAt), Notes: notes,
	}
	if u, err := url.Parse(s.URL); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		v.HomeURL = u.String()
	}
	quotes := map[string][]signals.Quote{}
	for _, q := range s.Quotes {
		quotes[q.URL] = append(quotes[q.URL], q)
	}
	for _, d := range s.Read {
		title := d.Title
		if title == "" {
			title = d.LinkText
		}
		if title == "" {
			title = d.URL
		}
		v.Docs = append(v.Docs, docView{URL: d.URL, Title: title, Via: viaWords(d.FoundVia, d.LinkText),
			ContentType: d.ContentType, SHA256: d.SHA256, Problem: d.TextError, Chars: d.Chars,
			date: newDate(d.ReadAt), Quotes: quotes[d.URL]})
	}
	meaning := map[string]string{}
	for _, r := range evidence.Reasons() {
		meaning[r.Code] = r.Meaning
	}
	for _, g := range s.NotRead {
		v.Gaps = append(v.Gaps, gapView{Gap: g, Meaning: meaning[g.Reason]})
	}
	sort.SliceStable(v.Gaps, func(i, j int) bool { return v.Gaps[i].Reason < v.Gaps[j].Reason })
	v.Recheck = (&url.URL{Scheme: "mailto", Opaque: contact, RawQuery: "subject=" + url.PathEscape("Re-check "+s.Host)}).String()
	return v
}

// viaWords says how we came to read a document.
func viaWords(via, text string) string {
	switch via {
	case "home":
		return "home page, read for its footer links only"
	case "footer":
		return "linked from the footer as “" + text + "”"
	case "hop":
		return "linked from a page we read, as “" + text + "”"
	case "well-known":
		return "well-known file"
	case "llms":
		return "llms.txt"
	case "robots-named":
		return "named in robots.txt"
	case "approved":
		return "address approved by a person"
	}
	return via
}
