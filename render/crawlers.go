package render

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals/robots"
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

// siteRef is a site in a crawler's lists; Purpose its verdict for the
// crawler's purpose, every signal counted (nil for a crawler of none).
type siteRef struct {
	Host, Name string
	Purpose    *purposeOfSite
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
	Pct                          string // disallowed share of the sites whose robots.txt the batch read
}

// chart is a small bar chart drawn at build time as inline SVG: one bar
// per batch, its height the share of the sites whose robots.txt was read
// that disallow the crawler. Across, it is laid out in percentages of the
// width the page gives it, so it fills a wide screen and a phone alike,
// and its text keeps its size; down, in pixels.
type chart struct {
	Title, Desc string
	Height      int
	Bars        []chartBar
	Axis        []chartTick
}

type chartBar struct {
	X, W   string // percentages of the chart's width
	Y, H   int
	Label  string // under the bar
	Value  string // above the bar
	LabelX string
	// Anchor is the labels' text-anchor: "middle", or "end" for the last
	// bar's, which would otherwise run past the chart's right edge.
	Anchor string
}

type chartTick struct {
	Y    int
	Text string
}

// honourView is one signal a crawler's operator says it honours, as its
// page shows it.
type honourView struct {
	Signal, PurposeLabel, Says string
	Source                     link
	Date                       *date
	// DateWord says what the date is: "dated" (the statement's own date)
	// or "read" (an undated page: the list dates it by the day the entry
	// was checked).
	DateWord string
}

// purposeLabels name the three purposes (design §2.8) for readers.
var purposeLabels = map[string]string{"training": "AI training", "answers": "AI answers", "search": "search"}

func honourViews(hs []robots.Honour, checked string) []honourView {
	out := make([]honourView, 0, len(hs))
	for _, h := range hs {
		label := purposeLabels[h.Purpose]
		if label == "" {
			label = h.Purpose
		}
		word := "dated"
		if h.Date == checked {
			word = "read"
		}
		out = append(out, honourView{Signal: h.Signal, PurposeLabel: label, Says: h.Says, Source: sourceLink(h.Source), Date: dayOrMonth(h.Date), DateWord: word})
	}
	return out
}

// sourceLink links an operator's page by its host: the whole address,
// four times over, was most of a crawler's page on a phone.
func sourceLink(href string) link {
	text := href
	if u, err := url.Parse(href); err == nil && u.Host != "" {
		text = strings.TrimPrefix(u.Host, "www.")
	}
	return linkTo(href, text)
}

// crawlerView is one crawler's page.
type crawlerView struct {
	page
	Agent         signals.AgentIndex
	Source        link  // where the crawler's facts come from
	Checked       *date // when we last compared them with it
	Honours       []honourView
	CategoryLabel string
	Disallowed    []siteRef
	Allowed       []siteRef
	Unknown       []siteRef
	Total         int
	ByCategory    []categoryShare
	Trend         []trendPoint
	Chart         chart
	// Purposes counts the sites by the crawler's verdict for its purpose,
	// every signal counted; nil for a crawler of no purpose.
	Purposes *purposeShare
}

