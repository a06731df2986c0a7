package extract

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Link is one link on a page.
type Link struct {
	// URL is absolute, resolved against <base href> and then the page
	// address, without its fragment; only http(s) links are kept.
	URL string
	// Text is the visible text of the <a> with white space folded; when it
	// has none, its aria-label, then its title, then the alt text of an
	// image inside it.
	Text string
	// Fragment is the #fragment the href had, without "#", removed from
	// URL because it names a place in the same document. Reading words
	// are matched in it too: "/policies#license" points at a licence.
	Fragment string
	// Hidden is set when the link sits inside an element hidden from
	// readers (hidden, aria-hidden="true", inline display:none, a closed
	// <dialog>). Such links are kept, because menus that scripts open are
	// hidden this way, but callers may weigh them differently.
	Hidden bool
}

// Alternate is a language version of the page, from <link rel="alternate"
// hreflang="…" href="…">.
type Alternate struct{ Lang, URL string }

// LicenseLink is a <link rel="license" href="…"> element: the licence the
// page declares for programs. Href is the attribute as written, URL it
// resolved (absolute http(s), or "" when it is not one).
type LicenseLink struct{ Href, URL string }

// Page is what we read from one HTML page.
type Page struct {
	Title string
	Lang  string // the lang attribute of <html>, as written
	// Text is the visible text (see HTML), Normalize'd.
	Text string
	// Blocks is the same text cut at block boundaries (paragraphs,
	// headings, list items, cells, <br>), each Normalize'd and non-empty,
	// with the kind of box that holds it; Text is their texts joined by
	// single spaces. Sentence finders use them so a heading does not run
	// into the paragraph after it, and a list item is read with its lead-in.
	Blocks []Block
	// Links holds every http(s) link in document order.
	Links []Link
	// Footer holds the links of the detected footer, in document order.
	Footer      []Link
	FooterFound bool
	// FooterHow says how the footer was found: FooterByElement,
	// FooterByRole, FooterByIDClass or FooterByEndBlock; "" when not found.
	FooterHow string
	// Alternates are the hreflang alternates, in document order, without
	// duplicates.
	Alternates []Alternate
	// LicenseLinks are the <link rel="license"> elements, in document
	// order (an <a rel="license"> is among Links, with its text). Left out
	// of JSON, like Meta: read as signals, not as the page's reading.
	LicenseLinks []LicenseLink `json:"-"`
	// AppShell is set when the page is an application shell that needs
	// JavaScript: almost no visible text, and an empty app root (#root,
	// #app, #__next …) or a <noscript> message about JavaScript.
	AppShell bool
	// Charset is the canonical name of the charset used to decode the
	// body; CharsetRule is which rule decided (the Rule… constants).
	Charset     string
	CharsetRule string
	// Meta holds the page's <meta name=… content=…> values by lower-cased
	// name, in document order (see MetaTags). Left out of JSON: it is
	// read as signals, never as the page's text.
	Meta map[string][]string `json:"-"`
}

// HTML reads an HTML body (raw bytes, after any Content-Encoding is undone)
// fetched from pageURL with the given Content-Type header value.
//
// Visible text leaves out <head>, scripts, styles, templates, <noscript>,
// SVG, iframes, canvas, audio/video fallbacks, comments and every attribute,
// and drops hidden elements (the hidden attribute unless "until-found",
// aria-hidden="true", inline display:none or visibility:hidden, a <dialog>
// without open). Block elements, <br>, list items and table cells separate
// words; inline elements do not, so "<b>Vil</b>kår" is one word. Entities
// are decoded by the parser.
//
// The one template that is read is a declarative shadow root (<template
// shadowrootmode="open"> or "closed"): its content is read where a browser
// shows it, in place of the host's children, each <slot> showing the
// children assigned to it. Some sites render their footer that way.
//
// pageURL may be nil; then only absolute links are kept.
func HTML(body []byte, contentType string, pageURL *url.URL) (*Page, error) {
	dec := decodeBody(body, contentType, true)
	doc, err := parseDocument(dec.data)
	if err != nil {
		return nil, fmt.Errorf("extract: parsing HTML: %w", err)
	}
	return readPage(doc, dec, pageURL), nil
}

