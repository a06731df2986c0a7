package extract

import (
	"strings"

	"github.com/PuerkitoBio/goquery"
)

// MetaTags returns the <meta name=… content=…> values of an HTML page, by
// lower-cased name, in document order: robots (noai, noimageai …),
// tdm-reservation, tdm-policy and the like are signals, not visible text.
func MetaTags(body []byte, contentType string) map[string][]string {
	doc, err := parseDocument(decodeBody(body, contentType, true).data)
	if err != nil {
		return nil
	}
	out := map[string][]string{}
	goquery.NewDocumentFromNode(doc).Find("meta[name][content]").Each(func(_ int, m *goquery.Selection) {
		name := strings.ToLower(strings.TrimSpace(m.AttrOr("name", "")))
		if name != "" {
			out[name] = append(out[name], strings.TrimSpace(m.AttrOr("content", "")))
		}
	})
	return out
}
