package extract

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

func TestMetaTags(t *testing.T) {
	body := []byte(`<!doctype html><html><head>
<meta name="ROBOTS" content=" noai, noimageai ">
<meta name="robots" content="noindex">
<meta name="tdm-reservation" content="1">
<meta name="description">
<meta property="og:title" content="Ikke et navn">
<meta charset="utf-8">
</head><body><p>Tekst</p><meta name="late" content="x"></body></html>`)
	got := MetaTags(body, "text/html")
	want := map[string][]string{
		"robots":          {"noai, noimageai", "noindex"},
		"tdm-reservation": {"1"},
		"late":            {"x"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MetaTags = %v, want %v", got, want)
	}
}

// metaTagsByQuery is how MetaTags read the tree before it walked it: a CSS
// query. Kept as the reference the walk must agree with.
func metaTagsByQuery(doc *html.Node) map[string][]string {
	out := map[string][]string{}
	goquery.NewDocumentFromNode(doc).Find("meta[name][content]").Each(func(_ int, m *goquery.Selection) {
		name := strings.ToLower(strings.TrimSpace(m.AttrOr("name", "")))
		if name != "" {
			out[name] = append(out[name], strings.TrimSpace(m.AttrOr("content", "")))
		}
	})
	return out
}

// Page.Meta, read from the parse HTML makes anyway, is what the query read,
// on edge cases and on every real page, and what MetaTags returns.
func TestMetaWalkAgreesWithQuery(t *testing.T) {
	bodies := map[string][]byte{
		"misplaced": []byte(`<html><body><svg><meta name="robots" content="noai"/></svg><template><meta name=tdm-reservation content=1></template>` +
			`<table><meta name=t content=in-table></table><noscript><meta name=n content=ns></noscript></body></html>`),
		"twice":     []byte(`<meta name="a" name="b" content="1" content="2"><meta NAME=" Robots " CONTENT=" x ">`),
		"empty":     []byte(`<meta name="" content="x"><meta name=" " content="y"><meta name="z" content=""><meta content="w">`),
		"namespace": []byte(`<svg><meta xlink:name="robots" content="noai"/></svg><math><meta name="m" content="1"/></math>`),
		"frameset":  []byte(`<frameset><meta name=f content=1></frameset>`),
	}
	for _, f := range realwebHTMLFiles(t) {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		bodies[filepath.Base(f)] = body
	}
	for name, body := range bodies {
		for _, ct := range []string{"text/html", "text/html; charset=koi8-r"} {
			doc, err := parseDocument(decodeBody(body, ct, true).data)
			if err != nil {
				t.Fatal(err)
			}
			want := metaTagsByQuery(doc)
			page, err := HTML(body, ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(page.Meta, want) {
				t.Errorf("%s (%s): Page.Meta = %v, the query read %v", name, ct, page.Meta, want)
			}
			if got := MetaTags(body, ct); !reflect.DeepEqual(got, want) {
				t.Errorf("%s (%s): MetaTags = %v, the query read %v", name, ct, got, want)
			}
		}
	}
}