// readPage reads a page from its parsed tree.
func readPage(doc *html.Node, dec decoded, pageURL *url.URL) *Page {
	p := &Page{Charset: dec.charset, CharsetRule: dec.rule, Meta: metaTags(doc)}
	w := &walker{page: p, ranges: map[*html.Node]linkRange{}}
	w.scanHead(doc, pageURL)
	w.walk(doc, false)
	w.flushBlock()
	p.Blocks = w.blocks
	// Each block is already Normalize'd and non-empty, so their join by
	// single spaces is too: no white space to fold, and NFC holds across
	// the joins (U+0020 composes with nothing on either side, and, a
	// starter, it ends any run of combining marks). Normalizing it again
	// was a whole pass over the text for nothing.
	p.Text = joinBlocks(w.blocks)
	p.Links = w.links
	w.chooseFooter()
	p.AppShell = w.isAppShell()
	return p
}

// linkRange is the half-open range of indexes into Page.Links of the links
// inside one element (links are collected in document order, so the links
// of any element are contiguous).
type linkRange struct{ start, end int }

// openLink is an <a> being read: its text so far, and how many hidden
// elements inside it we are in.
type openLink struct {
	index       int
	text        strings.Builder
	hiddenBelow int
}

type walker struct {
	page *Page
	base *url.URL
	// resolved caches resolve's answers by href (see resolve); origin is
	// what quickResolve resolves paths from the root against (plainOrigin
	// of base, worked out on first use).
	resolved  map[string][2]string
	origin    string
	originSet bool

	blocks []Block
	// cur holds the text nodes of the current block, not yet joined: a
	// block is most often one text node, whose string then needs no copy.
	cur []string
	// letters counts the letters and digits of visible text so far; it
	// lets an element tell whether it showed any text.
	letters int
	// boxes are the open block elements, innermost last: the innermost
	// decides what kind of block the current text is.
	boxes []openBox
	// curLetters and curLinked count the letters and digits of the current
	// block, and of those inside links.
	curLetters, curLinked int

	links     []Link
	linkNodes []*html.Node
	linkInArt []bool
	open      []*openLink
	ranges    map[*html.Node]linkRange
	linkMatch []int8 // per link: 0 not yet known, 1 matches a reading word, -1 not

	candidates   []*candidate
	articleDepth int
	mainDepth    int // open <main> or role=main elements
	// markers are <main>, role=main and <h1> elements: a footer never
	// contains them, a wrapper around the whole page does.
	markers         []*html.Node
	markerAncestors map[*html.Node]bool // the markers and all their ancestors, built on first use
	contentAt       []linkRange         // link ranges of <main> and <article> elements

	appRootEmpty bool
	noscriptJS   bool

	// hosts are the shadow hosts whose declarative shadow trees are being
	// read, innermost last: a <slot> shows the children of the innermost.
	hosts       []*html.Node
	slotsFilled map[*html.Node]map[string]bool // per host, the slot names already given children
}

