package extract

import (
	"bytes"
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// withoutUnread renders a document's tree without what stripUnread may
// take out: the text of its HTML <style> and <script> elements and of its
// comments, the
// content of inline SVG images holding only SVG (no HTML, no <link> or
// <meta>, which readers look for anywhere) and their attributes, the
// attributes keptAttr and unreadValue say nothing reads, of the elements
// dropsAttrs allows, and all those of <script>, <style> and a <link>
// without hreflang.
func withoutUnread(t *testing.T, doc *html.Node) string {
	t.Helper()
	var drop []*html.Node
	for n := range doc.Descendants() {
		if n.Type == html.CommentNode {
			n.Data = ""
		}
		if n.Type == html.TextNode && n.Parent != nil && n.Parent.Type == html.ElementNode && n.Parent.Namespace == "" &&
			(n.Parent.DataAtom == atom.Style || n.Parent.DataAtom == atom.Script) {
			drop = append(drop, n)
		}
		if n.Type == html.ElementNode && n.Namespace == "svg" && n.Data == "svg" && n.Parent != nil && n.Parent.Namespace == "" && onlySVG(n) {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				drop = append(drop, c)
			}
		}
		if n.Type == html.ElementNode && n.Namespace == "" && dropsAttrs([]byte(n.Data)) {
			kept := n.Attr[:0:0]
			for _, a := range n.Attr {
				if keptAttr([]byte(a.Key)) && !unreadValue([]byte(a.Key), []byte(a.Val)) {
					kept = append(kept, a)
				}
			}
			n.Attr = kept
			_, alternate := anyAttr(n, "hreflang")
			if n.Data == "script" || n.Data == "style" || n.Data == "link" && !alternate {
				n.Attr = nil
			}
		}
		if n.Type == html.ElementNode && n.Namespace == "svg" && n.Data == "svg" && n.Parent != nil && n.Parent.Namespace == "" {
			n.Attr = nil
		}
	}
	for _, n := range drop {
		n.Parent.RemoveChild(n)
	}
	var b strings.Builder
	dumpTree(&b, doc, 0)
	return b.String()
}

// dumpTree writes a tree one node a line, indented by depth. (html.Render
// refuses some trees the parser builds, such as a foreign <link> with
// children.)
func dumpTree(b *strings.Builder, n *html.Node, depth int) {
	fmt.Fprintf(b, "%s%d %s %q", strings.Repeat(" ", depth), n.Type, n.Namespace, n.Data)
	for _, a := range n.Attr {
		fmt.Fprintf(b, " %s:%q=%q", a.Namespace, a.Key, a.Val)
	}
	b.WriteByte('\n')
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		dumpTree(b, c, depth+1)
	}
}

// onlySVG reports an SVG element whose content holds no HTML element and
// no element named link or meta.
func onlySVG(n *html.Node) bool {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && (d.Namespace == "" || d.Data == "link" || d.Data == "meta") {
			return false
		}
	}
	return true
}

// sameTree reports a document whose tree, parsed after stripUnread, is
// not the tree of the document as written, but for what withoutUnread
// leaves out.
func sameTree(t *testing.T, what string, data []byte) (stripped bool) {
	t.Helper()
	cut := bytes.Join(stripUnread(data), nil)
	want, err1 := html.Parse(bytes.NewReader(data))
	pieces := pieceReader(stripUnread(data))
	got, err2 := html.Parse(&pieces) // as parseDocument reads them
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("%s: parsing as written: %v; stripped: %v", what, err1, err2)
	}
	if err1 != nil {
		return false
	}
	if w, g := withoutUnread(t, want), withoutUnread(t, got); w != g {
		t.Errorf("%s: the tree changed\nwritten  %q\nstripped %q\ntrees\n%s\n%s", what, data, cut, w, g)
	}
	return len(cut) < len(data)
}

