package render

import (
	"html/template"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/policy"
	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
	"github.com/crawlsignals/crawlsignals/terms"
)

// siteView is everything a site's page shows. Site is a copy of the findings
// with every string cleaned (cleanText); the views below are arranged for
// reading. A new kind of finding gets its own field here and its own
// {{define}} in site.html, called from the "content" block.
type siteView struct {
	page
	Site          *signals.Site
	CategoryLabel string
	Home          link
	ReadAt        *date
	BlockedSince  *date
	AI            aiView
	Answer        []quoteView // two or three quotes on reuse, for the answers at the top
	QuoteCount    int         // verified quotes in all
	GapSummary    gapSummary
	Robots        robotsView
	OtherRobots   []robotsView
	Docs          []docView   // policy documents: searched for quotes
	NotReadDocs   int         // policy documents whose terms were not read for meaning (their language)
	MeaningDocs   int         // policy documents read for meaning
	OtherReads    []docView   // the home page, listings and files for programs
	OtherQuotes   []quoteView // quotes of pages not among the documents read
	Unverified    []quoteView // curated quotes no longer found: stated, not quoted
	Signals       signalsView
	Open          openView
	Licences      []licenceView
	RSL           []rslView // the RSL licence files robots.txt names
	APIs          []apiView
	LookTwice     []lookTwiceView
	Changes       []changeView
	LatestChange  *changeView // the change this batch brought, if any
	EarlierLines  int         // how many lines of each diff an earlier change shows
	KeptLines     int         // how many signals.json lists (the newest change shows as many)
	Gaps          []gapView
	GapReasons    []reasonCount
	SiteNotes     string        // the reviewer's note from sites.toml
	Notes         template.HTML // content/sites/HOST.md
	Contact       string
	Recheck       string // mailto: address, subject naming the host; "" for a site that asked us to stop
	Stop          string
}

// agentRow is one crawler's answer in the agents table. Its fields are its
// own, not an embedded signals.Agent: text/template finds promoted fields
// by a slow search.
type agentRow struct {
	Token, Slug, Note     string
	MayNotApply           bool   // disallowed, but its operator says robots.txt may not apply to it
	Verdict               string // allowed | disallowed | unknown
	GroupWords, LineWords string
	LineHref              string // the deciding line on this page
}

// answerRow is one row of the agents table: the crawlers of a category
// that get the same answer (the group they follow, the verdict and the
// deciding line), so a page says each answer once, not once per crawler.
type answerRow struct {
	Crawlers []template.HTML // each token, linked to its crawler's page
	agentRow                 // the answer (Token, Slug and Note: the first crawler's)
}

// crawlerLink is a crawler's token linked to its page, from a site's page:
// who runs it and what for are said there, once.
func crawlerLink(token string) template.HTML {
	return template.HTML(`<a href="../../crawlers/` + crawlerSlug(token) + `/">` + template.HTMLEscapeString(token) + `</a>`)
}

// verdictCell is the "may read /" cell of a verdict.
func verdictCell(verdict string) template.HTML {
	switch verdict {
	case signals.AgentAllowed:
		return `<span class="yes">yes</span>`
	case signals.AgentDisallowed:
		return `<span class="no x">no</span>`
	}
	return "unknown"
}

type agentGroup struct {
	Category, Label string
	Agents          []agentRow  // one per crawler, in the agents list's order
	Rows            []answerRow // the same answers, each once
	Allowed         int         // how many may read /
}

// rows puts together the crawlers of g that get the same answer, in the
// order the first of each comes.
func (g *agentGroup) rows() {
	at := map[agentRow]int{}
	for _, a := range g.Agents {
		key := agentRow{Verdict: a.Verdict, GroupWords: a.GroupWords, LineWords: a.LineWords, LineHref: a.LineHref}
		i, ok := at[key]
		if !ok {
			i = len(g.Rows)
			at[key] = i
			g.Rows = append(g.Rows, answerRow{agentRow: a})
		}
		link := crawlerLink(a.Token)
		if a.MayNotApply {
			link += ` <span class="note">(robots.txt may not apply, its operator says)</span>`
		}
		g.Rows[i].Crawlers = append(g.Rows[i].Crawlers, link)
	}
}