// scanHead finds what the body walk needs first or does not see: the
// document base, the title, the language and the hreflang alternates.
func (w *walker) scanHead(doc *html.Node, pageURL *url.URL) {
	w.base = pageURL
	baseSet := false
	titleSet := false
	seenAlt := map[Alternate]bool{}
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Namespace == "" {
			switch n.DataAtom {
			case atom.Html:
				if l := strings.TrimSpace(attr(n, "lang")); l != "" {
					w.page.Lang = l
				} else if l := strings.TrimSpace(attr(n, "xml:lang")); l != "" {
					w.page.Lang = l
				}
			case atom.Base:
				// The first <base> with an href decides, as in browsers.
				if href, ok := attrOK(n, "href"); ok && !baseSet {
					baseSet = true
					if b, err := parseHref(href); err == nil {
						if pageURL != nil {
							w.base = pageURL.ResolveReference(b)
						} else if b.IsAbs() {
							w.base = b
						}
					}
				}
			case atom.Title:
				if !titleSet {
					titleSet = true
					w.page.Title = Normalize(textContent(n))
				}
				return
			case atom.Template, atom.Script, atom.Style, atom.Noscript:
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
	}
	visit(doc)
	// Alternates are resolved against the final base, so collect them
	// after the base is known; the licence links likewise.
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "link" {
			if rel, _ := anyAttr(n, "rel"); hasToken(rel, "license") {
				if href, ok := anyAttr(n, "href"); ok {
					u, _ := w.resolve(href)
					w.page.LicenseLinks = append(w.page.LicenseLinks, LicenseLink{Href: href, URL: u})
				}
			}
		}
		if !isAlternateLink(n) {
			continue
		}
		rel, _ := anyAttr(n, "rel")
		if !hasToken(rel, "alternate") {
			continue
		}
		hreflang, _ := anyAttr(n, "hreflang")
		href, _ := anyAttr(n, "href")
		lang := strings.ToLower(strings.TrimSpace(hreflang))
		u, _ := w.resolve(href)
		if a := (Alternate{Lang: lang, URL: u}); lang != "" && u != "" && !seenAlt[a] {
			seenAlt[a] = true
			w.page.Alternates = append(w.page.Alternates, a)
		}
	}
}

// isAlternateLink reports whether n is a <link> with rel, hreflang and
// href attributes. Like the CSS selector link[rel][hreflang][href] it
// stands for, it looks at the element name and attribute keys whatever
// their namespace, so a <link> inside <svg> or a <template> counts.
func isAlternateLink(n *html.Node) bool {
	if n.Type != html.ElementNode || n.Data != "link" {
		return false
	}
	_, rel := anyAttr(n, "rel")
	_, lang := anyAttr(n, "hreflang")
	_, href := anyAttr(n, "href")
	return rel && lang && href
}

// anyAttr returns the first attribute named key in any namespace.
func anyAttr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// isSkipped reports the elements that hold nothing a reader sees as text
// of the page. (A switch, not a map: it is asked for every element.)
func isSkipped(name string) bool {
	switch name {
	case "head", "script", "style", "template",
		"noscript", "svg", "iframe", "canvas",
		"audio", "video", "object", "datalist",
		"title", "frameset", "frame":
		return true
	}
	return false
}

// isBlock reports the elements that separate words: CSS block and
// list-item boxes, table rows and cells, and line breaks. Everything else,
// custom elements included, is inline, as in a browser's default style
// sheet.
func isBlock(name string) bool {
	switch name {
	case "address", "article", "aside", "blockquote",
		"body", "br", "caption", "center", "dd",
		"details", "dialog", "dir", "div", "dl",
		"dt", "fieldset", "figcaption", "figure",
		"footer", "form", "h1", "h2", "h3",
		"h4", "h5", "h6", "header", "hgroup",
		"hr", "html", "legend", "li", "listing",
		"main", "menu", "nav", "ol", "p",
		"plaintext", "pre", "section", "summary",
		"table", "tbody", "td", "tfoot", "th",
		"thead", "tr", "ul", "xmp", "option",
		"optgroup", "search", "colgroup", "col":
		return true
	}
	return false
}

