package render

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/crawlsignals/crawlsignals/signals"
)

// The answers a site page opens with (design §8): AI use, what the terms
// say about reuse, Open by design, and what we could not read. Each is
// arranged here so the template only lays it out.

// aiView is the AI use verdict with its sources, each linked to its evidence.
type aiView struct {
	Code, Word, Why string
	// RestsOn says what the verdict rests on, beside its word; Purposes
	// are the verdicts per purpose and Matrix the same per operator.
	RestsOn  string
	Purposes []purposeView
	Matrix   []matrixRow
	Refused  []string
	Sources  []aiSourceView
	Rows     []aiSourceRow // the same sources, those alike together
	// Crawlers are the AI training crawlers, each with the signals that
	// object for it (design §2.8: the verdict is combined per crawler).
	Crawlers []aiCrawlerView
	// ForAll are the objections every one of them meets, said once; Rows
	// are the crawlers that meet the same further objections, together.
	ForAll      []link
	CrawlerRows []aiCrawlerRow
	// ForAllMarked says ForAll are just the sources marked "objects for
	// all", so the page names them so instead of linking each again.
	ForAllMarked bool
}

// aiCrawlerRow is one row of the per-crawler table: crawlers whose
// robots.txt verdict, group and objections (besides ForAll) are the same.
type aiCrawlerRow struct {
	Crawlers          []string // tokens (the agents table links each to its page)
	Robots, Group     string
	Refused, Objected bool   // refused; met some objection, ForAll included
	Objections        []link // besides ForAll
}

type aiCrawlerView struct {
	signals.AICrawler
	Objections []link // each objecting signal, linked to its evidence
}

type aiSourceView struct {
	signals.AISource
	KindWords string
	Evidence  link // the robots.txt line on this page, or the page it came from
	Verbatim  bool // Says is the site's own line or value, not our summary of it
	// Excerpt is set for a quoted term that stands under its document:
	// its first words, and Evidence links to it there.
	Excerpt string
	// Others names the purposes other than training it objects for ("AI
	// answers"), as Objects speaks of training alone.
	Others string
}

// aiSourceRow is the sources of one kind that object alike, said once
// with the label they share.
type aiSourceRow struct {
	KindWords, Term, Objects, Others, Strength string
	Items                                      []aiSourceView
}

// sourceRows puts together the sources that follow one another with the
// same kind, term and objection: seven robots.txt lines that each disallow
// one crawler had seven labels.
func sourceRows(sources []aiSourceView) []aiSourceRow {
	var out []aiSourceRow
	for _, s := range sources {
		if n := len(out); n > 0 && out[n-1].KindWords == s.KindWords && out[n-1].Term == s.Term && out[n-1].Objects == s.Objects && out[n-1].Others == s.Others {
			out[n-1].Items = append(out[n-1].Items, s)
			continue
		}
		out = append(out, aiSourceRow{KindWords: s.KindWords, Term: s.Term, Objects: s.Objects, Others: s.Others, Strength: s.Strength, Items: []aiSourceView{s}})
	}
	return out
}

// aiOf arranges the AI use verdict. robotsOnPage maps a robots.txt address
// to its section on this page, so a robots.txt line links to itself.
// anchors finds a quoted term under its document, so the source links
// to it there rather than saying it again.
func aiOf(u signals.AIUse, robotsOnPage map[string]*robotsView, fragments map[string]string, anchors *quoteAnchors) aiView {
	v := aiView{Code: u.Verdict, Word: signals.AIWord(u.Verdict), Why: u.Why, Refused: u.Refused, RestsOn: u.RestsOn, Purposes: purposesOf(u)}
	for _, s := range u.Sources {
		sv := aiSourceView{AISource: s, KindWords: s.Words()}
		if sv.Strength == "" { // an export written before sources said it
			sv.Strength = "machine-readable"
			if s.Kind == "terms" {
				sv.Strength = "natural-language"
			}
		}
		var others []string
		for _, p := range s.ObjectsFor {
			if p != signals.PurposeTraining {
				others = append(others, signals.PurposeWords(p))
			}
		}
		sv.Others = strings.Join(others, " and ")
		switch s.Kind {
		case "content-signal", "content-usage", "x-robots-tag", "meta", "content-signal-header", "content-usage-header", "content-usage-meta":
			sv.Verbatim = true
		}
		switch rv := robotsOnPage[s.URL]; {
		case rv != nil && s.Line > 0 && s.Line <= len(rv.Lines):
			// Only the lines something links to carry an id (a line
			// of its own costs a page of 300 lines 6 KB): this one now does.
			rv.Lines[s.Line-1].ID = lineID(rv.ID, s.Line)
			sv.Evidence = link{Href: "#" + rv.Lines[s.Line-1].ID, Text: "robots.txt line " + strconv.Itoa(s.Line)}
		case rv != nil:
			sv.Evidence = link{Href: "#" + rv.ID, Text: "robots.txt"}
		case s.Kind == "terms" && anchors.href(s.URL, s.Says) != "":
			sv.Evidence = link{Href: anchors.href(s.URL, s.Says), Text: shortURL(s.URL)}
			sv.Excerpt = excerpt(s.Says)
		case s.Kind == "rsl":
			// The file's own line, linked to the file's section on the page.
			sv.Verbatim = true
			sv.Evidence = link{Href: "#rsl", Text: "RSL file " + shortURL(s.URL) + " line " + strconv.Itoa(s.Line)}
		case s.Kind == "terms" && fragments[s.URL+"\x00"+s.Says] != "":
			sv.Evidence = link{Href: fragments[s.URL+"\x00"+s.Says], Text: shortURL(s.URL)}
		default:
			sv.Evidence = linkTo(s.URL, shortURL(s.URL))
		}
		v.Sources = append(v.Sources, sv)
	}
	for _, c := range u.Crawlers {
		cv := aiCrawlerView{AICrawler: c}
		for _, i := range c.Objections {
			if i < 0 || i >= len(v.Sources) {
				continue
			}
			cv.Objections = append(cv.Objections, objectionLink(v.Sources[i]))
		}
		v.Crawlers = append(v.Crawlers, cv)
	}
	v.ForAll, v.CrawlerRows = aiRows(v.Crawlers)
	var all []link
	for _, sv := range v.Sources {
		if sv.Objects == "all" {
			all = append(all, link{Href: sv.Evidence.Href})
		}
	}
	v.ForAllMarked = len(all) == len(v.ForAll)
	for i := range all {
		v.ForAllMarked = v.ForAllMarked && all[i].Href == v.ForAll[i].Href
	}
	v.Rows = sourceRows(v.Sources)
	// A cell nothing objects in rests on the site's own robots.txt,
	// whose section is "robots" (lineID).
	v.Matrix = matrixOf(u, v.Sources, link{Href: "#robots", Text: "robots.txt"})
	return v
}

