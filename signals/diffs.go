package signals

import "strings"

// MaxDiffLines is how many added and how many removed lines or sentences
// a diff lists per file; the rest are counted.
const MaxDiffLines = 20

// robotsDiffs lists, for each host whose robots.txt was read in both
// batches and changed, the lines added and removed (blank lines aside),
// over the whole file however long: the page shows only its first
// MaxRobotsLines, but a line moved beyond them has not been added, and a
// Sitemap line still in the file has not been removed. The whole lines
// are among each batch's texts, asked for only when some file changed.
// unchanged lists the files that changed with no line added or removed
// (lines moved, or blank lines and spacing alone).
func robotsDiffs(old, cur *Site, oldTextsOf, curTextsOf func() map[string]PageText) (out []Diff, unchanged []string) {
	before := map[string]Robots{}
	for _, r := range append([]Robots{old.Robots}, old.OtherRobots...) {
		before[r.URL] = r
	}
	var oldTexts, curTexts map[string]PageText
	for _, r := range append([]Robots{cur.Robots}, cur.OtherRobots...) {
		o, ok := before[r.URL]
		if !ok || o.SHA256 == "" || r.SHA256 == "" || o.SHA256 == r.SHA256 {
			continue
		}
		if oldTexts == nil {
			oldTexts, curTexts = oldTextsOf(), curTextsOf()
		}
		ol, ok1 := wholeRobotsLines(o, oldTexts)
		cl, ok2 := wholeRobotsLines(r, curTexts)
		if !ok1 || !ok2 {
			continue // never a diff of the shown part as if it were the file
		}
		if d := lineDiff(r.URL, "robots", ol, cl); d != nil {
			out = append(out, *d)
		} else {
			unchanged = append(unchanged, r.URL)
		}
	}
	return out, unchanged
}

// wholeRobotsLines are all the lines of a robots.txt as read in its batch:
// from the batch's texts, or the shown lines when they are the whole file.
func wholeRobotsLines(r Robots, texts map[string]PageText) ([]string, bool) {
	if t, ok := texts[robotsTextKey(r.URL)]; ok {
		return t.Sentences, true
	}
	if len(r.Lines) == r.LineCount {
		return r.Lines, true
	}
	return nil, false
}

// documentDiffs lists, for each document read in both batches whose text
// changed, the sentences that appeared and those that disappeared. The
// texts are asked for only when some document changed: reading them is the
// costly part of a build with history.
func documentDiffs(old, cur *Site, oldTextsOf, curTextsOf func() map[string]PageText) []Diff {
	var oldTexts, curTexts map[string]PageText
	was := map[string]Document{}
	for _, d := range old.Read {
		was[d.URL] = d
	}
	var out []Diff
	for _, d := range cur.Read {
		o, ok := was[d.URL]
		if !ok || d.Role != RolePolicy || o.TextSHA256 == d.TextSHA256 || o.TextSHA256 == "" || d.TextSHA256 == "" {
			continue
		}
		if oldTexts == nil {
			oldTexts, curTexts = oldTextsOf(), curTextsOf()
		}
		ot, ok1 := oldTexts[d.URL]
		ct, ok2 := curTexts[d.URL]
		if !ok1 || !ok2 {
			continue
		}
		if df := lineDiff(d.URL, "document", ot.SentenceList(), ct.SentenceList()); df != nil {
			out = append(out, *df)
		}
	}
	return out
}

// SentenceList is a page's sentences as the terms reader cuts them, the
// same whether the text was just extracted or kept; a text kept before
// sentences were (none recorded) is cut at sentence ends alone.
func (p PageText) SentenceList() []string {
	if p.Sentences != nil {
		return p.Sentences
	}
	return sentences(p.Text)
}

// lineDiff compares two lists as multisets, keeping each list's order: a
// line counts as added when the new list holds it more often than the old.
// The lines both lists begin and end with are set aside first, so that of
// a repeated line the copy that is new is the one listed: a group added
// at the end ("User-agent: CCBot", "Disallow: /") shows in its own order,
// not with an earlier group's "Disallow: /" standing for its own.
func lineDiff(url, what string, old, cur []string) *Diff {
	old, cur = trimCommon(old, cur)
	count := func(lines []string) map[string]int {
		m := map[string]int{}
		for _, l := range lines {
			if l = strings.TrimSpace(l); l != "" {
				m[l]++
			}
		}
		return m
	}
	oldN, curN := count(old), count(cur)
	d := &Diff{URL: url, What: what, Added: []string{}, Removed: []string{}}
	pick := func(lines []string, mine, other map[string]int, list *[]string, more *int) {
		seen := map[string]int{}
		for _, l := range lines {
			l = strings.TrimSpace(l)
			if l == "" {
				continue
			}
			seen[l]++
			if seen[l] <= mine[l]-other[l] {
				if len(*list) < MaxDiffLines {
					*list = append(*list, l)
				} else {
					*more++
				}
			}
		}
	}
	pick(cur, curN, oldN, &d.Added, &d.MoreAdded)
	pick(old, oldN, curN, &d.Removed, &d.MoreRemoved)
	if len(d.Added) == 0 && len(d.Removed) == 0 {
		return nil
	}
	return d
}

// trimCommon drops the lines two lists share at their start and at their
// end (blank lines and surrounding space aside, as lineDiff reads them).
func trimCommon(old, cur []string) ([]string, []string) {
	same := func(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) }
	for len(old) > 0 && len(cur) > 0 && same(old[0], cur[0]) {
		old, cur = old[1:], cur[1:]
	}
	for len(old) > 0 && len(cur) > 0 && same(old[len(old)-1], cur[len(cur)-1]) {
		old, cur = old[:len(old)-1], cur[:len(cur)-1]
	}
	return old, cur
}