func (w *walker) walk(n *html.Node, hidden bool) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data, hidden)
		return
	case html.DocumentNode:
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.walk(c, hidden)
		}
		return
	case html.ElementNode:
	default:
		return // comments, doctypes
	}
	name := n.Data
	if n.Namespace != "" {
		if n.Namespace == "svg" {
			return
		}
		name = "" // MathML: inline, text kept
	}
	if isSkipped(name) {
		if name == "noscript" {
			w.noteNoscript(n)
		}
		return
	}

	role := attr(n, "role")
	selfHidden := isHidden(n)
	if selfHidden {
		for _, l := range w.open {
			l.hiddenBelow++
		}
	}
	shown := !hidden && !selfHidden
	block := isBlock(name)
	if block {
		w.breakBlock(shown)
		w.boxes = append(w.boxes, w.boxOf(name, role))
	}

	var link *openLink
	if name == "a" || name == "area" {
		if href, ok := attrOK(n, "href"); ok {
			if u, frag := w.resolve(href); u != "" {
				link = &openLink{index: len(w.links)}
				w.links = append(w.links, Link{URL: u, Fragment: frag, Hidden: hidden || selfHidden})
				w.linkNodes = append(w.linkNodes, n)
				w.linkInArt = append(w.linkInArt, w.articleDepth > 0)
				w.open = append(w.open, link)
			}
		}
	}

	article := name == "article" || hasToken(role, "article")
	cand := w.footerCandidate(n, role)
	isMain := name == "main" || hasToken(role, "main")
	if isMain || name == "h1" {
		w.markers = append(w.markers, n)
	}
	if article {
		w.articleDepth++
	}
	if isMain {
		w.mainDepth++
	}
	startLinks, startLetters := len(w.links), w.letters
	if link != nil {
		startLinks = link.index
	}

	switch root := shadowRoot(n); {
	case root != nil:
		w.hosts = append(w.hosts, n)
		for c := root.FirstChild; c != nil; c = c.NextSibling {
			w.walk(c, hidden || selfHidden)
		}
		w.hosts = w.hosts[:len(w.hosts)-1]
	case name == "slot" && len(w.hosts) > 0:
		w.walkSlot(n, hidden || selfHidden)
	default:
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.walk(c, hidden || selfHidden)
		}
	}

	if article {
		w.articleDepth--
	}
	if isMain {
		w.mainDepth--
	}
	r := linkRange{startLinks, len(w.links)}
	if r.end > r.start {
		w.ranges[n] = r
	}
	if name == "main" || article {
		w.contentAt = append(w.contentAt, r)
	}
	if cand != nil {
		cand.links = r
		w.candidates = append(w.candidates, cand)
	}
	if w.letters == startLetters && isAppRoot(n) {
		w.appRootEmpty = true
	}
	if link != nil {
		w.closeLink(link, n)
	}
	if block {
		w.breakBlock(shown)
		w.boxes = w.boxes[:len(w.boxes)-1]
	}
	if selfHidden {
		for _, l := range w.open {
			l.hiddenBelow--
		}
	}
}

// shadowRoot returns the <template shadowrootmode="open|closed"> that
// gives n a declarative shadow root, or nil. A browser renders that
// template's content in place of n's children (which show only where a
// <slot> places them); only the first such template of an element that
// may host a shadow root counts, and every other <template> stays
// invisible.
func shadowRoot(n *html.Node) *html.Node {
	if n.Namespace != "" || !canHostShadow(n.Data) {
		return nil
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.DataAtom != atom.Template || c.Namespace != "" {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(attr(c, "shadowrootmode"))) {
		case "open", "closed":
			return c
		}
	}
	return nil
}

// canHostShadow reports the standard elements that may have a shadow
// root; custom elements (a name with a hyphen) may too.
func canHostShadow(name string) bool {
	switch name {
	case "article", "aside", "blockquote", "body", "div",
		"footer", "h1", "h2", "h3", "h4", "h5",
		"h6", "header", "main", "nav", "p",
		"section", "span":
		return true
	}
	return strings.Contains(name, "-")
}

