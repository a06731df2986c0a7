package render

import (
	"slices"
	"strings"

	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
)

// The pages of changes across sites: for each batch, the sites whose
// findings changed in it and what changed, and only those. changes/ is
// the newest batch with a change, the week's story for a journalist; each
// earlier batch has its own page, changes/BATCH/, listed on every one of
// them. On one page, eight batches of whole-file changes weighed 3.2 MB
// for 400 sites (make bench), so a list of 2,000 sites would have made a
// phone load 16 MB to read this week's news. Each site's page has its own
// history.

// changesShown is how many added and how many removed lines of each diff
// the page shows; the site's page has them all.
const changesShown = 3

type changesPage struct {
	page
	Total   int            // sites on the reviewed list
	History int            // the most batches a site's changes are traced through
	Batches []changedBatch // the batch this page lists (none: no change yet)
	Pages   []batchLink    // every batch with a change, newest first
}

// batchLink is one batch's page of changes in the list atop each of them.
type batchLink struct {
	Batch   string
	Date    *date
	Sites   int
	Href    string // from the site root
	Current bool
}

// changedBatch is one batch and the sites that changed in it.
type changedBatch struct {
	Batch string
	Date  *date
	Sites []changedSite
}

type changedSite struct {
	Host, Name    string
	Previous      *date
	PreviousBatch string
	// What robots.txt now says to each crawler of the agents list, against
	// the batch before: newly refused, and let in again.
	Refused, LetIn []crawlerRef
	// The AI training verdict, when it changed.
	AIBefore, AIAfter string
	// Purposes are the other purposes' verdicts that changed, as the
	// change's items say them (signals.purposeLines).
	Purposes []purposeChange
	// Documents are the sentence diffs of the site's documents (its terms),
	// Robots the line diffs of its robots.txt, each cut to its first lines.
	Documents, Robots []shortDiff
	Items             []string // every change, in plain words
}

type crawlerRef struct{ Token, Slug string }

// purposeChange is one purpose's verdict change: "AI answers", and "No
// objection found → Refused (Content-Signal: …)".
type purposeChange struct{ Words, Change string }

type shortDiff struct {
	URL                    string
	Added, Removed         []string
	MoreAdded, MoreRemoved int
}

// changedBatches lists every batch in which a site changed, newest first,
// with the sites that changed in it, by name.
func changedBatches(sorted []*signals.Site) []changedBatch {
	byBatch := map[string]*changedBatch{}
	for _, s := range sorted { // by name, so each batch lists its sites by name
		for _, c := range s.Changes {
			b := byBatch[c.Batch]
			if b == nil {
				b = &changedBatch{Batch: c.Batch, Date: batchDate(c.Batch)}
				byBatch[c.Batch] = b
			}
			b.Sites = append(b.Sites, changedSiteOf(s, c))
		}
	}
	var out []changedBatch
	for _, b := range byBatch {
		out = append(out, *b)
	}
	slices.SortFunc(out, func(a, b changedBatch) int { return compareStrings(b.Batch, a.Batch) })
	return out
}

// changesPath is where the page of changes of batch lives, from the site
// root, given the newest batch with a change.
func changesPath(batch, newest string) string {
	if batch == newest {
		return "changes/"
	}
	return "changes/" + batch + "/"
}