// crawlerRow is one crawler in the list of crawlers.
type crawlerRow struct {
	Slug, Token, Operator, Purpose, Label string
	MayNotApply                           bool // its operator says robots.txt may not govern it
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
func crawlerPages(t *signals.AgentsTable, sorted []*signals.Site) (crawlersView, []crawlerView) {
	list, pageOf := crawlerList(t, sorted)
	var pages []crawlerView
	for k := range t.Len() {
		pages = append(pages, pageOf(k))
	}
	return list, pages
}

// crawlerList builds the list of crawlers, and returns what builds the
// page of the k-th crawler of the agents list: a build makes each page
// when it writes it, since every page lists every site.
func crawlerList(t *signals.AgentsTable, sorted []*signals.Site) (crawlersView, func(k int) crawlerView) {
	byHost := map[string]*signals.Site{}
	for _, s := range sorted {
		byHost[s.Host] = s
	}
	refs := func(hosts []string, agent, purpose string) []siteRef {
		var out []siteRef
		for _, h := range hosts {
			name := h
			s := byHost[h]
			if s != nil {
				name = cleanText(s.Name)
			}
			out = append(out, siteRef{Host: h, Name: name, Purpose: sitePurpose(s, agent, purpose)})
		}
		return out
	}
	list := crawlersView{page: page{Title: "Crawlers", Root: "../", Section: "crawlers",
		Description: "What the reviewed sites' robots.txt say to each crawler: which allow it, which disallow it, which we could not read."},
		Total: len(sorted)}
	groupOf := map[string]int{}
	for k := range t.Len() {
		a := t.Newest(k) // for its counts; made again for its page
		label := agentCategoryLabel(a.Category)
		i, ok := groupOf[a.Category]
		if !ok {
			i = len(list.Groups)
			groupOf[a.Category] = i
			list.Groups = append(list.Groups, crawlerGroup{Label: label})
		}
		list.Groups[i].Rows = append(list.Groups[i].Rows, crawlerRow{Slug: crawlerSlug(a.Agent), Token: a.Agent, Operator: a.Operator,
			Purpose: a.Purpose, Label: label, MayNotApply: a.RobotsMayNotApply != "", Disallowed: len(a.Disallowed), Allowed: len(a.Allowed), Unknown: len(a.Unknown)})
	}
	return list, func(k int) crawlerView {
		a := t.Newest(k)
		p := signals.PurposeOf(a.Category)
		refs := func(hosts []string) []siteRef { return refs(hosts, a.Agent, p) }
		v := crawlerView{page: page{Title: a.Agent, Root: "../../", Section: "crawlers",
			Description: "Which reviewed sites' robots.txt allow " + a.Agent + " (" + a.Operator + "), which disallow it, and which we could not read."},
			Agent: a, CategoryLabel: agentCategoryLabel(a.Category), Disallowed: refs(a.Disallowed), Allowed: refs(a.Allowed), Unknown: refs(a.Unknown),
			Total: a.Total(), Source: sourceLink(a.Source), Checked: dayDate(a.Checked), Honours: honourViews(a.Honours, a.Checked)}
		v.ByCategory = sharesByCategory(a.AgentHosts, byHost)
		if pv := a.PurposeVerdicts; pv != nil {
			v.Purposes = &purposeShare{Words: signals.PurposeWords(pv.Purpose), Refused: len(pv.Refused), Partly: len(pv.PartlyRefused),
				NoObjection: len(pv.NoObjection), Unknown: len(pv.Unknown)}
		}
		for _, b := range t.Trend(k) {
			tp := trendPoint{Batch: b.Batch, Date: batchDate(b.Batch), Disallowed: b.Disallowed, Allowed: b.Allowed, Unknown: b.Unknown}
			tp.Pct = percent(tp.Disallowed, tp.Disallowed+tp.Allowed) // of those read: an unknown is neither
			v.Trend = append(v.Trend, tp)
		}
		v.Chart = trendChart(a.Agent, v.Trend)
		return v
	}
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
			cs.DisallowedPct = percent(cs.Disallowed, cs.Disallowed+cs.Allowed)
			out = append(out, *cs)
			seen[c.Name] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(counts)) { // categories the vocabulary lacks: rare
		if cs := counts[name]; !seen[name] {
			cs.DisallowedPct = percent(cs.Disallowed, cs.Disallowed+cs.Allowed)
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
// batch, of the sites whose robots.txt that batch read: an unknown is
// neither, so it is left out of the share, and the title says so. The
// numbers are also in a table beside it, for screen readers.
func trendChart(agent string, trend []trendPoint) chart {
	const top, bottom, plotH = 14, 34, 120
	const left = 12.0 // per cent of the width, for the axis labels
	c := chart{Title: "Share of sites whose robots.txt disallows " + agent + ", of those whose robots.txt we read (unknown sites are not counted), batch by batch",
		Height: top + plotH + bottom}
	var desc []string
	slot := (100 - left) / float64(max(1, len(trend)))
	pct := func(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) + "%" }
	var moments []time.Time
	for _, p := range trend {
		if p.Date != nil {
			moments = append(moments, p.Date.t)
		}
	}
	labels := distinctLabels(moments)
	// On a phone the plot is some 36 characters wide: with more bars than
	// their labels fit under, every k-th is labelled (the table below the
	// chart names each batch).
	every := 1
	if len(labels) > 0 {
		every = max(1, (len(labels)*(len(labels[0])+2)+35)/36)
	}
	for i := range labels {
		if (len(labels)-1-i)%every != 0 { // counted from the newest, which is always labelled
			labels[i] = ""
		}
	}
	for i, p := range trend {
		read := p.Disallowed + p.Allowed
		h := 0
		if read > 0 {
			h = p.Disallowed * plotH / read
		}
		x := left + float64(i)*slot + slot*0.2
		label := p.Batch
		if p.Date != nil {
			label, labels = labels[0], labels[1:]
			desc = append(desc, fmt.Sprintf("%s: %s (%d of %d sites whose robots.txt we read; %d unknown)", p.Date.Day(), p.Pct, p.Disallowed, read, p.Unknown))
		}
		bar := chartBar{X: pct(x), W: pct(slot * 0.6), Y: top + plotH - h, H: h, Label: label, Value: p.Pct, LabelX: pct(x + slot*0.3), Anchor: "middle"}
		if i == len(trend)-1 && i > 0 {
			bar.LabelX, bar.Anchor = pct(x+slot*0.6), "end"
		}
		c.Bars = append(c.Bars, bar)
	}
	for _, pc := range []int{0, 50, 100} {
		c.Axis = append(c.Axis, chartTick{Y: top + plotH - pc*plotH/100, Text: strconv.Itoa(pc) + " %"})
	}
	c.Desc = "No batch yet."
	if len(desc) > 0 {
		c.Desc = strings.Join(desc, "; ") + "."
	}
	return c
}