// walkSlot reads what a <slot> of a declarative shadow tree shows: the
// children of the shadow host assigned to it (slot="name", or none for the
// default slot), read in the host's own tree; when none is assigned, the
// slot's fallback content.
func (w *walker) walkSlot(slot *html.Node, hidden bool) {
	host := w.hosts[len(w.hosts)-1]
	name := attr(slot, "name")
	assigned := false
	// Only the first slot of a name gets the children (as in browsers),
	// so each child is read once however many slots share its name.
	if !w.slotsFilled[host][name] {
		if w.slotsFilled == nil {
			w.slotsFilled = map[*html.Node]map[string]bool{}
		}
		if w.slotsFilled[host] == nil {
			w.slotsFilled[host] = map[string]bool{}
		}
		w.slotsFilled[host][name] = true
		inner := w.hosts
		w.hosts = w.hosts[:len(w.hosts)-1]
		for c := host.FirstChild; c != nil; c = c.NextSibling {
			if slotName(c) == name {
				assigned = assigned || !isWhitespaceText(c)
				w.walk(c, hidden)
			}
		}
		w.hosts = inner
	}
	if !assigned {
		for c := slot.FirstChild; c != nil; c = c.NextSibling {
			w.walk(c, hidden)
		}
	}
}

// slotName is the slot a child of a shadow host goes to: its slot
// attribute, or "" (the default slot) for text and unnamed elements.
func slotName(n *html.Node) string {
	if n.Type == html.ElementNode {
		return attr(n, "slot")
	}
	return ""
}

func isWhitespaceText(n *html.Node) bool {
	return n.Type == html.TextNode && strings.TrimSpace(n.Data) == ""
}

// text adds a text node's content to the page text and to every open link
// that shows it.
func (w *walker) text(s string, hidden bool) {
	if !hidden {
		w.cur = append(w.cur, s)
		linked := false
		for _, l := range w.open {
			linked = linked || l.hiddenBelow == 0
		}
		n := countLetters(s)
		w.letters += n
		w.curLetters += n
		if linked {
			w.curLinked += n
		}
	}
	for _, l := range w.open {
		if l.hiddenBelow == 0 {
			l.text.WriteString(s)
		}
	}
}

// countLetters counts the letters and digits (unicode.IsLetter or
// IsNumber) of s; ASCII, most of any page, is decided without a table
// look-up.
func countLetters(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			n += int(asciiAlnum[c])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			n++
		}
		i += size
	}
	return n
}

// asciiAlnum is 1 for the ASCII letters and digits, 0 for other ASCII.
var asciiAlnum = func() (t [utf8.RuneSelf]uint8) {
	for c := range t {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			t[c] = 1
		}
	}
	return t
}()

// breakBlock marks a block boundary: it ends the current block of page
// text when the boundary is shown (a hidden <div> inside a paragraph does
// not split it), and separates words in the text of open links.
func (w *walker) breakBlock(shown bool) {
	if shown {
		w.flushBlock()
	}
	for _, l := range w.open {
		if l.hiddenBelow == 0 {
			l.text.WriteByte(' ')
		}
	}
}

func (w *walker) flushBlock() {
	if len(w.cur) == 0 {
		return
	}
	// Between block elements the source's line breaks and indentation
	// make blocks of white space alone, as many as there are blocks of
	// text: Normalize would make them "" after copying them.
	blank := true
	for _, s := range w.cur {
		blank = blank && isASCIISpace(s)
	}
	if !blank {
		if s := Normalize(joinTexts(w.cur)); s != "" {
			b := Block{Text: s, Box: BoxText, Letters: w.curLetters, Linked: w.curLinked}
			if n := len(w.boxes); n > 0 {
				top := w.boxes[n-1]
				b.Box, b.Depth, b.Nav = top.kind, top.depth, top.nav
			}
			w.blocks = append(w.blocks, b)
		}
	}
	w.cur = w.cur[:0]
	w.curLetters, w.curLinked = 0, 0
}

// joinTexts is the texts one after the other, copied once (or not at all
// when there is one).
func joinTexts(texts []string) string {
	if len(texts) == 1 {
		return texts[0]
	}
	n := 0
	for _, s := range texts {
		n += len(s)
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range texts {
		b.WriteString(s)
	}
	return b.String()
}

// isASCIISpace reports whether s is ASCII white space alone, which
// Normalize makes "".
func isASCIISpace(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || !asciiSpace[s[i]] {
			return false
		}
	}
	return true
}