type signalView struct {
	signals.ContentSignal
	AppliesTo string
}

// robotsView is one host's robots.txt, as the page lays it out.
type robotsView struct {
	R        signals.Robots
	Heading  string
	ID       string // the section's id, for links
	File     link
	Table    bool // show the agents table (when the file has rules)
	AgentsBy []agentGroup
	Noted    []agentRow // crawlers whose token parsers read shorter, with their note
	// MayIgnore are the crawlers this file disallows whose operators say
	// robots.txt may not apply to them: the page says the "no" is what
	// the file asks, not what they do.
	MayIgnore  []template.HTML
	Groups     []signals.Group
	Signals    []signalView
	Sitemaps   []link
	CrawlDelay string
	Lines      []robotsLine // the file as our crawler got it
	MoreLines  int          // lines not shown
}

type quoteView struct {
	signals.Quote
	Page   link
	ID     string // set when something on the page links to the quote
	Live   string // the sentence on the live page (a text fragment link)
	Digest string // SHA-256 of the page as we saved it
	ReadAt *date
	ReadAs *readAs // how the terms reader read it, when it says
	// Brief is set for the answer block: the reading in a few words and
	// the evidence in one line; the whole reading, and the digest of what
	// we saved, stand under the document, where HowHref leads.
	Brief   bool
	HowHref string
	// InDoc is set under its document, read at the same time: the page,
	// date and digest are the document's, given above it.
	InDoc bool
	// Listed is set for a list item shown under its lead-in, which the
	// quote then leaves out.
	Listed bool
	// NotRead is set for a curated quote whose page this batch did not
	// read: why not, as the gap says it. Such a quote has no date it was
	// checked on, and the page must not invent one.
	NotRead string
}

// unreadQuote says, of a curated quote that was not checked because its
// page was not read, why the page was not read: the gap's meaning and
// detail, or, when no gap names the page (it was never planned), that.
func unreadQuote(qv *quoteView, gaps []gapView) {
	if qv.ReadAt != nil {
		return
	}
	qv.NotRead = "no link this batch followed led to it"
	for _, g := range gaps {
		if g.URL != qv.URL {
			continue
		}
		qv.NotRead = strings.TrimSuffix(firstOf(g.Meaning, g.Reason), ".")
		if g.Detail != "" {
			qv.NotRead += "; " + g.Detail
		}
		break
	}
}

// quoteAnchors finds the quotes under their documents by page and words,
// so that the AI signals and Look twice link to a quote instead of saying
// it again; a quote gets its id ("q3") when the first link to it is made.
type quoteAnchors struct {
	by  map[string]*quoteView
	ids int
}

func (a *quoteAnchors) add(q *quoteView) {
	if a.by == nil {
		a.by = map[string]*quoteView{}
	}
	for _, key := range []string{q.URL + "\x00" + q.Text, q.URL + "\x00" + q.Says(), "\x00" + q.Says(), "\x00" + q.Text} {
		if _, ok := a.by[key]; !ok {
			a.by[key] = q
		}
	}
}

// href is the link to the quote of page url ("" for any page) whose words
// are says, or "" when no quote under a document has them.
func (a *quoteAnchors) href(url, says string) string {
	q := a.by[url+"\x00"+says]
	if q == nil {
		return ""
	}
	if q.ID == "" {
		a.ids++
		q.ID = "q" + strconv.Itoa(a.ids)
	}
	return "#" + q.ID
}

// ref is a link to the quote of page url with the words says, named by
// its first words; nil when no quote under a document has them.
func (a *quoteAnchors) ref(url, says string) *lookQuote {
	if says == "" {
		return nil
	}
	if href := a.href(url, says); href != "" {
		return &lookQuote{Text: excerpt(says), Href: href}
	}
	return nil
}

// excerpt is a quote as the text of a link to it: whole when it is short,
// else its first words, enough to know it by, and "…".
func excerpt(s string) string {
	if len(s) <= 100 {
		return s
	}
	words := strings.Fields(s)
	n := 0
	for i, w := range words {
		n += len(w) + 1
		if n > 48 && i+1 < len(words) {
			return strings.Join(words[:i+1], " ") + " …"
		}
	}
	return s
}

