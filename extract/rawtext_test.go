package extract

import (
	"bytes"
	"math/rand"
	"os"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// withoutRawText renders a document's tree with the text of its HTML
// <style> and <script> elements left out: what stripRawText may change.
func withoutRawText(t *testing.T, doc *html.Node) string {
	t.Helper()
	var drop []*html.Node
	for n := range doc.Descendants() {
		if n.Type == html.TextNode && n.Parent != nil && n.Parent.Type == html.ElementNode && n.Parent.Namespace == "" &&
			(n.Parent.DataAtom == atom.Style || n.Parent.DataAtom == atom.Script) {
			drop = append(drop, n)
		}
	}
	for _, n := range drop {
		n.Parent.RemoveChild(n)
	}
	var b strings.Builder
	if err := html.Render(&b, doc); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// sameTree reports a document whose tree, parsed after stripRawText, is
// not the tree of the document as written, but for the text of styles and
// scripts.
func sameTree(t *testing.T, what string, data []byte) (stripped bool) {
	t.Helper()
	cut := bytes.Join(stripRawText(data), nil)
	want, err1 := html.Parse(bytes.NewReader(data))
	pieces := pieceReader(stripRawText(data))
	got, err2 := html.Parse(&pieces) // as parseDocument reads them
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("%s: parsing as written: %v; stripped: %v", what, err1, err2)
	}
	if err1 != nil {
		return false
	}
	if w, g := withoutRawText(t, want), withoutRawText(t, got); w != g {
		t.Errorf("%s: the tree changed\nwritten  %q\nstripped %q\ntrees\n%s\n%s", what, data, cut, w, g)
	}
	return len(cut) < len(data)
}

func TestStripRawTextKeepsTheTree(t *testing.T) {
	before, after := 0, 0
	for _, f := range realwebHTMLFiles(t) {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, ct := range goldenContentTypes {
			data := decodeBody(body, ct, true).data
			sameTree(t, f+" as "+ct, data)
			before += len(data)
			after += len(bytes.Join(stripRawText(data), nil))
		}
	}
	if before > 0 {
		t.Logf("real pages: %d bytes, %d after stripRawText (%.0f%%)", before, after, 100*float64(after)/float64(before))
	}
	// Random markup over the tokenizer's edges: tags with quoted and bare
	// values, comments ended every way, declarations, raw text elements,
	// foreign content, script escapes, documents cut anywhere.
	pieces := []string{"<style>", "</style>", "<STYLE a='>'>", "</style ", "</stylex>", "<style/>", "<script>", "</script>",
		"<script type=\"x\">", "</SCRIPT>", "<!--", "-->", "--!>", "<!-->", "<!--->", "-", "!", "<!", "<?", "<!DOCTYPE html>", "<!x>",
		"</", "</>", "</ a>", "<", ">", "'", "\"", "=", " ", "\n", "/", "a", "x=", "<p>", "</p>", "<div class=\"a>b\">", "<b>",
		"<title>", "</title>", "<textarea>", "</textarea>", "<noscript>", "</noscript>", "<iframe>", "</iframe>", "<xmp>",
		"</xmp>", "<svg>", "</svg>", "<math>", "<table>", "<td>", "<select>", "<option>", "<template>", "</template>",
		"<frameset>", "<plaintext>", "<![CDATA[", "]]>", "<head>", "<body>", "</body>", "<html>", "</html>", "text", "\x00",
		"<a href=x>", "<a b=c/>", "<=x>", "<p =a>", "<p a = 'b' c=\"d\" e>",
		"<svg viewBox='0 0 1 1'>", "<svg/>", "<path d='M0'/>", "<path d=a/>", "<path a/>", "<g>", "</g>", "<circle r=1 />",
		"<foreignObject>", "</foreignObject>", "<desc>", "</desc>", "<span>", "</span>", "<font color=red>", "<font>",
		"<clipPath>", "</clippath>", "<use/>", "</path>", "<svg>", "</svg>", "<svg>", "</svg>",
	}
	// Half the documents lean on the pieces that open and close raw text,
	// so that many have text to take out before anything stops the cut.
	common := []string{"<style>", "</style>", "<script>", "</script>", "a", " ", "<p>", "'", "\"", "=", ">", "<", "-", "</",
		"<svg>", "</svg>", "<path d='x'/>", "<g>", "</g>", "<title>", "</title>"}
	rng := rand.New(rand.NewSource(11))
	n, stripped := 0, 0
	for k := range 200000 {
		var b strings.Builder
		for range 1 + rng.Intn(14) {
			if k%2 == 0 && rng.Intn(4) > 0 {
				b.WriteString(common[rng.Intn(len(common))])
			} else {
				b.WriteString(pieces[rng.Intn(len(pieces))])
			}
		}
		n++
		if sameTree(t, "random", []byte(b.String())) {
			stripped++
		}
		if t.Failed() {
			break
		}
	}
	if stripped < n/50 {
		t.Errorf("only %d of %d random documents had text taken out: the test tries too few", stripped, n)
	}
	t.Logf("%d random documents, %d with text taken out", n, stripped)
}

func TestStripRawText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"<p>x</p>", "<p>x</p>"},
		{"<style>a{}</style><p>x", "<style></style><p>x"},
		{"<SCRIPT type='a>b'>var x = '</p>';</script ><p>", "<SCRIPT type='a>b'></script ><p>"},
		{"<!-- <style> --><style>a</style>", "<!-- <style> --><style></style>"},
		{"<div title=\"<style>\">x</div>", "<div title=\"<style>\">x</div>"},
		{"<title><style>x</title><style>y</style>", "<title><style>x</title><style></style>"},
		{"<script><!-- x </script>", "<script><!-- x </script>"},                                                                     // an escape: left as written
		{"<style>a</style><svg><style>b</style></svg><style>c</style>", "<style></style><svg><style>b</style></svg><style></style>"}, // not inside SVG
		{"<svg><p><style>b</style></svg><style>c</style>", "<svg><p><style>b</style></svg><style>c</style>"},                         // <p> ends SVG content: stop
		{"<style>never closed", "<style>never closed"},
		{"<!-- a --!><style>x</style>", "<!-- a --!><style></style>"}, // a comment ended by "--!>"
		{"<!-->", "<!-->"},
		{"<p a=b/><style>x</style>", "<p a=b/><style></style>"},
	} {
		if got := string(bytes.Join(stripRawText([]byte(c.in)), nil)); got != c.want {
			t.Errorf("stripRawText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzStripRawText holds stripRawText to the parser on any input.
func FuzzStripRawText(f *testing.F) {
	for _, s := range []string{"<style>a</style>", "<script>x</script><p>", "<!-- --!><style>-->", "<p a='<style>'>",
		"<title><script></title><script>y</script>", "<svg><style>b</style></svg><style>c</style>"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameTree(t, "fuzz", data)
	})
}
