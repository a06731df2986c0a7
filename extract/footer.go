package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// How a footer was found (Page.FooterHow).
const (
	FooterByElement  = "footer element"
	FooterByRole     = "role=contentinfo"
	FooterByIDClass  = "id/class footer"
	FooterByEndBlock = "end-of-page legal block"
)

// candidate is an element that may be the site footer.
type candidate struct {
	node      *html.Node
	strength  int // 3 <footer>, 2 role=contentinfo, 1 id/class
	links     linkRange
	inArticle bool // inside an <article> (or role=article): a byline or post footer
	matches   int  // links that match a reading word
}

func (c *candidate) how() string {
	switch c.strength {
	case 3:
		return FooterByElement
	case 2:
		return FooterByRole
	case 1:
		return FooterByIDClass
	}
	return FooterByEndBlock
}

// footerCandidate returns a candidate for n when its markup names it a
// footer: a <footer> element, role="contentinfo", or an id or class such as
// "footer", "site-footer", "navFooter", "foot", "colophon".
func (w *walker) footerCandidate(n *html.Node, role string) *candidate {
	strength := 0
	switch {
	case n.DataAtom == atom.Footer && n.Namespace == "":
		strength = 3
	case hasToken(role, "contentinfo"):
		strength = 2
	case namesFooter(attr(n, "id")) || classNamesFooter(attr(n, "class")):
		strength = 1
	}
	if strength == 0 {
		return nil
	}
	return &candidate{node: n, strength: strength, inArticle: w.articleDepth > 0}
}

func classNamesFooter(class string) bool {
	if !mayNameFooter(class) {
		return false
	}
	for c := range strings.FieldsSeq(class) {
		if namesFooter(c) {
			return true
		}
	}
	return false
}

// namesFooter reports whether an id or class token names a footer: it
// contains "footer" anywhere ("navFooter", "footerwrap"), or one of its
// words is "foot" or "colophon" ("foot", "page-foot"). "footnote" is not a
// footer.
func namesFooter(token string) bool {
	if !mayNameFooter(token) {
		return false // most ids and classes: no need to lower-case them or cut them into words
	}
	if strings.Contains(strings.ToLower(token), "footer") {
		return true
	}
	for _, w := range splitIdentifier(token) {
		if w == "foot" || w == "colophon" || w == "ftr" {
			return true
		}
	}
	return false
}

// mayNameFooter reports whether an id or class could name a footer: its
// lower-cased form must contain "foot" (in "footer" too), "colophon" or
// "ftr". Each word namesFooter cuts out is a run of the token's
// characters, lower-cased rune by rune as the whole is, so a word can only
// be one of those where the lower-cased whole contains it. An ASCII
// token, nearly every one, is searched ignoring ASCII case without making
// a lower-cased copy.
func mayNameFooter(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			lower := strings.ToLower(s)
			return strings.Contains(lower, "foot") || strings.Contains(lower, "colophon") || strings.Contains(lower, "ftr")
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] | 0x20 { // ASCII lower case, for letters
		case 'f':
			if hasPrefixFold(s[i:], "foot") || hasPrefixFold(s[i:], "ftr") {
				return true
			}
		case 'c':
			if hasPrefixFold(s[i:], "colophon") {
				return true
			}
		}
	}
	return false
}