// lookTwiceView is a place where the signals disagree, with the quotes on
// either side: a link to each quote that stands under its document, the
// words themselves for any other.
type lookTwiceView struct {
	signals.Contradiction
	Quotes []lookQuote
}

type lookQuote struct {
	Text, Href string
}

func lookTwiceOf(cs []signals.Contradiction, anchors *quoteAnchors) []lookTwiceView {
	var out []lookTwiceView
	for _, c := range cs {
		lv := lookTwiceView{Contradiction: c}
		for _, q := range c.Quotes {
			if r := anchors.ref("", q); r != nil {
				lv.Quotes = append(lv.Quotes, *r)
			} else {
				lv.Quotes = append(lv.Quotes, lookQuote{Text: q})
			}
		}
		out = append(out, lv)
	}
	return out
}

// quoteList is a run of a document's quotes: the items of one list, after
// the lead-in they share (said once), or a single quote with no lead-in.
type quoteList struct {
	LeadIn string
	Quotes []quoteView
}

// listsOf puts together the quotes that share a lead-in, where the first
// of them stands (the strongest first still), keeping the others' order:
// on a page whose terms list what "you may not" do, the lead-in stood
// above each of a dozen items.
func listsOf(quotes []quoteView) []quoteList {
	var out []quoteList
	at := map[string]int{}
	for _, q := range quotes {
		if q.LeadIn == "" {
			out = append(out, quoteList{Quotes: []quoteView{q}})
			continue
		}
		q.Listed = true
		if i, ok := at[q.LeadIn]; ok {
			out[i].Quotes = append(out[i].Quotes, q)
			continue
		}
		at[q.LeadIn] = len(out)
		out = append(out, quoteList{LeadIn: q.LeadIn, Quotes: []quoteView{q}})
	}
	return out
}

// readAs is how the terms reader read a quote (design §2.5.1), in words a
// reader and a curator can check: its stance, topic and subject, the kind
// of objecting term, and the words that decided.
type readAs struct {
	Stance, Topic, Subject, Kind string
	Words                        []string
}

// stanceWords and subjectWords name the terms reader's stance and subject.
var (
	stanceWords  = map[string]string{"prohibits": "prohibits or reserves", "permits": "permits or grants", "describes": "only describes"}
	subjectWords = map[string]string{"site": "the site's own content", "user": "the user's own content", "service": "the service's own use"}
)

func readAsOf(q signals.Quote) *readAs {
	if q.Stance == "" && len(q.Words) == 0 {
		return nil
	}
	r := &readAs{Stance: firstOf(stanceWords[q.Stance], q.Stance), Kind: q.Kind, Words: q.Words}
	if q.Subject != "site" {
		// The site's own content goes without saying: the section says
		// so once, and a caption names only another subject.
		r.Subject = firstOf(subjectWords[q.Subject], q.Subject)
	}
	if q.Topic != "" {
		r.Topic = lowerFirst(topicWords(q.Topic))
	}
	return r
}

// lowerFirst lower-cases the first letter of a phrase that starts a
// sentence, but not of an abbreviation ("API, feed or export").
func lowerFirst(s string) string {
	r := []rune(s)
	if len(r) > 1 && unicode.IsUpper(r[0]) && !unicode.IsUpper(r[1]) {
		r[0] = unicode.ToLower(r[0])
	}
	return string(r)
}

type docView struct {
	signals.Document
	Title, Via string
	Source     link
	ReadAt     *date
	HomeOnly   bool   // the home page: read for its footer links only
	Kind       string // policy (searched for quotes) | home | file (for programs) | listing (a sitemap)
	Quotes     []quoteView
	Lists      []quoteList // the same quotes, each list's lead-in once
	// LanguageWords names the language its text is in ("German"), when
	// the terms reader tells it.
	LanguageWords string
}

// otherLanguages name the languages the terms reader tells but does not
// read for meaning; terms.LanguageName names those it reads.
var otherLanguages = map[string]string{
	"de": "German", "fr": "French", "fi": "Finnish", "es": "Spanish", "nl": "Dutch", "it": "Italian",
	"pt": "Portuguese", "pl": "Polish", "et": "Estonian", "is": "Icelandic", "se": "Northern Sami",
	"ru": "Russian", "uk": "Ukrainian", "zh": "Chinese", "ja": "Japanese", "ar": "Arabic",
}

