package render

import (
	"github.com/crawlsignals/crawlsignals/signals"
)

// Prebuilt views of the directory: the sites with one AI use verdict, one
// Open by design verdict, or with gaps. They are plain pages, so filtering
// works without JavaScript; the directory's script adds search and sorting.

// filterLink is one view, linked from every directory page.
type filterLink struct {
	Path, Label string // Path from the site root, ending in "/"
	Count       int
	Current     bool
}

type filterGroup struct {
	Label string
	Links []filterLink
}

// view is one prebuilt view's definition.
type view struct {
	group, path, label, heading string
	match                       func(*signals.Site) bool
}

// views are the prebuilt views; newest is the newest batch of the
// directory, for the view of the sites it changed.
func views(newest string) []view {
	var out []view
	for _, v := range signals.AIVerdicts {
		code := v.Code
		out = append(out, view{"AI training", "ai/" + code + "/", v.Word, "AI training: " + v.Word,
			func(s *signals.Site) bool { return s.AIUse.Verdict == code }})
	}
	for _, v := range signals.OpenVerdicts {
		code := v.Code
		out = append(out, view{"Open by design", "open/" + code + "/", v.Word, "Open by design: " + v.Word,
			func(s *signals.Site) bool { return s.OpenByDesign.Code() == code }})
	}
	out = append(out, view{"Not read by us", "gaps/", "With gaps", "Sites with addresses we could not read",
		func(s *signals.Site) bool { return len(s.NotRead) > 0 }})
	out = append(out, view{"Changes", "changed/", "In the newest batch", "Sites whose findings changed in the newest batch",
		func(s *signals.Site) bool { c := s.LastChanged(); return c != nil && *c == newest }})
	return out
}

// viewPages builds each view that has sites, and the links to them that
// every directory page shows.
func viewPages(sorted []*signals.Site, all directory) ([]filterGroup, []directory) {
	var groups []filterGroup
	var pages []directory
	newest := ""
	for _, s := range sorted {
		newest = max(newest, s.Batch)
	}
	for _, v := range views(newest) {
		d := directory{Heading: v.heading, Filter: v.path, Generated: all.Generated, AllSites: all.AllSites, Categories: all.Categories}
		for i, s := range sorted {
			if v.match(s) {
				d.Counts.add(s)
				d.Rows = append(d.Rows, all.Rows[i]) // all's rows are the sorted sites', in order
			}
		}
		if len(d.Rows) == 0 {
			continue
		}
		d.page = page{Title: v.heading, Root: rootOf(v.path), Section: "directory", Feed: rootOf(v.path) + "feed.xml",
			Description: v.heading + ": what these sites say about reuse of their data."}
		if len(groups) == 0 || groups[len(groups)-1].Label != v.group {
			groups = append(groups, filterGroup{Label: v.group})
		}
		g := &groups[len(groups)-1]
		g.Links = append(g.Links, filterLink{Path: v.path, Label: v.label, Count: len(d.Rows)})
		pages = append(pages, d)
	}
	return groups, pages
}

// rootOf is the path from a page at path p (from the root, ending in "/")
// back to the root.
func rootOf(p string) string {
	r := ""
	for _, c := range p {
		if c == '/' {
			r += "../"
		}
	}
	if r == "" {
		return "./"
	}
	return r
}

// withCurrent is groups with the link to path marked current.
func withCurrent(groups []filterGroup, path string) []filterGroup {
	out := make([]filterGroup, len(groups))
	for i, g := range groups {
		out[i] = filterGroup{Label: g.Label}
		for _, l := range g.Links {
			l.Current = l.Path == path
			out[i].Links = append(out[i].Links, l)
		}
	}
	return out
}