// changeBatchNames are the batches in which any site changed, newest
// first.
func changeBatchNames(sites []*signals.Site) []string {
	var out []string
	for _, s := range sites {
		for _, c := range s.Changes {
			out = append(out, c.Batch)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	slices.Reverse(out)
	return out
}

// changesPages are the pages of changes, newest batch first, each with the
// file it is written to; with no change yet, the one page says so.
func changesPages(sorted []*signals.Site) ([]changesPage, []string) {
	batches := changedBatches(sorted)
	var links []batchLink
	for _, b := range batches {
		links = append(links, batchLink{Batch: b.Batch, Date: b.Date, Sites: len(b.Sites), Href: changesPath(b.Batch, batches[0].Batch)})
	}
	pageOf := func(root, description string) changesPage {
		return changesPage{page: page{Title: "What changed", Root: root, Section: "changes", Feed: root + "feed.xml", Description: description},
			Total: len(sorted), History: signals.MaxHistory}
	}
	if len(batches) == 0 {
		return []changesPage{pageOf("../", "The sites whose robots.txt, terms or verdicts changed, batch by batch, newest first.")}, []string{"changes/index.html"}
	}
	var pages []changesPage
	var files []string
	for i, b := range batches {
		root, desc := "../", "The sites whose robots.txt, terms or verdicts changed in the newest batch, and the batches before it."
		if i > 0 {
			root, desc = "../../", "The sites whose robots.txt, terms or verdicts changed in the batch "+b.Batch+"."
		}
		p := pageOf(root, desc)
		if i > 0 && b.Date != nil {
			p.Title = "What changed in the batch of " + b.Date.Human
		}
		p.Batches = []changedBatch{b}
		for j, l := range links {
			l.Current = i == j
			p.Pages = append(p.Pages, l)
		}
		pages = append(pages, p)
		files = append(files, links[i].Href+"index.html")
	}
	return pages, files
}

func changedSiteOf(s *signals.Site, c signals.Change) changedSite {
	cs := changedSite{Host: s.Host, Name: cleanText(s.Name), Previous: batchDate(c.Previous), PreviousBatch: c.Previous, Items: cleanAll(c.Items)}
	var before, after *signals.BatchVerdicts
	for i := range s.History {
		switch s.History[i].Batch {
		case c.Previous:
			before = &s.History[i]
		case c.Batch:
			after = &s.History[i]
		}
	}
	if before != nil && after != nil {
		for _, a := range robots.Agents() {
			was, is := before.Verdict(a.Token), after.Verdict(a.Token)
			switch {
			case was != signals.AgentDisallowed && is == signals.AgentDisallowed:
				cs.Refused = append(cs.Refused, crawlerRef{a.Token, crawlerSlug(a.Token)})
			case was == signals.AgentDisallowed && is == signals.AgentAllowed:
				cs.LetIn = append(cs.LetIn, crawlerRef{a.Token, crawlerSlug(a.Token)})
			}
		}
		if before.AIUse != after.AIUse {
			cs.AIBefore, cs.AIAfter = before.AIUse, after.AIUse
		}
	}
	for _, p := range signals.Purposes[1:] { // training is the AI use line
		prefix := signals.PurposeWords(p) + ": "
		for _, it := range cs.Items {
			if rest, ok := strings.CutPrefix(it, prefix); ok && strings.Contains(rest, " → ") {
				cs.Purposes = append(cs.Purposes, purposeChange{Words: signals.PurposeWords(p), Change: rest})
			}
		}
	}
	for _, d := range c.Diffs {
		sd := shortDiff{URL: d.URL, MoreAdded: d.MoreAdded, MoreRemoved: d.MoreRemoved}
		sd.Added, sd.MoreAdded = firstLines(cleanAll(d.Added), d.MoreAdded)
		sd.Removed, sd.MoreRemoved = firstLines(cleanAll(d.Removed), d.MoreRemoved)
		if d.What == "robots" {
			cs.Robots = append(cs.Robots, sd)
		} else {
			cs.Documents = append(cs.Documents, sd)
		}
	}
	return cs
}

// firstLines keeps the first changesShown lines and counts the rest with
// those already counted beyond the list.
func firstLines(lines []string, more int) ([]string, int) {
	if len(lines) <= changesShown {
		return lines, more
	}
	return lines[:changesShown], more + len(lines) - changesShown
}

// cleanAll is cleanText of each string: items and lines quote what a site
// wrote.
func cleanAll(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = cleanText(s)
	}
	return out
}