// languageWords names a language code for readers: "" for none, the code
// itself for one we have no name for.
func languageWords(code string) string {
	if code == "" {
		return ""
	}
	return firstOf(terms.LanguageName(code), otherLanguages[code], otherLanguages[strings.ToLower(code)], code)
}

type gapView struct {
	signals.Gap
	Meaning, Status, Via string
}

type reasonCount struct {
	Code, Meaning string
	Count         int
}

// wellKnownRow is one file of the fixed well-known list and what we found.
type wellKnownRow struct {
	Path  string
	State string // published | not-published | not-read | not-planned
	Doc   *docView
	Gap   *gapView
}

// signalsView holds the machine-readable signals a site publishes: what we
// found at each address of the well-known list, and what those files (and
// response headers and meta tags) say. S is the cleaned signals.Signals; a
// new kind of signal there needs only a {{define}} in site.html.
type signalsView struct {
	WellKnown []wellKnownRow
	Published int
	S         signals.Signals
}

type openView struct {
	signals.OpenVerdict
	API     *quoteView
	Licence *quoteView
	// Declaration is the licence declared for programs, shown as written
	// (beside the quoted licence, when there is one).
	Declaration *licenceView
	// APIRef and LicenceRef link to the quotes under their documents,
	// set instead of API and Licence when they stand there.
	APIRef, LicenceRef *lookQuote
}

type licenceView struct {
	signals.Licence
	Page, Target link
	Ref          *lookQuote // the sentence, when it is a quote on the page
}

// apiView is an API, feed or export a page describes.
type apiView struct {
	signals.APIEvidence
	Page        link
	AccessWords string
	Ref         *lookQuote // the sentence, when it is a quote on the page
}

// accessWords says an API's access terms for readers.
var accessWords = map[string]string{
	"open": "open to anyone", "free-key": "free with a key", "registration": "after registration",
	"paid": "paid", "unstated": "not stated",
}

type changeView struct {
	signals.Change
	ReadAt   *date
	Previous *date
	Earlier  bool // not the newest change: its diffs are cut to their first lines
}

// shortDiffs cuts each diff of an earlier change to its first changesShown
// lines, counting the rest. A site's page shows its newest change as
// signals.json keeps it and the earlier ones as the page of changes
// across sites does: with eight batches of history, whole-file changes
// made the earlier diffs most of a site's page (32 KB of 79 on make
// bench's pages), to be scrolled past on a phone for news weeks old.
func shortDiffs(in []signals.Diff) []signals.Diff {
	out := make([]signals.Diff, len(in))
	for i, d := range in {
		d.Added, d.MoreAdded = firstLines(d.Added, d.MoreAdded)
		d.Removed, d.MoreRemoved = firstLines(d.Removed, d.MoreRemoved)
		out[i] = d
	}
	return out
}

// agentCategoryLabels name the agents list's categories for readers.
var agentCategoryLabels = map[string]string{
	"ours":         "Our crawler",
	"search":       "Search engines",
	"ai-training":  "AI training",
	"ai-assistant": "AI assistants and AI search",
	"archive":      "Archives",
}

// agentCategoryLabel names an agents-list category for readers (the
// category itself when it has no label yet).
func agentCategoryLabel(c string) string {
	if label := agentCategoryLabels[c]; label != "" {
		return label
	}
	return c
}

