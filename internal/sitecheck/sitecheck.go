// Package sitecheck checks a built website folder the way a careful reader
// and a strict validator would: every page well-formed (each element closed
// where it was opened), with the landmarks and structure the design asks
// for, and every internal link and asset resolving to a file in the folder,
// anchors included. Tests run it on synthetic builds and on the demo.
package sitecheck

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Check walks dir and returns every problem found, sorted, each naming the
// file. base is where the site is published: its URL path ("/" usually,
// "/sub/" for a project site) or its whole address
// ("https://example.org/sub/"). Links that start with the path are resolved
// from the folder's root; with a whole address, absolute links to it (a
// canonical link, the feeds, the sitemap, robots.txt's Sitemap line) are
// resolved too, and must stay under it.
func Check(dir, base string) ([]string, error) {
	b, err := parseBase(base)
	if err != nil {
		return nil, err
	}
	pages := map[string]*pageInfo{} // by slash path relative to dir
	var files []string
	var absLinks []absLink // from feeds, the sitemap and robots.txt
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		files = append(files, rel)
		switch {
		case strings.HasSuffix(rel, ".html"):
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			pages[rel] = inspect(rel, data)
		case strings.HasSuffix(rel, ".xml") || rel == "robots.txt":
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			absLinks = append(absLinks, addresses(rel, data)...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	exists := map[string]bool{}
	for _, f := range files {
		exists[f] = true
	}
	var problems []string
	for rel, pg := range pages {
		problems = append(problems, pg.problems...)
		for _, l := range pg.links {
			if msg := checkLink(rel, l, b, exists, pages); msg != "" {
				problems = append(problems, rel+": "+msg)
			}
		}
	}
	if b.site != nil {
		for _, l := range absLinks {
			if msg := checkLink(l.file, linkRef{tag: "a", attr: l.what, value: l.value}, b, exists, pages); msg != "" {
				problems = append(problems, l.file+": "+msg)
			} else if !b.inside(l.value) {
				problems = append(problems, fmt.Sprintf("%s: %s %q is not under the base URL %s", l.file, l.what, l.value, b.site))
			}
		}
	}
	sort.Strings(problems)
	return problems, nil
}

// siteBase is where the site is published.
type siteBase struct {
	path string   // "/" or "/sub/"
	site *url.URL // the whole address, when known
}

func parseBase(base string) (siteBase, error) {
	if base == "" {
		return siteBase{path: "/"}, nil
	}
	u, err := url.Parse(base)
	if err != nil {
		return siteBase{}, fmt.Errorf("base %q: %w", base, err)
	}
	b := siteBase{path: u.Path}
	if u.Host != "" {
		b.site = u
	}
	if !strings.HasSuffix(b.path, "/") {
		b.path += "/"
	}
	return b, nil
}

// inside says whether an absolute address is on the site, under its path.
func (b siteBase) inside(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && b.site != nil && strings.EqualFold(u.Host, b.site.Host) && u.Scheme == b.site.Scheme && strings.HasPrefix(u.Path, b.path)
}

// absLink is an absolute address in a feed, the sitemap or robots.txt.
type absLink struct {
	file, what, value string
}

// addresses lists the http(s) addresses of an XML file (href attributes
// and <loc> elements) or of robots.txt's Sitemap lines.
func addresses(rel string, data []byte) []absLink {
	var out []absLink
	if rel == "robots.txt" {
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "sitemap") {
				out = append(out, absLink{rel, "Sitemap", strings.TrimSpace(v)})
			}
		}
		return out
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	inLoc := false
	for {
		tok, err := d.Token()
		if err != nil {
			return out
		}
		switch t := tok.(type) {
		case xml.StartElement:
			inLoc = t.Name.Local == "loc"
			for _, a := range t.Attr {
				if a.Name.Local == "href" {
					out = append(out, absLink{rel, "href", a.Value})
				}
			}
		case xml.CharData:
			if inLoc {
				out = append(out, absLink{rel, "loc", strings.TrimSpace(string(t))})
			}
		case xml.EndElement:
			inLoc = false
		}
	}
}

type linkRef struct {
	tag, attr, value string
	rel              string // a <link>'s rel
}

type pageInfo struct {
	ids      map[string]bool
	links    []linkRef
	problems []string
}

// voidElements never have an end tag.
var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

func inspect(rel string, data []byte) *pageInfo {
	pg := &pageInfo{ids: map[string]bool{}}
	bad := func(format string, args ...any) {
		pg.problems = append(pg.problems, rel+": "+fmt.Sprintf(format, args...))
	}

	// Well-formed: the tokenizer sees every tag as written; each start tag
	// of a non-void element must be closed by its own end tag, in order.
	z := html.NewTokenizer(bytes.NewReader(data))
	var stack []string
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				bad("tokenizer: %v", z.Err())
			}
			break
		}
		name, _ := z.TagName()
		tag := string(name)
		switch tt {
		case html.StartTagToken:
			if !voidElements[tag] {
				stack = append(stack, tag)
			}
		case html.EndTagToken:
			if len(stack) == 0 || stack[len(stack)-1] != tag {
				bad("</%s> closes %s", tag, top(stack))
				if i := slices.Index(stack, tag); i >= 0 {
					stack = stack[:i]
				}
				continue
			}
			stack = stack[:len(stack)-1]
		case html.SelfClosingTagToken:
			if !voidElements[tag] {
				bad("<%s/> is not a void element", tag)
			}
		}
	}
	if len(stack) > 0 {
		bad("elements never closed: %v", stack)
	}

	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		bad("parse: %v", err)
		return pg
	}
	count := map[atom.Atom]int{}
	var skipTarget string
	byID := map[string]*html.Node{}
	var landmarks []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			count[n.DataAtom]++
			if id := attr(n, "id"); id != "" {
				if pg.ids[id] {
					bad("id %q used twice", id)
				}
				pg.ids[id] = true
				byID[id] = n
			}
			if landmarkRole(n) != "" {
				landmarks = append(landmarks, n)
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(strings.ToLower(a.Key), "on") {
					bad("<%s> has an event handler attribute %s", n.Data, a.Key)
				}
				if a.Key == "href" || a.Key == "src" || a.Key == "cite" || a.Key == "action" {
					pg.links = append(pg.links, linkRef{n.Data, a.Key, a.Val, attr(n, "rel")})
				}
			}
			switch n.DataAtom {
			case atom.Html:
				if attr(n, "lang") == "" {
					bad("<html> has no lang")
				}
			case atom.A:
				if strings.Contains(" "+attr(n, "class")+" ", " skip ") && skipTarget == "" {
					skipTarget = strings.TrimPrefix(attr(n, "href"), "#")
				}
			case atom.Table:
				checkTable(n, bad)
			case atom.Figcaption:
				// HTML lets a figcaption be only the first or the last child of its figure.
				if f := n.Parent; f != nil && f.DataAtom == atom.Figure && firstElement(f) != n && lastElement(f) != n {
					bad("<figcaption> is neither the first nor the last child of its <figure>")
				}
			case atom.Script:
				// The one script is our own filter.js, from our own site, and
				// the page works without it; no inline code, nothing from
				// elsewhere.
				if src := attr(n, "src"); n.FirstChild != nil || !strings.HasSuffix(src, "filter.js") || strings.Contains(src, ":") || strings.HasPrefix(src, "//") {
					bad("<script> element other than our own filter.js: pages carry no other scripts")
				}
			case atom.Iframe, atom.Object, atom.Embed:
				bad("<%s> element: pages carry no embedded content", n.Data)
			case atom.Style:
				bad("<style> element: the one stylesheet is style.css")
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	// Two landmarks of one role need names that tell them apart (a screen
	// reader lists them by role and name).
	seen := map[string]bool{}
	for _, n := range landmarks {
		key := landmarkRole(n) + ": " + accessibleName(n, byID)
		if seen[key] {
			bad("two landmarks named %q", key)
		}
		seen[key] = true
	}
	for _, want := range []struct {
		a    atom.Atom
		name string
		min  int
		max  int
	}{{atom.H1, "h1", 1, 1}, {atom.Main, "main", 1, 1}, {atom.Header, "header", 1, 99}, {atom.Footer, "footer", 1, 99},
		{atom.Nav, "nav", 1, 99}, {atom.Title, "title", 1, 1}} {
		if n := count[want.a]; n < want.min || n > want.max {
			bad("%d <%s> elements", n, want.name)
		}
	}
	switch {
	case skipTarget == "":
		bad("no skip link (a.skip)")
	case !pg.ids[skipTarget]:
		bad("skip link target #%s does not exist", skipTarget)
	}
	return pg
}