// aiRows says once the objections every crawler meets, and puts together
// the crawlers that meet the same others: on a site whose terms ban
// scraping, that sentence stood in each of 18 rows.
func aiRows(crawlers []aiCrawlerView) ([]link, []aiCrawlerRow) {
	if len(crawlers) == 0 {
		return nil, nil
	}
	var forAll []link
	for _, o := range crawlers[0].Objections {
		every := true
		for _, c := range crawlers[1:] {
			every = every && slices.Contains(c.Objections, o)
		}
		if every && !slices.Contains(forAll, o) {
			forAll = append(forAll, o)
		}
	}
	var rows []aiCrawlerRow
	at := map[string]int{}
	for _, c := range crawlers {
		row := aiCrawlerRow{Robots: c.Robots, Group: c.Group, Refused: c.Refused, Objected: len(c.Objections) > 0}
		key := fmt.Sprint(c.Robots, "\x00", c.Group, "\x00", c.Refused)
		for _, o := range c.Objections {
			if !slices.Contains(forAll, o) {
				row.Objections = append(row.Objections, o)
				key += "\x00" + o.Href + "\x00" + o.Text
			}
		}
		i, ok := at[key]
		if !ok {
			i = len(rows)
			at[key] = i
			rows = append(rows, row)
		}
		rows[i].Crawlers = append(rows[i].Crawlers, c.Agent)
	}
	return forAll, rows
}

// lineID is the id of line n of the robots.txt shown in section id: "L12"
// in the site's own robots.txt, "robots-2-L12" in another host's.
func lineID(section string, n int) string {
	if section == "robots" {
		return "L" + strconv.Itoa(n)
	}
	return section + "-L" + strconv.Itoa(n)
}

// robotsLine is one line of a robots.txt as shown on the page.
type robotsLine struct {
	N       int
	ID      string // "" for a line nothing on the page links to
	Text    string
	Decides bool // a deciding line of the agents table
	// Above is how many lines above a deciding line its group's first
	// User-agent line stands: the room its link keeps above it.
	Above int
}

// maxAnswerQuotes is how many quotes the answer about reuse shows; the
// rest are under each document.
const maxAnswerQuotes = 3

// answerQuotes picks the strongest verified quotes for the answer about
// reuse (design §2.5.1, §8): a person's choice first, then the terms
// reader's rank (prohibitions and grants about the site's content before
// descriptions), so the page answers before it explains.
func answerQuotes(qs []quoteView) []quoteView {
	var cand []quoteView
	for _, q := range qs {
		if q.Verified {
			cand = append(cand, q)
		}
	}
	rank := func(q quoteView) int {
		if q.Source == "curated" {
			return -1
		}
		if q.Rank == 0 {
			return math.MaxInt32
		}
		return q.Rank
	}
	slices.SortStableFunc(cand, func(a, b quoteView) int { return cmp.Compare(rank(a), rank(b)) })
	return cand[:min(len(cand), maxAnswerQuotes)]

}

func containsQuote(qs []quoteView, q quoteView) bool {
	for _, o := range qs {
		if o.URL == q.URL && o.Text == q.Text {
			return true
		}
	}
	return false
}

// textFragment is the address of a quote on its live page, with a text
// fragment (#:~:text=) so a browser scrolls to the sentence and marks it.
// A long sentence is given by its first and last words, which browsers
// match as a range. "" when the address cannot be a link.
func textFragment(page, quote string) string {
	page = webURL(page)
	if page == "" {
		return ""
	}
	if i := strings.IndexByte(page, '#'); i >= 0 {
		page = page[:i]
	}
	words := strings.Fields(quote)
	if len(words) == 0 {
		return page
	}
	const edge = 5
	directive := fragmentEscape(strings.Join(words, " "))
	if len(words) > 2*edge+2 {
		directive = fragmentEscape(strings.Join(words[:edge], " ")) + "," + fragmentEscape(strings.Join(words[len(words)-edge:], " "))
	}
	return page + "#:~:text=" + directive
}

// fragmentEscape percent-encodes text for a text directive: everything but
// ASCII letters, digits and ". _ ~" ("-", "," and "&" have meanings there).
func fragmentEscape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '~':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// gapSummary is the answer about what we could not read: the count and the
// main reason.
type gapSummary struct {
	Count       int
	Main        reasonCount
	OtherCounts int // gaps for other reasons
}

func gapSummaryOf(gaps []gapView, reasons []reasonCount) gapSummary {
	g := gapSummary{Count: len(gaps)}
	for _, r := range reasons {
		if r.Count > g.Main.Count {
			g.Main = r
		}
	}
	g.OtherCounts = g.Count - g.Main.Count
	return g
}