func sitePage(orig *signals.Site, notes template.HTML, contact string) siteView {
	s := cleanCopy(orig)
	v := siteView{
		page: page{Title: s.Name, Root: "../../", Section: "site", Feed: "feed.xml",
			Description: "What " + s.Host + " says about reuse of its data, with evidence."},
		Site: s, CategoryLabel: sites.CategoryLabel(s.Category), Home: linkTo(s.URL, s.Host),
		ReadAt: newDate(deref(s.ReadAt)), BlockedSince: dayDate(s.BlockedSince),
		SiteNotes: s.Notes, Notes: notes,
	}
	v.Robots = robotsOf(s.Robots, "robots.txt", "robots")
	for i, r := range s.OtherRobots {
		v.OtherRobots = append(v.OtherRobots, robotsOf(r, "robots.txt of "+r.Host, "robots-"+strconv.Itoa(i+2)))
	}
	robotsOnPage := map[string]*robotsView{s.Robots.URL: &v.Robots}
	for i := range v.OtherRobots {
		robotsOnPage[v.OtherRobots[i].R.URL] = &v.OtherRobots[i]
	}

	docs := map[string]int{}
	digests := map[string]string{}
	for _, d := range s.Read {
		dv := docView{Document: d, Title: firstOf(d.Title, d.LinkText, shortURL(d.URL)), Via: viaWords(d.FoundVia, d.LinkText),
			Source: linkTo(d.URL, ""), ReadAt: newDate(d.ReadAt), HomeOnly: d.Role == signals.RoleHome, Kind: d.Role,
			LanguageWords: languageWords(d.Language)}
		digests[d.URL] = d.SHA256
		if d.Role != signals.RolePolicy {
			v.OtherReads = append(v.OtherReads, dv)
			continue
		}
		docs[d.URL] = len(v.Docs)
		v.Docs = append(v.Docs, dv)
		if d.NotReadForMeaning {
			v.NotReadDocs++
		}
	}
	fragments := map[string]string{}
	var verified []quoteView
	for _, q := range s.Quotes {
		qv := quoteOf(q)
		qv.Digest = digests[q.URL]
		if q.Verified {
			fragments[q.URL+"\x00"+q.Text] = qv.Live
			fragments[q.URL+"\x00"+q.Says()] = qv.Live
			verified = append(verified, qv)
		}
		switch i, ok := docs[q.URL]; {
		case !q.Verified:
			v.Unverified = append(v.Unverified, qv)
		case ok:
			// Under its document, whose address, date and digest stand
			// just above, the quote's caption does not say them again.
			qv.InDoc = q.ReadAt == v.Docs[i].Document.ReadAt
			v.Docs[i].Quotes = append(v.Docs[i].Quotes, qv)
		default:
			v.OtherQuotes = append(v.OtherQuotes, qv)
		}
	}
	v.MeaningDocs = len(v.Docs) - v.NotReadDocs
	v.Answer, v.QuoteCount = answerQuotes(verified), len(verified)
	for i := range v.Answer {
		v.Answer[i].Brief = true
	}
	anchors := &quoteAnchors{}
	for i := range v.Docs {
		for j := range v.Docs[i].Quotes {
			anchors.add(&v.Docs[i].Quotes[j])
		}
	}
	for i := range v.Answer {
		v.Answer[i].HowHref = firstOf(anchors.href(v.Answer[i].URL, v.Answer[i].Text), "#read")
	}
	v.AI = aiOf(s.AIUse, robotsOnPage, fragments, anchors)
	v.LookTwice = lookTwiceOf(s.Contradictions, anchors)

	v.Gaps, v.GapReasons = gapsOf(s.NotRead)
	for i := range v.Unverified {
		unreadQuote(&v.Unverified[i], v.Gaps)
	}
	v.GapSummary = gapSummaryOf(v.Gaps, v.GapReasons)
	v.Signals = signalsOf(s, v.OtherReads, v.Gaps) // well-known files and llms.txt are among the other reads
	v.Open = openOf(s.OpenByDesign, anchors)
	for _, a := range s.APIs {
		av := apiView{APIEvidence: a, Page: linkTo(a.URL, shortURL(a.URL)), AccessWords: accessWords[a.Access]}
		av.Ref = anchors.ref(a.URL, a.Quote)
		v.APIs = append(v.APIs, av)
	}
	for _, l := range s.Licences {
		lv := licenceView{Licence: l, Page: linkTo(l.URL, shortURL(l.URL)), Target: linkTo(l.LinksTo, "")}
		if l.Declared() {
			lv.Target = linkTo(l.LinksTo, shortURL(l.LinksTo)) // the declaration beside it gives it whole
		} else {
			lv.Ref = anchors.ref(l.URL, l.Quote)
		}
		v.Licences = append(v.Licences, lv)
	}
	v.RSL = rslOf(s.RSL)
	for i, c := range s.Changes {
		if i > 0 {
			c.Diffs = shortDiffs(c.Diffs) // newest first: the page shows the latest change whole
		}
		v.Changes = append(v.Changes, changeView{Change: c, ReadAt: newDate(c.ReadAt), Previous: batchDate(c.Previous), Earlier: i > 0})
	}
	v.EarlierLines, v.KeptLines = changesShown, signals.MaxDiffLines
	for i := range v.Changes {
		if v.Changes[i].Batch == s.Batch {
			v.LatestChange = &v.Changes[i]
		}
	}
	// The lists copy the quotes: after every link to one has given it
	// its id.
	for i := range v.Docs {
		v.Docs[i].Lists = listsOf(v.Docs[i].Quotes)
	}
	v.Contact = contact
	if !s.Blocked {
		// A site that asked us to stop is not offered what it already has.
		v.Recheck = mailto(contact, "Re-check "+s.Host)
		v.Stop = mailto(contact, "Stop "+s.Host)
	}
	return v
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func quoteOf(q signals.Quote) quoteView {
	qv := quoteView{Quote: q, Page: linkTo(q.URL, shortURL(q.URL)), ReadAt: newDate(q.ReadAt), ReadAs: readAsOf(q)}
	if q.Verified {
		qv.Live = textFragment(q.URL, q.Text)
	}
	return qv
}

// shortURL is an address as a link text: host and path, without the scheme.
func shortURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	s := u.Host + u.EscapedPath()
	if u.RawQuery != "" {
		s += "?" + u.RawQuery
	}
	return s
}

