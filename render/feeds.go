package render

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// DefaultBaseURL is where the website is published, for the few files that
// need absolute addresses (sitemap.xml, the Atom feeds, robots.txt).
const DefaultBaseURL = "https://crawlsignals.com/"

// tagAuthority names us in the feeds' tag: URIs (RFC 4151). It is fixed, not
// taken from the base URL, so moving the site does not change an entry's ID.
const tagAuthority = "crawlsignals.com,2026"

// CheckBaseURL says what is wrong with a base URL, or nil: commands check
// the flag before doing any work.
func CheckBaseURL(raw string) error {
	_, err := baseURL(raw)
	return err
}

// baseURL parses and checks Input.BaseURL: absolute http(s), ending in "/".
func baseURL(raw string) (*url.URL, error) {
	if raw == "" {
		raw = DefaultBaseURL
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("base URL %q: want an absolute http(s) address such as %s", raw, DefaultBaseURL)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u, nil
}

// abs is the absolute address of a path relative to the site root.
func abs(base *url.URL, rel string) string {
	return base.String() + rel
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomText struct {
	Type string `xml:"type,attr,omitempty"`
	Text string `xml:",chardata"`
}

type atomEntry struct {
	ID      string   `xml:"id"`
	Title   atomText `xml:"title"`
	Updated string   `xml:"updated"`
	Link    atomLink `xml:"link"`
	Summary atomText `xml:"summary"`
}

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string      `xml:"id"`
	Title   atomText    `xml:"title"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  string      `xml:"author>name"`
	Entries []atomEntry `xml:"entry"`
}

// feedEpoch is the updated time of a feed with no entries: fixed, because
// a build never reads the clock.
const feedEpoch = "1970-01-01T00:00:00Z"

// siteEntries are a site's Atom entries: one when it was first read, one
// for each batch in which something changed (carrying the diff), and one
// when it asked us to stop. A batch that changed nothing adds no entry, so
// a subscriber hears only news. An entry's ID is the site and the batch, so
// it never changes once published, and its updated time is the batch's: a
// build never reads the clock. The site's own feed carries each change's
// diff cut to its first lines, as the page of changes shows it, and links
// to the page for the rest: with whole-file changes the diffs at full
// length (20 lines a side and file) made a site's feed 17 KB of the 132 a
// site weighed with eight batches of history (make bench), more than its
// page's changes section, to repeat what the page says. The directory's
// (withDiffs false) carries what changed and links to the site's page for
// the lines: with every site's diffs it weighed more than the site pages'
// changes sections together, and it grows with the list.
func siteEntries(base *url.URL, s *signals.Site, withDiffs bool) []atomEntry {
	var out []atomEntry
	page := abs(base, "sites/"+s.Host+"/")
	entry := func(id, title, summary string, d *date) atomEntry {
		return atomEntry{
			ID:      "tag:" + tagAuthority + ":site/" + s.Host + "/" + id,
			Title:   atomText{Text: cleanText(title)},
			Updated: d.ISO,
			Link:    atomLink{Rel: "alternate", Type: "text/html", Href: page},
			Summary: atomText{Type: "text", Text: cleanText(summary)},
		}
	}
	if s.Blocked {
		if d := dayDate(s.BlockedSince); d != nil {
			out = append(out, entry("stopped/"+s.BlockedSince, fmt.Sprintf("%s asked us to stop on %s", s.Host, d.Day()),
				fmt.Sprintf("%s (%s) asked us to stop; no request is sent to it, and its page shows nothing it said before.", s.Name, s.Host), d))
		}
		return out
	}
	// The first reading stays in the feed while the history reaches back to
	// it; it says only what that batch's history holds, unless it is the
	// newest batch, whose findings are the page's.
	changed := map[string]bool{}
	for _, c := range s.Changes {
		changed[c.Batch] = true
	}
	if n := len(s.History); n > 0 && n < signals.MaxHistory && !changed[s.History[0].Batch] {
		first := s.History[0]
		if d := batchDate(first.Batch); d != nil {
			title := fmt.Sprintf("%s first read on %s", s.Host, d.Day())
			summary := fmt.Sprintf("%s (%s) was read for the first time; AI use: %s.", s.Name, s.Host, signals.AIWord(first.AIUse))
			if first.Batch == s.Batch {
				title += fmt.Sprintf(": %d documents read, %d not read", s.Documents(), len(s.NotRead))
				summary = fmt.Sprintf("%s (%s): robots.txt %s; AI use: %s; %d documents read, %d addresses not read by us; Open by design: %s.",
					s.Name, s.Host, outcomeWords(s.Robots), signals.AIWord(s.AIUse.Verdict), s.Documents(), len(s.NotRead), s.OpenByDesign.Word())
			}
			out = append(out, entry("batch/"+first.Batch, title, summary, d))
		}
	}
	for _, c := range s.Changes {
		d := batchDate(c.Batch)
		if d == nil {
			continue
		}
		title := fmt.Sprintf("%s changed on %s: %d %s", s.Host, d.Day(), len(c.Items), plural(len(c.Items), "change", "changes"))
		summary := changeText(c.Items)
		switch {
		case withDiffs:
			summary += diffText(shortDiffs(c.Diffs))
			if cut(c.Diffs) {
				summary += fmt.Sprintf("\n\nOnly each file's first %d added and removed lines are shown here. More on the site's page, for its newest change (%s), and in signals.json, for every change (%s).",
					changesShown, page+"#changes", page+"signals.json")
			}
		case len(c.Diffs) > 0:
			summary += "\n\nThe lines and sentences that changed: " + page
		}
		out = append(out, entry("batch/"+c.Batch, title, summary, d))
	}
	return out
}

// changeText is a change's items for a feed, one per line, so a reader
// sees where one ends and the next begins.
func changeText(items []string) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("• " + it)
	}
	return b.String()
}

// cut says whether shortDiffs leaves out lines of diffs that the site's
// page or signals.json lists.
func cut(diffs []signals.Diff) bool {
	for _, d := range diffs {
		if len(d.Added) > changesShown || len(d.Removed) > changesShown {
			return true
		}
	}
	return false
}

// diffText is a change's diffs as plain text for a feed: each file, then
// its lines or sentences, "+" added and "−" removed.
func diffText(diffs []signals.Diff) string {
	var b strings.Builder
	for _, d := range diffs {
		what := "robots.txt"
		if d.What == "document" {
			what = "Sentences of"
		}
		fmt.Fprintf(&b, "\n\n%s %s:", what, d.URL)
		for _, l := range d.Added {
			b.WriteString("\n+ " + l)
		}
		if d.MoreAdded > 0 {
			fmt.Fprintf(&b, "\n+ (%d more)", d.MoreAdded)
		}
		for _, l := range d.Removed {
			b.WriteString("\n− " + l)
		}
		if d.MoreRemoved > 0 {
			fmt.Fprintf(&b, "\n− (%d more)", d.MoreRemoved)
		}
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// atom writes a feed; entries newest first, ties by ID, so the bytes depend
// only on the findings.
func atom(id, title, self, alternate string, entries []atomEntry) ([]byte, error) {
	slices.SortStableFunc(entries, func(a, b atomEntry) int {
		if a.Updated != b.Updated {
			return compareStrings(b.Updated, a.Updated)
		}
		return compareStrings(a.ID, b.ID)
	})
	f := atomFeed{ID: id, Title: atomText{Text: title}, Updated: feedEpoch, Author: "crawlsignals", Entries: entries,
		Links: []atomLink{{Rel: "self", Type: "application/atom+xml", Href: self}, {Rel: "alternate", Type: "text/html", Href: alternate}}}
	if len(entries) > 0 {
		f.Updated = entries[0].Updated
	}
	return marshalXML(f)
}

func marshalXML(v any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

type sitemapURL struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod,omitempty"`
}

type sitemap struct {
	XMLName xml.Name     `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
	URLs    []sitemapURL `xml:"url"`
}

// directoryCSV is the directory as a spreadsheet: one row per site, in the
// directory's order, with the same columns as sites.json plus labels.
func directoryCSV(base *url.URL, sorted []*signals.Site) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head, crawlers := csvHead()
	w.Write(head)
	for _, s := range sorted {
		w.Write(csvRecord(base, s, crawlers))
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

// csvHead is the directory CSV's first row, and the AI training crawlers
// it has a column for, in order. The Hugo project of the bench writes the
// same columns.
func csvHead() (head, crawlers []string) {
	// One column per AI training crawler of the agents list, as sites.json's
	// "robots_agents": what robots.txt alone says to it (allowed, disallowed
	// or unknown), named robots_TOKEN so that no one reads it as the AI use
	// answer.
	// Then, as sites.json: what ai_use rests on, whether terms were read,
	// and the verdict per purpose (ai_purposes) as ai_PURPOSE.
	head = []string{"host", "url", "name", "category", "category_label", "robots_outcome", "ai_use", "ai_use_rests_on", "terms_read"}
	for _, p := range signals.Purposes {
		head = append(head, "ai_"+p)
	}
	for _, a := range robots.Agents() {
		if a.Category == "ai-training" {
			crawlers = append(crawlers, a.Token)
			head = append(head, "robots_"+a.Token)
		}
	}
	head = append(head, "read", "documents", "not_read", "open_by_design", "look_twice", "blocked", "batch", "read_at", "last_changed", "page", "signals")
	return head, crawlers
}

// csvRecord is one site's row of the directory CSV, each cell kept from
// being read as a formula.
func csvRecord(base *url.URL, s *signals.Site, crawlers []string) []string {
	verdicts := s.AgentVerdicts()
	rec := []string{s.Host, s.URL, cleanText(s.Name), s.Category, sites.CategoryLabel(s.Category), s.Robots.Outcome, s.AIUse.Verdict,
		s.AIUse.RestsOn, strconv.FormatBool(s.AIUse.TermsRead)}
	for _, p := range signals.Purposes {
		rec = append(rec, s.AIUse.PurposeVerdict(p))
	}
	for _, c := range crawlers {
		rec = append(rec, verdicts[c])
	}
	open := "" // not determined: an empty cell, as null in sites.json
	if v := s.OpenByDesign.Verdict; v != nil {
		open = strconv.FormatBool(*v)
	}
	rec = append(rec, strconv.Itoa(len(s.Read)), strconv.Itoa(s.Documents()), strconv.Itoa(len(s.NotRead)), open,
		strconv.Itoa(len(s.Contradictions)), strconv.FormatBool(s.Blocked), s.Batch, deref(s.ReadAt), deref(s.LastChanged()),
		abs(base, "sites/"+s.Host+"/"), abs(base, "sites/"+s.Host+"/signals.json"))
	for i := range rec {
		rec[i] = csvCell(rec[i])
	}
	return rec
}

// csvCell keeps a spreadsheet from reading a cell as a formula: a cell that
// starts with =, +, -, @, a tab or a carriage return (a site's name can)
// gets a leading apostrophe, which spreadsheet tools take as "text" and
// do not show.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// ownRobots is the robots.txt of our own website: everything may be read.
func ownRobots(base *url.URL) []byte {
	return []byte("# crawlsignals publishes facts and quotes; read as you like.\nUser-agent: *\nAllow: /\n\nSitemap: " + abs(base, "sitemap.xml") + "\n")
}