func (w *walker) closeLink(l *openLink, n *html.Node) {
	for i := len(w.open) - 1; i >= 0; i-- {
		if w.open[i] == l {
			w.open = append(w.open[:i], w.open[i+1:]...)
			break
		}
	}
	text := Normalize(l.text.String())
	if text == "" {
		text = Normalize(attr(n, "aria-label"))
	}
	if text == "" {
		text = Normalize(attr(n, "title"))
	}
	if text == "" {
		for d := range n.Descendants() {
			if d.Type == html.ElementNode && d.DataAtom == atom.Img {
				if alt := Normalize(attr(d, "alt")); alt != "" {
					text = alt
					break
				}
			}
		}
	}
	w.links[l.index].Text = text
}

// resolve turns an href into an absolute http(s) address without fragment,
// and the fragment it had; the address is "" when the href is not one
// (mailto:, javascript:, a bare #fragment that points into the page itself,
// or an unparseable value).
func (w *walker) resolve(href string) (string, string) {
	// Menus repeat their links (a header, a mobile menu, a footer), and
	// the base is fixed before the first link is resolved, so each href
	// is worked out once.
	if r, ok := w.resolved[href]; ok {
		return r[0], r[1]
	}
	if !w.originSet {
		w.origin, w.originSet = plainOrigin(w.base), true
	}
	u, ok := quickResolve(href, w.origin)
	frag := ""
	if !ok {
		u, frag = w.resolveNew(href)
	}
	if w.resolved == nil {
		w.resolved = map[string][2]string{}
	}
	w.resolved[href] = [2]string{u, frag}
	return u, frag
}

func (w *walker) resolveNew(href string) (string, string) {
	ref, err := parseHref(href)
	if err != nil {
		return "", ""
	}
	if ref.Scheme == "" && ref.Opaque == "" && ref.Host == "" && ref.Path == "" && ref.RawQuery == "" && !ref.ForceQuery {
		return "", "" // "#top" or "": the page itself
	}
	u := ref
	if w.base != nil {
		u = w.base.ResolveReference(ref)
	}
	if !u.IsAbs() {
		return "", ""
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" || u.Host == "" {
		return "", ""
	}
	u.Scheme = scheme
	frag := u.Fragment
	u.Fragment, u.RawFragment = "", ""
	return u.String(), frag
}

// parseHref parses an attribute value as a URL the way browsers read it:
// surrounding ASCII white space is ignored and tabs and newlines inside
// are removed.
func parseHref(href string) (*url.URL, error) {
	href = strings.Trim(href, " \t\n\f\r")
	if strings.ContainsAny(href, "\t\n\r") {
		// Rare: most links hold none, and a Replacer built per link was
		// about 7 % of all a crawl allocated.
		href = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, href)
	}
	return url.Parse(href)
}

// isHidden reports whether an element hides itself and its content.
func isHidden(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Namespace != "" {
			continue
		}
		switch a.Key {
		case "hidden":
			// hidden="until-found" content is found by find-in-page and
			// shown when reached (accordions): it is part of the text.
			if !strings.EqualFold(strings.TrimSpace(a.Val), "until-found") {
				return true
			}
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "style":
			if styleHides(a.Val) {
				return true
			}
		}
	}
	if n.DataAtom == atom.Dialog {
		if _, open := attrOK(n, "open"); !open {
			return true
		}
	}
	return false
}

// styleHides reports whether an inline style declares display:none or
// visibility:hidden (or collapse).
func styleHides(style string) bool {
	for _, decl := range strings.Split(style, ";") {
		prop, val, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		prop = strings.ToLower(strings.TrimSpace(prop))
		val = strings.ToLower(strings.TrimSpace(val))
		val = strings.TrimSpace(strings.TrimSuffix(val, "!important"))
		switch prop {
		case "display":
			if val == "none" {
				return true
			}
		case "visibility":
			if val == "hidden" || val == "collapse" {
				return true
			}
		}
	}
	return false
}

// appRootIDs are the ids script frameworks mount an application on.
var appRootIDs = map[string]bool{
	"root": true, "app": true, "__next": true, "__nuxt": true, "___gatsby": true,
	"svelte": true, "app-root": true, "react-root": true, "main-app": true,
	"application": true, "ember-app": true, "q-app": true, "appmount": true,
}