// mailto is a mailto: link to addr with a subject; "" without an address.
func mailto(addr, subject string) string {
	if addr == "" {
		return ""
	}
	return (&url.URL{Scheme: "mailto", Opaque: addr, RawQuery: "subject=" + url.PathEscape(subject)}).String()
}

// groupStart is the index of the first User-agent line of the group that
// line i (0-based) of a robots.txt belongs to: a link to a deciding line
// scrolls so that the crawlers it speaks to are in sight above it.
func groupStart(lines []string, i int) int {
	isAgent := func(l string) bool {
		k, _, ok := strings.Cut(strings.TrimSpace(l), ":")
		return ok && strings.EqualFold(strings.TrimSpace(k), "user-agent")
	}
	j := i
	for j > 0 && !isAgent(lines[j]) {
		j--
	}
	if !isAgent(lines[j]) {
		return i
	}
	for k := j - 1; k >= 0; k-- {
		t := strings.TrimSpace(lines[k])
		if isAgent(t) {
			j = k
		} else if !strings.HasPrefix(t, "#") {
			break
		}
	}
	return j
}

func robotsOf(r signals.Robots, heading, id string) robotsView {
	v := robotsView{R: r, Heading: heading, ID: id, File: linkTo(r.URL, ""),
		Table: r.Outcome == "rules" && len(r.Agents) > 0}
	deciding := map[int]bool{}
	for _, a := range r.Agents {
		deciding[a.Line] = true
	}
	for i, text := range r.Lines {
		l := robotsLine{N: i + 1, Text: text, Decides: deciding[i+1]}
		if l.Decides {
			l.ID, l.Above = lineID(id, i+1), i-groupStart(r.Lines, i)
		}
		v.Lines = append(v.Lines, l)
	}
	v.MoreLines = r.LineCount - len(r.Lines)
	if r.CrawlDelaySeconds != nil {
		v.CrawlDelay = seconds(*r.CrawlDelaySeconds)
	}
	byCat := map[string]*agentGroup{}
	var order []string
	var mayNotApply map[string]bool // read from the agents list at the first disallow: most files disallow nothing
	for _, a := range r.Agents {
		g := byCat[a.Category]
		if g == nil {
			label := agentCategoryLabel(a.Category)
			g = &agentGroup{Category: a.Category, Label: label}
			byCat[a.Category] = g
			order = append(order, a.Category)
		}
		row := agentRow{Token: a.Agent, Slug: crawlerSlug(a.Agent), Note: a.Note,
			Verdict: a.Verdict(), GroupWords: groupWords(a.Group), LineWords: lineWords(a)}
		if a.Line > 0 && a.Line <= len(r.Lines) {
			row.LineHref = "#" + lineID(id, a.Line)
		}
		if row.Verdict == signals.AgentDisallowed {
			if mayNotApply == nil {
				mayNotApply = map[string]bool{}
				for _, k := range robots.Agents() {
					mayNotApply[k.Token] = k.RobotsMayNotApply != ""
				}
			}
			if mayNotApply[a.Agent] {
				row.MayNotApply = true
				v.MayIgnore = append(v.MayIgnore, crawlerLink(a.Agent))
			}
		}
		g.Agents = append(g.Agents, row)
		// A token parsers read shorter ("AI2Bot" as "AI") changes which
		// group of this file applies, so its note stays beside the table
		// where the crawler follows a group of its own; the other notes,
		// and this one for a crawler the * group speaks to, are about the
		// crawler, on its own page.
		if row.Note != "" && a.ParserToken != a.Agent && a.Group == "own" {
			v.Noted = append(v.Noted, row)
		}
		if a.Verdict() == signals.AgentAllowed {
			g.Allowed++
		}
	}
	// The agents list's own category order first, then any other.
	slices.SortStableFunc(order, func(a, b string) int { return catRank(a) - catRank(b) })
	for _, c := range order {
		byCat[c].rows()
		v.AgentsBy = append(v.AgentsBy, *byCat[c])
	}
	v.Groups = r.Groups
	for _, c := range r.ContentSignals {
		sv := signalView{ContentSignal: c, AppliesTo: strings.Join(c.Agents, ", ")}
		if sv.AppliesTo == "" {
			sv.AppliesTo = "outside any group"
		}
		v.Signals = append(v.Signals, sv)
	}
	for _, m := range r.Sitemaps {
		v.Sitemaps = append(v.Sitemaps, linkTo(m, ""))
	}
	return v
}