// landmarkRole is the landmark role of n that can repeat on a page, or "".
func landmarkRole(n *html.Node) string {
	if r := attr(n, "role"); r != "" {
		switch r {
		case "region", "navigation", "search", "complementary", "form":
			return r
		}
		return ""
	}
	switch n.DataAtom {
	case atom.Nav:
		return "navigation"
	case atom.Aside:
		return "complementary"
	case atom.Section:
		if attr(n, "aria-label") != "" || attr(n, "aria-labelledby") != "" {
			return "region"
		}
	}
	return ""
}

// accessibleName is n's aria-label, or the text of the elements its
// aria-labelledby names, white space folded.
func accessibleName(n *html.Node, byID map[string]*html.Node) string {
	if l := attr(n, "aria-label"); l != "" {
		return strings.Join(strings.Fields(l), " ")
	}
	var parts []string
	for _, id := range strings.Fields(attr(n, "aria-labelledby")) {
		if t := byID[id]; t != nil {
			parts = append(parts, textOf(t))
		}
	}
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func firstElement(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

func lastElement(n *html.Node) *html.Node {
	for c := n.LastChild; c != nil; c = c.PrevSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

// checkTable wants a caption and header cells in every table.
func checkTable(t *html.Node, bad func(string, ...any)) {
	var caption, th bool
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if n.DataAtom == atom.Table && n != t {
				return
			}
			caption = caption || n.DataAtom == atom.Caption
			th = th || n.DataAtom == atom.Th
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(t)
	if !caption {
		bad("a table without a caption")
	}
	if !th {
		bad("a table without header cells")
	}
}

func top(stack []string) string {
	if len(stack) == 0 {
		return "nothing"
	}
	return "<" + stack[len(stack)-1] + ">"
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// checkLink resolves one href or src of page rel. External http(s) links
// are fine for <a> and <blockquote cite>; anything that would make the
// browser fetch from elsewhere (a stylesheet, an image, an icon) is not.
func checkLink(rel string, l linkRef, b siteBase, exists map[string]bool, pages map[string]*pageInfo) string {
	basePath := b.path
	v := strings.TrimSpace(l.value)
	u, err := url.Parse(v)
	if err != nil {
		return fmt.Sprintf("<%s %s=%q> does not parse: %v", l.tag, l.attr, v, err)
	}
	switch strings.ToLower(u.Scheme) {
	case "":
	case "http", "https":
		if b.inside(v) {
			// Our own page by its whole address: resolve it like a path.
			u = &url.URL{Path: u.Path, Fragment: u.Fragment}
			break
		}
		if l.tag == "a" || l.tag == "blockquote" {
			return ""
		}
		if l.tag == "link" && l.rel == "canonical" {
			if b.site != nil {
				return fmt.Sprintf("<link rel=canonical href=%q> is not under the base URL %s", v, b.site)
			}
			return "" // no base URL to hold it against; browsers do not fetch it
		}
		return fmt.Sprintf("<%s %s=%q> makes the browser fetch from elsewhere", l.tag, l.attr, v)
	case "mailto":
		if l.tag == "a" {
			return ""
		}
		fallthrough
	default:
		return fmt.Sprintf("<%s %s=%q>: scheme %q is not allowed", l.tag, l.attr, v, u.Scheme)
	}
	if u.Host != "" {
		return fmt.Sprintf("<%s %s=%q> is protocol-relative: it fetches from elsewhere", l.tag, l.attr, v)
	}
	var target string
	switch {
	case u.Path == "":
		target = rel
	case strings.HasPrefix(u.Path, "/"):
		if !strings.HasPrefix(u.Path, basePath) {
			return fmt.Sprintf("%s=%q is outside the site's path %s", l.attr, v, basePath)
		}
		target = strings.TrimPrefix(u.Path, basePath)
	default:
		target = path.Dir(rel) + "/" + u.Path
	}
	// A directory address ends in "/" (or is the root): its index.html.
	isDir := target == "" || strings.HasSuffix(target, "/")
	if target = path.Clean(target); target == "." {
		target = ""
	}
	if target == ".." || strings.HasPrefix(target, "../") {
		return fmt.Sprintf("%s=%q leaves the site", l.attr, v)
	}
	if isDir {
		target = strings.TrimPrefix(target+"/index.html", "/")
	}
	if !exists[target] {
		return fmt.Sprintf("%s=%q: %s does not exist", l.attr, v, target)
	}
	if u.Fragment != "" {
		pg := pages[target]
		if pg == nil {
			return fmt.Sprintf("%s=%q: fragment into %s, which is not a page", l.attr, v, target)
		}
		if !pg.ids[u.Fragment] {
			return fmt.Sprintf("%s=%q: %s has no id %q", l.attr, v, target, u.Fragment)
		}
	}
	return ""
}
