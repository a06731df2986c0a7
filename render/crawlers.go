package render

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Views across sites, per crawler (design §8): which sites allow it,
// refuse it, or are unknown, by category and over batches.

// crawlerSlug is a crawler's folder under crawlers/: its token in lower
// case, anything but letters, digits, "-" and "_" as "-" ("ChatGPT Agent"
// → "chatgpt-agent").
func crawlerSlug(token string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(token) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

// siteRef is a site in a crawler's lists.
type siteRef struct {
	Host, Name string
}

// categoryShare is one category's counts for a crawler.
type categoryShare struct {
	Label                        string
	Disallowed, Allowed, Unknown int
	DisallowedPct                string
}

// trendPoint is one batch of a crawler's trend.
type trendPoint struct {
	Batch                        string
	Date                         *date
	Disallowed, Allowed, Unknown int
	Pct                          string // disallowed share of the sites the batch read
}

// chart is a small bar chart drawn at build time as inline SVG: one bar
// per batch, its height the share of sites that disallow the crawler.
type chart struct {
	Title, Desc string
	Width       int
	Height      int
	Bars        []chartBar
	Axis        []chartTick
}

type chartBar struct {
	X, Y, W, H int
	Label      string // under the bar
	Value      string // above the bar
	LabelX     int
}

type chartTick struct {
	Y    int
	Text string
}

// crawlerView is one crawler's page.
type crawlerView struct {
	page
	Agent         signals.AgentIndex
	CategoryLabel string
	Disallowed    []siteRef
	Allowed       []siteRef
	Unknown       []siteRef
	Total         int
	ByCategory    []categoryShare
	Trend         []trendPoint
	Chart         chart
}

// crawlerRow is one crawler in the list of crawlers.
type crawlerRow struct {
	Slug, Token, Operator, Purpose, Label string
	Disallowed, Allowed, Unknown          int
}

type crawlersView struct {
	page
	Groups []crawlerGroup
	Total  int
}

type crawlerGroup struct {
	Label string
	Rows  []crawlerRow
}

// crawlerPages builds the list of crawlers and one page per crawler.
func crawlerPages(idx signals.AgentsIndex, sorted []*signals.Site) (crawlersView, []crawlerView) {
	byHost := map[string]*signals.Site{}
	for _, s := range sorted {
		byHost[s.Host] = s
	}
	refs := func(hosts []string) []siteRef {
		var out []siteRef
		for _, h := range hosts {
			name := h
			if s := byHost[h]; s != nil {
				name = cleanText(s.Name)
			}
			out = append(out, siteRef{Host: h, Name: name})
		}
		return out
	}
	list := crawlersView{page: page{Title: "Crawlers", Root: "../", Section: "crawlers",
		Description: "What the reviewed sites' robots.txt say to each crawler: which allow it, which disallow it, which we could not read."},
		Total: len(sorted)}
	groupOf := map[string]int{}
	var pages []crawlerView
	for _, a := range idx.Agents {
		label := agentCategoryLabel(a.Category)
		v := crawlerView{page: page{Title: a.Agent, Root: "../../", Section: "crawlers",
			Description: "Which reviewed sites' robots.txt allow " + a.Agent + " (" + a.Operator + "), which disallow it, and which we could not read."},
			Agent: a, CategoryLabel: label, Disallowed: refs(a.Disallowed), Allowed: refs(a.Allowed), Unknown: refs(a.Unknown),
			Total: a.Total()}
		v.ByCategory = sharesByCategory(a.AgentHosts, byHost)
		for _, b := range a.Batches {
			tp := trendPoint{Batch: b.Batch, Date: batchDate(b.Batch), Disallowed: len(b.Disallowed), Allowed: len(b.Allowed), Unknown: len(b.Unknown)}
			tp.Pct = percent(tp.Disallowed, b.Total())
			v.Trend = append(v.Trend, tp)
		}
		v.Chart = trendChart(a.Agent, v.Trend)
		pages = append(pages, v)

		i, ok := groupOf[a.Category]
		if !ok {
			i = len(list.Groups)
			groupOf[a.Category] = i
			list.Groups = append(list.Groups, crawlerGroup{Label: label})
		}
		list.Groups[i].Rows = append(list.Groups[i].Rows, crawlerRow{Slug: crawlerSlug(a.Agent), Token: a.Agent, Operator: a.Operator,
			Purpose: a.Purpose, Label: label, Disallowed: len(a.Disallowed), Allowed: len(a.Allowed), Unknown: len(a.Unknown)})
	}
	return list, pages
}

// sharesByCategory counts a crawler's verdicts per category of site, in
// the vocabulary's order.
func sharesByCategory(h signals.AgentHosts, byHost map[string]*signals.Site) []categoryShare {
	counts := map[string]*categoryShare{}
	add := func(hosts []string, f func(*categoryShare)) {
		for _, host := range hosts {
			cat := "other"
			if s := byHost[host]; s != nil {
				cat = s.Category
			}
			c := counts[cat]
			if c == nil {
				c = &categoryShare{Label: sites.CategoryLabel(cat)}
				counts[cat] = c
			}
			f(c)
		}
	}
	add(h.Disallowed, func(c *categoryShare) { c.Disallowed++ })
	add(h.Allowed, func(c *categoryShare) { c.Allowed++ })
	add(h.Unknown, func(c *categoryShare) { c.Unknown++ })
	var out []categoryShare
	seen := map[string]bool{}
	for _, c := range sites.Categories {
		if cs := counts[c.Name]; cs != nil {
			cs.DisallowedPct = percent(cs.Disallowed, cs.Disallowed+cs.Allowed+cs.Unknown)
			out = append(out, *cs)
			seen[c.Name] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(counts)) { // categories the vocabulary lacks: rare
		if cs := counts[name]; !seen[name] {
			cs.DisallowedPct = percent(cs.Disallowed, cs.Disallowed+cs.Allowed+cs.Unknown)
			out = append(out, *cs)
		}
	}
	return out
}

func percent(n, total int) string {
	if total == 0 {
		return "—"
	}
	return strconv.Itoa((n*100+total/2)/total) + " %"
}

// trendChart draws the share of sites that disallow a crawler in each
// batch. The numbers are also in a table beside it, for screen readers.
func trendChart(agent string, trend []trendPoint) chart {
	const top, bottom, left, barW, gap, plotH = 12, 34, 52, 34, 14, 120
	c := chart{Title: "Share of sites whose robots.txt disallows " + agent + ", batch by batch",
		Height: top + plotH + bottom, Width: left + max(1, len(trend))*(barW+gap) + gap}
	var desc []string
	for i, p := range trend {
		total := p.Disallowed + p.Allowed + p.Unknown
		h := 0
		if total > 0 {
			h = p.Disallowed * plotH / total
		}
		x := left + gap + i*(barW+gap)
		label := p.Batch
		if p.Date != nil {
			label = p.Date.t.Format("2 Jan")
			desc = append(desc, fmt.Sprintf("%s: %s (%d of %d sites)", p.Date.Day(), p.Pct, p.Disallowed, total))
		}
		c.Bars = append(c.Bars, chartBar{X: x, Y: top + plotH - h, W: barW, H: h, Label: label, Value: p.Pct, LabelX: x + barW/2})
	}
	for _, pct := range []int{0, 50, 100} {
		c.Axis = append(c.Axis, chartTick{Y: top + plotH - pct*plotH/100, Text: strconv.Itoa(pct) + " %"})
	}
	c.Desc = "No batch yet."
	if len(desc) > 0 {
		c.Desc = strings.Join(desc, "; ") + "."
	}
	return c
}