func catRank(c string) int {
	if i := slices.Index(robots.Categories, c); i >= 0 {
		return i
	}
	return len(robots.Categories)
}

// jsonFileView is a well-known JSON file with its heading, for the
// "json-file" template.
type jsonFileView struct {
	ID, Title string
	F         *signals.JSONFile
}

func jsonFile(id, title string, f *signals.JSONFile) jsonFileView {
	return jsonFileView{ID: id, Title: title, F: f}
}

// tdmSource says where a TDMRep statement was made.
func tdmSource(src string) string {
	switch src {
	case "well-known":
		return "in /.well-known/tdmrep.json"
	case "header":
		return "in an HTTP header"
	case "meta":
		return "in an HTML meta tag"
	}
	return "in " + src
}

// topicWords names a quote's topic for readers.
func topicWords(t string) string {
	switch t {
	case signals.TopicLicence:
		return "Licence"
	case signals.TopicAPI:
		return "API, feed or export"
	case signals.TopicScraping:
		return "Scraping and automated access"
	case signals.TopicAI:
		return "AI, text and data mining"
	case "":
		return "Quote"
	}
	return t
}

// seconds shows a duration robots.txt gave; an absurd one (Crawl-delay:
// 1e400 reads as the largest number) in scientific notation, not 309 digits.
func seconds(f float64) string {
	if f >= 1e7 {
		return strconv.FormatFloat(f, 'e', 2, 64) + " s"
	}
	return strconv.FormatFloat(f, 'f', -1, 64) + " s"
}

func groupWords(g string) string {
	switch g {
	case "own":
		return "its own group"
	case "star":
		return "the * group"
	case "none":
		return "no group applies"
	case "unknown":
		return "unknown: robots.txt not read"
	}
	return g
}

func lineWords(a signals.Agent) string {
	switch {
	case a.Line > 0:
		return "line " + strconv.Itoa(a.Line)
	case a.Verdict() == signals.AgentAllowed:
		return "none matches"
	}
	return "—"
}