// hasPrefixFold reports whether the ASCII s starts with the lower-case
// ASCII prefix, ignoring case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := range len(prefix) {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// splitIdentifier cuts "page-foot", "page_foot" and "pageFoot" into lower
// case words.
func splitIdentifier(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range s {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	return words
}

// chooseFooter picks the element that holds the site's footer links.
//
// Candidates are ranked in tiers: first page-level candidates (not inside an
// <article>) holding links that match reading words; then, when there is no
// such candidate, the end-of-page legal block (the block that ends the page
// and holds its last legal links); then page-level candidates with links but
// no legal ones; then candidates inside an article (a post's own footer or a
// byline marked role=contentinfo), legal links first. Elements without links
// (an empty #footer, a search form named "footersrchfrm") and wrappers that
// contain the page's main content are never chosen.
//
// Within the best tier, only the outermost candidates compete (a footer's
// inner "footer-links" column is part of it); the one with the most legal
// links wins, and on a tie the later one, since the site footer comes last.
func (w *walker) chooseFooter() {
	total := len(w.links)
	var valid []*candidate
	for _, c := range w.candidates {
		if c.links.end <= c.links.start || w.tooLarge(c, total) {
			continue
		}
		c.matches = w.countMatches(c.links)
		valid = append(valid, c)
	}
	tier := func(c *candidate) int {
		switch {
		case c.strength == 0:
			return 1
		case !c.inArticle && c.matches > 0:
			return 0
		case !c.inArticle:
			return 2
		case c.matches > 0:
			return 3
		}
		return 4
	}
	hasTop := false
	for _, c := range valid {
		if tier(c) == 0 {
			hasTop = true
			break
		}
	}
	if !hasTop {
		if c := w.endOfPageBlock(); c != nil {
			valid = append(valid, c)
		}
	}
	if len(valid) == 0 {
		return
	}
	best := -1
	for _, c := range valid {
		if best < 0 || tier(c) < best {
			best = tier(c)
		}
	}
	var top []*candidate
	for _, c := range valid {
		if tier(c) == best {
			top = append(top, c)
		}
	}
	inTop := make(map[*html.Node]bool, len(top))
	for _, c := range top {
		inTop[c.node] = true
	}
	var chosen *candidate
	for _, c := range top {
		if enclosedBy(c.node, inTop) {
			continue
		}
		if chosen == nil || c.matches > chosen.matches ||
			c.matches == chosen.matches && c.links.start >= chosen.links.start {
			chosen = c
		}
	}
	// Name the footer by the strongest markup among the candidates that
	// hold exactly its links (a wrapper div around a <footer>).
	how := chosen
	for _, c := range valid {
		if c.strength > how.strength && c.links == chosen.links && isAncestorOrSelf(chosen.node, c.node) {
			how = c
		}
	}
	p := w.page
	p.FooterFound = true
	p.FooterHow = how.how()
	p.Footer = append([]Link(nil), w.links[chosen.links.start:chosen.links.end]...)
}

// enclosedBy reports whether one of n's ancestors is in set.
func enclosedBy(n *html.Node, set map[*html.Node]bool) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if set[p] {
			return true
		}
	}
	return false
}

func isAncestorOrSelf(anc, n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n == anc {
			return true
		}
	}
	return false
}

// tooLarge reports whether a candidate wraps the page rather than ends it:
// it contains <main>, role=main or an <h1>; or, for a candidate named only
// by id or class (where "has-footer" or "sticky-footer-wrap" classes sit on
// page wrappers), it holds more than three quarters of a page's links.
func (w *walker) tooLarge(c *candidate, total int) bool {
	if w.holdsMarker(c.node) {
		return true
	}
	n := c.links.end - c.links.start
	return c.strength == 1 && total >= 20 && n*4 > total*3
}

// holdsMarker reports whether n is or contains a <main>, role=main or <h1>.
func (w *walker) holdsMarker(n *html.Node) bool {
	if w.markerAncestors == nil {
		w.markerAncestors = map[*html.Node]bool{}
		for _, m := range w.markers {
			for a := m; a != nil && !w.markerAncestors[a]; a = a.Parent {
				w.markerAncestors[a] = true
			}
		}
	}
	return w.markerAncestors[n]
}

// endOfPageBlock finds the site-wide legal block at the end of a page that
// marks no footer: the last link matching a reading word among the page's
// closing links (after the main content, and within the last quarter of the
// links, at least the last ten), widened to the largest element around it
// whose links all lie in that closing part.
func (w *walker) endOfPageBlock() *candidate {
	total := len(w.links)
	if total == 0 {
		return nil
	}
	regionStart := total - max(10, total/4)
	for _, r := range w.contentAt {
		if r.end > regionStart && r.end < total {
			regionStart = r.end
		}
	}
	regionStart = max(regionStart, 0)
	last := -1
	for i := total - 1; i >= regionStart; i-- {
		if w.linkInArt[i] {
			continue
		}
		if w.matches(i) {
			last = i
			break
		}
	}
	if last < 0 {
		return nil
	}
	node := w.linkNodes[last]
	for p := node.Parent; p != nil; p = p.Parent {
		if p.Type != html.ElementNode || p.DataAtom == atom.Body || p.DataAtom == atom.Html {
			break
		}
		r, ok := w.ranges[p]
		if !ok || r.start < regionStart || w.holdsMarker(p) {
			break
		}
		node = p
	}
	c := &candidate{node: node, strength: 0, links: w.ranges[node]}
	if c.links.end <= c.links.start {
		c.links = linkRange{last, last + 1}
	}
	c.matches = w.countMatches(c.links)
	return c
}

// matches reports whether link i matches a reading word, working each link
// out once (nested candidates share their links).
func (w *walker) matches(i int) bool {
	if w.linkMatch == nil {
		w.linkMatch = make([]int8, len(w.links))
	}
	if w.linkMatch[i] == 0 {
		w.linkMatch[i] = -1
		if _, ok := MatchReadingWord(w.links[i]); ok {
			w.linkMatch[i] = 1
		}
	}
	return w.linkMatch[i] == 1
}

func (w *walker) countMatches(r linkRange) int {
	n := 0
	for i := r.start; i < r.end; i++ {
		if w.matches(i) {
			n++
		}
	}
	return n
}
