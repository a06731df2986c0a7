package extract

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// parseAsWritten is parseDocument without stripUnread: the tree of the
// page as written.
func parseAsWritten(data []byte) (*html.Node, error) {
	doc, err := html.Parse(bytes.NewReader(data))
	if err == nil {
		return doc, nil
	}
	doc, err2 := html.Parse(strings.NewReader(flattenDeepTags(string(data), 256)))
	if err2 != nil {
		return nil, err
	}
	return doc, nil
}

// samePage reports a body whose Page, as HTML reads it, differs from the
// Page read from the tree of the body as written.
func samePage(t *testing.T, what string, body []byte, contentType string, base *url.URL) {
	t.Helper()
	got, err1 := HTML(body, contentType, base)
	dec := decodeBody(body, contentType, true)
	doc, err2 := parseAsWritten(dec.data)
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("%s: read: %v; as written: %v", what, err1, err2)
	}
	if err1 != nil {
		return
	}
	if want := readPage(doc, dec, base); !reflect.DeepEqual(got, want) {
		if len(body) > 2000 {
			body = append(body[:2000:2000], "…"...)
		}
		t.Errorf("%s: the page read changed\nbody %q\ngot  %+v\nwant %+v", what, body, got, want)
	}
}

// TestStripUnreadKeepsThePage holds what HTML returns (text, blocks,
// links, footer, alternates, meta tags, app shell) to what the same code
// reads from the page as written, on every real page and on random
// markup: what stripUnread takes out is read by nothing.
func TestStripUnreadKeepsThePage(t *testing.T) {
	base, _ := url.Parse("https://kommune.test/a/b")
	for _, f := range realwebHTMLFiles(t) {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, ct := range goldenContentTypes {
			samePage(t, f+" as "+ct, body, ct, base)
		}
	}
	rng := rand.New(rand.NewSource(12))
	for k := range 100000 {
		samePage(t, "random", randomMarkup(rng, k), "text/html", base)
		if t.Failed() {
			break
		}
	}
}

// TestKeptAttrsCoverTheCode finds every attribute key extract's code asks
// a node for (attr, attrOK, anyAttr and firstAttr with a constant key, and
// the cases of a switch on an attribute's Key) and fails when keptAttr
// would let stripUnread take it out.
func TestKeptAttrsCoverTheCode(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	keys := map[string]string{} // key: where it is read
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		note := func(e ast.Expr) {
			if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if k, err := strconv.Unquote(lit.Value); err == nil {
					keys[k] = fset.Position(lit.Pos()).String()
				}
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && len(n.Args) == 2 {
					switch id.Name {
					case "attr", "attrOK", "anyAttr", "firstAttr":
						note(n.Args[1])
					}
				}
			case *ast.SwitchStmt:
				if sel, ok := n.Tag.(*ast.SelectorExpr); ok && sel.Sel.Name == "Key" {
					for _, s := range n.Body.List {
						for _, e := range s.(*ast.CaseClause).List {
							note(e)
						}
					}
				}
			}
			return true
		})
	}
	for _, must := range []string{"href", "class", "id", "style", "hidden", "content"} {
		if keys[must] == "" {
			t.Errorf("the code's reading of %q was not found: the test no longer sees what the code reads", must)
		}
	}
	for k, at := range keys {
		if !keptAttr([]byte(k)) {
			t.Errorf("%s reads attribute %q, which stripUnread takes out: add it to keptAttr", at, k)
		}
	}
	t.Logf("%d attribute keys read by the code", len(keys))
}

// TestUnreadValueIsUnread holds unreadValue to the code that reads class
// and style: a value it calls unread is one classNamesFooter or styleHides
// reads as nothing, on every text and attribute value of the real pages and
// on random strings.
func TestUnreadValueIsUnread(t *testing.T) {
	texts, _ := equivInputs(t)
	texts = append(texts, "footer", "a FOOT b", "x-ftr", "Colophon", "navFooter", "display:none", "DISPLAY: none",
		"visibility:hidden", "color:red", "&#102;oot", "foo\x00t", "fo\rot", "ſite-foot")
	// Class-like ASCII values, so that the test tries many values it should
	// call unread even where ../shared/realweb (the real pages) is absent
	// and equivInputs gives mostly non-ASCII random strings.
	rng := rand.New(rand.NewSource(11))
	const classChars = "abcdefghijklmnopqrstuvwxyzFOT-_ :;0"
	for range 5000 {
		b := make([]byte, 1+rng.Intn(16))
		for i := range b {
			b[i] = classChars[rng.Intn(len(classChars))]
		}
		texts = append(texts, string(b))
	}
	unread := 0
	for _, s := range texts {
		if unreadValue([]byte("class"), []byte(s)) {
			unread++
			if classNamesFooter(s) {
				t.Errorf("class %q: unreadValue says unread, classNamesFooter reads a footer", s)
			}
		}
		if unreadValue([]byte("STYLE"), []byte(s)) && styleHides(s) {
			t.Errorf("style %q: unreadValue says unread, styleHides reads it hiding", s)
		}
		if unreadValue([]byte("id"), []byte(s)) {
			t.Errorf("id %q: unreadValue judges only class and style", s)
		}
	}
	if unread < len(texts)/4 {
		t.Errorf("only %d of %d values are unread classes: the test tries too few", unread, len(texts))
	}
}