func gapsOf(gaps []signals.Gap) ([]gapView, []reasonCount) {
	meaning := map[string]string{}
	rank := map[string]int{}
	for i, r := range evidence.Reasons() {
		meaning[r.Code] = r.Meaning
		rank[r.Code] = i
	}
	var out []gapView
	counts := map[string]int{}
	for _, g := range gaps {
		gv := gapView{Gap: g, Meaning: meaning[g.Reason], Via: viaWords(g.FoundVia, g.LinkText)}
		switch g.FoundVia {
		case "home":
			gv.Via = "the home page, planned for its footer links"
		case "robots":
			gv.Via = "robots.txt, asked for first"
		}
		if gv.Meaning == "" {
			gv.Meaning = "A reason not in our vocabulary: " + g.Reason + "."
		}
		switch {
		case g.Status != 0 && g.Detail != "" && !strings.Contains(g.Detail, strconv.Itoa(g.Status)):
			gv.Status = "HTTP " + strconv.Itoa(g.Status) + "; " + g.Detail
		case g.Detail != "":
			gv.Status = g.Detail
		case g.Status != 0:
			gv.Status = "HTTP " + strconv.Itoa(g.Status)
		default:
			gv.Status = "—"
		}
		counts[g.Reason]++
		out = append(out, gv)
	}
	// By reason in the vocabulary's order, then by address: the same gaps
	// always read the same way.
	slices.SortStableFunc(out, func(a, b gapView) int {
		ra, oka := rank[a.Reason]
		rb, okb := rank[b.Reason]
		if !oka {
			ra = len(rank)
		}
		if !okb {
			rb = len(rank)
		}
		if ra != rb {
			return ra - rb
		}
		if a.Reason != b.Reason {
			return compareStrings(a.Reason, b.Reason)
		}
		return compareStrings(a.URL, b.URL)
	})
	var rc []reasonCount
	for _, g := range out {
		if len(rc) == 0 || rc[len(rc)-1].Code != g.Reason {
			rc = append(rc, reasonCount{Code: g.Reason, Meaning: g.Meaning, Count: counts[g.Reason]})
		}
	}
	return out, rc
}

// signalsOf says, for each file of the well-known list, whether the site
// publishes it: read (found via the well-known list or as llms.txt), not
// published (404/410), or not read by us (a gap).
func signalsOf(s *signals.Site, docs []docView, gaps []gapView) signalsView {
	v := signalsView{S: s.Signals}
	for _, p := range policy.WellKnown {
		row := wellKnownRow{Path: p, State: "not-planned"}
		for i := range docs {
			if (docs[i].FoundVia == "well-known" || docs[i].FoundVia == "llms") && pathOf(docs[i].URL) == p {
				row.State, row.Doc = "published", &docs[i]
				break
			}
		}
		if row.Doc == nil {
			for _, u := range s.NotPublished {
				if pathOf(u) == p {
					row.State = "not-published"
					break
				}
			}
		}
		if row.State == "not-planned" {
			for i := range gaps {
				if pathOf(gaps[i].URL) == p {
					row.State, row.Gap = "not-read", &gaps[i]
					break
				}
			}
		}
		if row.State == "published" {
			v.Published++
		}
		v.WellKnown = append(v.WellKnown, row)
	}
	return v
}

func pathOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Path
}

// openOf arranges the Open by design verdict: each quote it rests on
// linked to where it stands under its document, or quoted here when it
// stands nowhere else on the page.
func openOf(o signals.OpenVerdict, anchors *quoteAnchors) openView {
	v := openView{OpenVerdict: o}
	if o.API != nil {
		if v.APIRef = anchors.ref(o.API.URL, o.API.Says()); v.APIRef == nil {
			q := quoteOf(*o.API)
			v.API = &q
		}
	}
	if o.Licence != nil {
		if v.LicenceRef = anchors.ref(o.Licence.URL, o.Licence.Says()); v.LicenceRef == nil {
			q := quoteOf(*o.Licence)
			v.Licence = &q
		}
	}
	if d := o.Declared; d != nil {
		v.Declaration = &licenceView{Licence: *d, Page: linkTo(d.URL, shortURL(d.URL)), Target: linkTo(d.LinksTo, shortURL(d.LinksTo))}
	}
	return v
}

// viaWords says how we came to read (or plan) an address.
func viaWords(via, text string) string {
	switch via {
	case "robots":
		return "robots.txt, read first"
	case "home":
		return "home page, read for its footer links only"
	case "footer":
		if text == "" {
			return "linked from the footer"
		}
		return "linked from the footer as “" + text + "”"
	case "hop":
		if text == "" {
			return "linked from a page we read"
		}
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