func isAppRoot(n *html.Node) bool {
	if appRootIDs[strings.ToLower(strings.TrimSpace(attr(n, "id")))] {
		return true
	}
	if n.Data == "app-root" { // Angular's default root element
		return true
	}
	_, ngApp := attrOK(n, "ng-app")
	_, reactRoot := attrOK(n, "data-reactroot")
	return ngApp || reactRoot
}

// noteNoscript records whether a <noscript> tells the reader to turn on
// JavaScript. With scripting on (as in a browser), the parser keeps its
// content as raw text, so the text is read with the tokenizer.
func (w *walker) noteNoscript(n *html.Node) {
	var raw strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			raw.WriteString(c.Data)
		}
	}
	z := html.NewTokenizer(strings.NewReader(raw.String()))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		if tt == html.TextToken && strings.Contains(strings.ToLower(string(z.Text())), "javascript") {
			w.noscriptJS = true
			return
		}
	}
}

// appShellLetters is how few letters and digits a page may show and still
// count as an empty shell.
const appShellLetters = 200

func (w *walker) isAppShell() bool {
	return w.letters < appShellLetters && (w.appRootEmpty || w.noscriptJS)
}

// attr returns the value of an element's attribute, or "".
func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// hasToken reports whether a space-separated attribute value holds token,
// case-insensitively.
func hasToken(list, token string) bool {
	for f := range strings.FieldsSeq(list) {
		if strings.EqualFold(f, token) {
			return true
		}
	}
	return false
}

// textContent is all text below n, ignoring markup (used for <title>).
func textContent(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// parseDocument parses HTML. The parser refuses documents nested deeper
// than 512 elements (a page of unclosed <div> or <font> tags can be); such a
// document is parsed again after flattening: whenever the tags as written
// nest 256 deep, the inner half is closed there, so every element, its text
// and its links are kept, only less deeply nested (browsers, too, stop
// nesting at a fixed depth).
//
// What nothing reads is taken out first (stripUnread): the text of style
// sheets and scripts, the content of inline SVG, unread attributes. The
// tree is the same but for them.
func parseDocument(data []byte) (*html.Node, error) {
	pieces := pieceReader(stripUnread(data))
	doc, err := html.Parse(&pieces)
	if err == nil {
		return doc, nil
	}
	doc, err2 := html.Parse(strings.NewReader(flattenDeepTags(string(data), 256)))
	if err2 != nil {
		return nil, err
	}
	return doc, nil
}

// voidElements have no end tag and never hold content.
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "param": true,
	"source": true, "track": true, "wbr": true,
}

// flattenDeepTags rewrites a document so that, counting nesting naively from
// the tags as written, no element opens deeper than limit: at that depth it
// inserts end tags for the inner half of the open elements and later skips
// their own end tags. Everything else is copied byte for byte.
func flattenDeepTags(text string, limit int) string {
	z := html.NewTokenizer(strings.NewReader(text))
	var out strings.Builder
	out.Grow(len(text))
	var open []string
	dropped := map[string]int{}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out.String()
		}
		raw := z.Raw()
		switch tt {
		case html.StartTagToken:
			name, _ := z.TagName()
			n := string(name)
			if voidElements[n] {
				break
			}
			if len(open) >= limit {
				// Close the inner half of the open elements here; their
				// own end tags, later, are then left out.
				for i := len(open) - 1; i >= limit/2; i-- {
					out.WriteString("</" + open[i] + ">")
					dropped[open[i]]++
				}
				open = open[:limit/2]
			}
			open = append(open, n)
		case html.EndTagToken:
			name, _ := z.TagName()
			n := string(name)
			if dropped[n] > 0 {
				dropped[n]--
				continue
			}
			for i := len(open) - 1; i >= 0; i-- {
				if open[i] == n {
					open = open[:i]
					break
				}
			}
		}
		out.Write(raw)
	}
}
