package render

import (
	"slices"

	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
)

// The page of changes across sites (changes/): for each batch, newest
// first, the sites whose findings changed in it and what changed, and
// only those. A journalist reads the week's story here; each site's page
// has its whole history.

// changesShown is how many added and how many removed lines of each diff
// the page shows; the site's page has them all.
const changesShown = 3

type changesPage struct {
	page
	Total   int // sites on the reviewed list
	History int // the most batches a site's changes are traced through
	Batches []changedBatch
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
	// Documents are the sentence diffs of the site's documents (its terms),
	// Robots the line diffs of its robots.txt, each cut to its first lines.
	Documents, Robots []shortDiff
	Items             []string // every change, in plain words
}

type crawlerRef struct{ Token, Slug string }

type shortDiff struct {
	URL                    string
	Added, Removed         []string
	MoreAdded, MoreRemoved int
}

func changesOf(sorted []*signals.Site) changesPage {
	p := changesPage{page: page{Title: "What changed", Root: "../", Section: "changes", Feed: "../feed.xml",
		Description: "The sites whose robots.txt, terms or verdicts changed, batch by batch, newest first."},
		Total: len(sorted), History: signals.MaxHistory}
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
	for _, b := range byBatch {
		p.Batches = append(p.Batches, *b)
	}
	slices.SortFunc(p.Batches, func(a, b changedBatch) int { return compareStrings(b.Batch, a.Batch) })
	return p
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
