package extract

import (
	"strings"

	"golang.org/x/net/html"
)

// MetaTags returns the <meta name=… content=…> values of an HTML page, by
// lower-cased name, in document order: robots (noai, noimageai …),
// tdm-reservation, tdm-policy and the like are signals, not visible text.
// HTML returns the same as Page.Meta from the parse it makes anyway; this
// is for a caller that wants the meta tags alone.
func MetaTags(body []byte, contentType string) map[string][]string {
	doc, err := parseDocument(decodeBody(body, contentType, true).data)
	if err != nil {
		return nil
	}
	return metaTags(doc)
}

// metaTags collects every <meta> element of the tree that has both a name
// and a content attribute, wherever it is (head, body, template, SVG):
// a signal does not stop being one for being misplaced. Of an attribute
// written twice the first counts, as a browser reads it.
func metaTags(doc *html.Node) map[string][]string {
	out := map[string][]string{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == "meta" {
				name, hasName := firstAttr(c, "name")
				content, hasContent := firstAttr(c, "content")
				if name = strings.ToLower(strings.TrimSpace(name)); hasName && hasContent && name != "" {
					out[name] = append(out[name], strings.TrimSpace(content))
				}
			}
			walk(c)
		}
	}
	walk(doc)
	return out
}

// firstAttr is the value of n's first attribute named key, and whether it
// has one.
func firstAttr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}
