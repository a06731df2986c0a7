package signals

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// robotsVersion is a site whose home robots.txt has the given lines, as a
// build derives it: the page's Lines cut at MaxRobotsLines, and the whole
// file among the batch's texts.
func robotsVersion(batch string, lines []string) (*Site, func() map[string]PageText) {
	const u = "https://big.test/robots.txt"
	s := &Site{Batch: batch, Robots: Robots{URL: u, Outcome: OutcomeRules, Status: 200,
		SHA256: fmt.Sprintf("%x", len(lines)) + batch, LineCount: len(lines),
		Lines: slices.Clone(lines[:min(len(lines), MaxRobotsLines)])}}
	texts := map[string]PageText{robotsTextKey(u): {Sentences: lines}}
	return s, func() map[string]PageText { return texts }
}

func numbered(format string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(format, i+1)
	}
	return out
}

// TestRobotsDiffWholeFile: a robots.txt over 1,000 lines is compared
// whole. Comment lines that only moved past line 1,000 are not "added",
// Sitemap lines still in the file are not "removed", and a version that
// adds thousands of lines lists a few and counts every one.
func TestRobotsDiffWholeFile(t *testing.T) {
	comments := numbered("# note %d", 1200)
	rules := append([]string{"User-agent: *"}, numbered("Disallow: /old/%d/", 300)...)
	sitemaps := numbered("Sitemap: https://big.test/sitemap-%d.xml", 6)

	// Batch 1: comments, rules, Sitemaps. Batch 2: the same lines, the
	// Sitemaps moved to the top and the comments after the rules.
	v1 := slices.Concat(comments, rules, sitemaps)
	v2 := slices.Concat(sitemaps, rules, comments)
	old, oldTexts := robotsVersion("20261201T060000Z", v1)
	cur, curTexts := robotsVersion("20261208T060000Z", v2)
	c := diff(old, cur, oldTexts, curTexts)
	if c == nil {
		t.Fatal("a changed robots.txt is no change")
	}
	if len(c.Diffs) != 0 {
		t.Errorf("lines that only moved are a diff: %+v", c.Diffs[0])
	}
	if !slices.ContainsFunc(c.Items, func(s string) bool { return strings.Contains(s, "no line was added or removed") }) {
		t.Errorf("items do not say only lines moved: %q", c.Items)
	}

	// Batch 3: 3,000 rules added at the end, one Sitemap gone.
	added := numbered("Disallow: /new/%d/", 3000)
	v3 := slices.Concat(sitemaps[1:], rules, comments, added)
	cur3, cur3Texts := robotsVersion("20261215T060000Z", v3)
	c = diff(cur, cur3, curTexts, cur3Texts)
	if c == nil || len(c.Diffs) != 1 {
		t.Fatalf("diff %+v", c)
	}
	d := c.Diffs[0]
	if len(d.Added) != MaxDiffLines || d.MoreAdded != 3000-MaxDiffLines || d.Added[0] != "Disallow: /new/1/" {
		t.Errorf("added: %d listed (%q…), %d more; want %d listed and %d counted", len(d.Added), d.Added[0], d.MoreAdded, MaxDiffLines, 3000-MaxDiffLines)
	}
	if len(d.Removed) != 1 || d.Removed[0] != sitemaps[0] || d.MoreRemoved != 0 {
		t.Errorf("removed %q (+%d), want only %q", d.Removed, d.MoreRemoved, sitemaps[0])
	}

	// Without the whole file (an older derived file), no diff is made of
	// the shown part as if it were the file.
	none := func() map[string]PageText { return map[string]PageText{} }
	if c := diff(old, cur, none, none); c == nil || len(c.Diffs) != 0 {
		t.Errorf("a diff of the shown lines: %+v", c)
	}
	// A short file is whole in its Lines.
	s1, _ := robotsVersion("20261201T060000Z", []string{"User-agent: *", "Disallow: /a"})
	s2, _ := robotsVersion("20261208T060000Z", []string{"User-agent: *", "Disallow: /b"})
	if c := diff(s1, s2, none, none); c == nil || len(c.Diffs) != 1 || c.Diffs[0].Added[0] != "Disallow: /b" {
		t.Errorf("short file: %+v", c)
	}
}

// TestLineDiffOrder: a group added at the end of robots.txt is listed in
// its own order, with its own "Disallow: /", not an earlier group's.
func TestLineDiffOrder(t *testing.T) {
	old := []string{"User-agent: GPTBot", "Disallow: /", "", "User-agent: *", "Allow: /"}
	cur := []string{"User-agent: GPTBot", "Disallow: /", "", "User-agent: *", "Allow: /", "", "User-agent: CCBot", "Disallow: /"}
	d := lineDiff("https://a.test/robots.txt", "robots", old, cur)
	if d == nil {
		t.Fatal("no diff")
	}
	if want := []string{"User-agent: CCBot", "Disallow: /"}; !slices.Equal(d.Added, want) || len(d.Removed) != 0 {
		t.Errorf("added %q, removed %q; want added %q", d.Added, d.Removed, want)
	}
	// Lines that only moved stay no diff, wherever they stand.
	if d := lineDiff("u", "robots", []string{"# a", "User-agent: *", "Disallow: /x", "# b"}, []string{"# b", "User-agent: *", "Disallow: /x", "# a"}); d != nil {
		t.Errorf("moved lines are a diff: %+v", d)
	}
}