func TestStripUnreadKeepsTheTree(t *testing.T) {
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
			after += len(bytes.Join(stripUnread(data), nil))
		}
	}
	if before > 0 {
		t.Logf("real pages: %d bytes, %d after stripUnread (%.0f%%)", before, after, 100*float64(after)/float64(before))
	}
	rng := rand.New(rand.NewSource(11))
	n, stripped := 0, 0
	for k := range 200000 {
		n++
		if sameTree(t, "random", randomMarkup(rng, k)) {
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

// markupPieces are what randomMarkup writes documents with: the tokenizer's
// edges (tags with quoted and bare values, comments ended every way,
// declarations, raw text elements, foreign content, script escapes) and
// attributes kept, unread and in between, in tags that keep them and tags
// that do not.
var markupPieces = []string{"<style>", "</style>", "<STYLE a='>'>", "</style ", "</stylex>", "<style/>", "<script>", "</script>",
	"<script ", "<SCRIPT/", "</script/", "<scriptx", "</scri", "--", "<!-",
	"<script type=\"x\">", "</SCRIPT>", "<!--", "-->", "--!>", "<!-->", "<!--->", "-", "!", "<!", "<?", "<!DOCTYPE html>", "<!x>",
	"</", "</>", "</ a>", "<", ">", "'", "\"", "=", " ", "\n", "/", "a", "x=", "<p>", "</p>", "<div class=\"a>b\">", "<b>",
	"<title>", "</title>", "<textarea>", "</textarea>", "<noscript>", "</noscript>", "<iframe>", "</iframe>", "<xmp>",
	"</xmp>", "<svg>", "</svg>", "<math>", "<table>", "<td>", "<select>", "<option>", "<template>", "</template>",
	"<frameset>", "<plaintext>", "<![CDATA[", "]]>", "<head>", "<body>", "</body>", "<html>", "</html>", "text", "\x00",
	"<a href=x>", "<a b=c/>", "<=x>", "<p =a>", "<p a = 'b' c=\"d\" e>",
	"<svg viewBox='0 0 1 1'>", "<svg/>", "<path d='M0'/>", "<path d=a/>", "<path a/>", "<g>", "</g>", "<circle r=1 />",
	"<foreignObject>", "</foreignObject>", "<desc>", "</desc>", "<span>", "</span>", "<font color=red>", "<font>",
	"<clipPath>", "</clippath>", "<use/>", "</path>", "<svg>", "</svg>", "<svg>", "</svg>", "<link rel=alternate hreflang=x href=/l>",
	"<div", "<a", "<b", "<B", "<i", "<input", "<body", "<html", "<tr", "<img", "<slot", "<meta", "<A", "<DIV", "<image",
	" data-x=1", " data-x", " DATA-X='2'", " class=x", " class=footer", " CLASS='a foot'", " class=\"&#102;oot\"", " style='color:red'",
	" style=display:none", " hidden", " id=root", " =e", " type=hidden", " href=/h", " rel=alternate", " hreflang=en", " title=t",
	" alt=a", " name=n", " content=c", " onclick=\"f()\"", " src=x.png", "/", " /", "/>", " data-x=a/", " x=\x00", " d\x00=1",
	"<div c data-x=\"\" =d>", "<a data-x=1 href=/y>", "<a data-x=2 href=/y>", "<b data-x=1>", "<b data-x=2>",
	"<input type=hidden data-x>", "<body data-x class=foot>", "<html lang=en data-x>", "<div class=a class=footer>",
}

// commonPieces are the pieces half of randomMarkup's documents lean on:
// those that open and close raw text, script escapes and SVG, and unread
// attributes, so that many have something to take out before anything
// stops the cut.
var commonPieces = []string{"<style>", "</style>", "<script>", "</script>", "a", " ", "<p>", "'", "\"", "=", ">", "<", "-", "</",
	"<svg>", "</svg>", "<path d='x'/>", "<g>", "</g>", "<title>", "</title>", "<div", " data-x=1", " class=y", ">", "<!--", "-->"}

// randomMarkup is the k-th random document of the tests of stripUnread.
func randomMarkup(rng *rand.Rand, k int) []byte {
	var b strings.Builder
	for range 1 + rng.Intn(14) {
		if k%2 == 0 && rng.Intn(4) > 0 {
			b.WriteString(commonPieces[rng.Intn(len(commonPieces))])
		} else {
			b.WriteString(markupPieces[rng.Intn(len(markupPieces))])
		}
	}
	return []byte(b.String())
}

func TestStripUnread(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"<p>x</p>", "<p>x</p>"},
		{"<style>a{}</style><p>x", "<style></style><p>x"},
		{"<SCRIPT type='a>b'>var x = '</p>';</script ><p>", "<SCRIPT ></script ><p>"},
		{"<!-- <style> --><style>a</style>", "<!----><style></style>"},
		{"<div title=\"<style>\">x</div>", "<div title=\"<style>\">x</div>"},
		{"<title><style>x</title><style>y</style>", "<title><style>x</title><style></style>"},
		{"<script><!-- x </script><p>", "<script></script><p>"},                                                       // an escape
		{"<script><!--<script>x</script>y</script><p>", "<script></script><p>"},                                       // a double escape hides the first end tag
		{"<script><!--<script>x</script>y--></script><p>", "<script></script><p>"},                                    // "-->" ends the escape
		{"<script><!--<script>x-->y</script></script><p>", "<script></script></script><p>"},                           // "-->" ends the double escape too
		{"<script><!--<script>x</script>y</script", "<script><!--<script>x</script>y</script"},                        // the document ends first
		{"<style>a</style><svg><style>b</style></svg><style>c</style>", "<style></style><svg>b</svg><style></style>"}, // SVG content goes, but for a character of its text
		{"<svg><p><style>b</style></svg><style>c</style>", "<svg><p><style>b</style></svg><style>c</style>"},          // <p> ends SVG content: stop
		{"<style>never closed", "<style>never closed"},
		{"<!-- a --!><style>x</style>", "<!-- a --!><style></style>"}, // a comment ended by "--!>": kept
		{"<!--x--->", "<!---->"},
		{"<!-->", "<!-->"},
		{"<p id=b/><style>x</style>", "<p id=b/><style></style>"},
		// attributes
		{"<p a=b/><style>x</style>", "<p ><style></style>"},
		{"<div data-x=\"1\" class=\"nav\" id=f>", "<div id=f>"},
		{"<div class=\"site-footer\" style=\"color:red\">", "<div class=\"site-footer\" >"},
		{"<div style=\"display:none\" onclick=f()>", "<div style=\"display:none\" >"},
		{"<div class=a CLASS=b>", "<div class=a CLASS=b>"}, // written twice: kept
		{"<div class=\"&#102;oot\">", "<div class=\"&#102;oot\">"},
		{"<a href=/x data-track=1 target=_blank>", "<a href=/x >"},
		{"<b class=x data-y=1>", "<b class=x data-y=1>"}, // compared by the tree builder
		{"<body class=x data-y=1>", "<body class=x data-y=1>"},
		{"<svg viewBox=\"0 0 1 1\"><path d=\"M0\"/></svg>", "<svg ></svg>"},
		{"<div hidden data-x=\"\" =d>", "<div hidden >"},
		{"<link rel=stylesheet href=/a.css><link rel=alternate hreflang=en href=/en data-x>", "<link ><link rel=alternate hreflang=en href=/en >"},
		{"<script type=module src=/a.js id=x>a</script>", "<script ></script>"},
		{"<svg width=1 viewBox=\"0 0 1 1\"><path d=\"M0\"/></svg>", "<svg ></svg>"},
		{"<svg /a><path d=\"M0\"/></svg>", "<svg /a></svg>"}, // "<svg />" would close itself
		{"<svg /a><title>T</title></svg>", "<svg /a>T</svg>"},
		{"<svg><title>Logo</title><path d=\"M0\"/></svg>", "<svg>L</svg>"},
		{"<svg><text>&amp;</text></svg>", "<svg><text>&amp;</text></svg>"}, // text that may be white space: kept
		{"<svg> <g>\n</g></svg>", "<svg></svg>"},
	} {
		if got := string(bytes.Join(stripUnread([]byte(c.in)), nil)); got != c.want {
			t.Errorf("stripUnread(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzStripUnread holds stripUnread to the parser, and HTML to the page
// as written, on any input.
func FuzzStripUnread(f *testing.F) {
	for _, s := range []string{"<style>a</style>", "<script>x</script><p>", "<!-- --!><style>-->", "<p a='<style>'>",
		"<title><script></title><script>y</script>", "<svg><style>b</style></svg><style>c</style>",
		"<div data-x=1 class=footer style=x>", "<a href=/ data-y>", "<div c data-x=\"\" =d>",
		"<script><!--<script>x</script>y--></script><p>", "<script><!-- <SCRIPT/></script ->--></script>"} {
		f.Add([]byte(s))
	}
	base, _ := url.Parse("https://kommune.test/a/b")
	f.Fuzz(func(t *testing.T, data []byte) {
		sameTree(t, "fuzz", data)
		samePage(t, "fuzz", data, "text/html", base)
	})
}
