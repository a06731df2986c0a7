package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MetaTags returns the <meta name=… content=…> values of an HTML page, by
// lower-cased name, in document order: robots (noai, noimageai …),
// tdm-reservation, tdm-policy and the like are signals, not visible text.
func MetaTags(body []byte, contentType string) map[string][]string {
	doc, err := parseDocument(decodeBody(body, contentType, true).text)
	if err != nil {
		return nil
	}
	out := map[string][]string{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Meta {
			var name, content string
			hasContent := false
			for _, a := range n.Attr {
				switch strings.ToLower(a.Key) {
				case "name":
					name = strings.ToLower(strings.TrimSpace(a.Val))
				case "content":
					content, hasContent = strings.TrimSpace(a.Val), true
				}
			}
			if name != "" && hasContent {
				out[name] = append(out[name], content)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}
