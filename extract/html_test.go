package extract

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func parse(t testing.TB, src string) *Page {
	t.Helper()
	p, err := HTML([]byte(src), "text/html; charset=utf-8", mustURL(t, "https://kommune.test/om/side"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestVisibleText(t *testing.T) {
	cases := []struct{ name, html, want string }{
		{"inline elements join", `<p><b>Vil</b>kår og <i>be</i><span>tingelser</span></p>`, "Vilkår og betingelser"},
		{"blocks separate", `<div>one</div><div>two</div><p>three</p><h2>four</h2>`, "one two three four"},
		{"br separates", `line<br>break<br/>here`, "line break here"},
		{"list items separate", `<ul><li>a</li><li>b</li></ul><ol><li>c</li></ol>`, "a b c"},
		{"table cells separate", `<table><tr><td>x</td><td>y</td></tr><tr><th>z</th></tr></table>`, "x y z"},
		{"entities decoded", `<p>Tom &amp; Jerry&nbsp;&mdash; &lt;tag&gt; &#229; &aring;</p>`, "Tom & Jerry — <tag> å å"},
		{"no-break spaces fold", "<p>a\u00a0\u00a0b&nbsp; c</p>", "a b c"},
		{"head is not text", `<html><head><title>T</title><meta name="description" content="meta words"></head><body>body</body></html>`, "body"},
		{"script style template noscript", `<p>a</p><script>var x = "no";</script><style>p{}</style><template><p>tpl</p></template><noscript>enable it</noscript><p>b</p>`, "a b"},
		{"svg iframe canvas", `<p>a<svg><text>svg text</text></svg>b</p><iframe>frame</iframe><canvas>fallback</canvas>`, "ab"},
		{"comments", `<p>a<!-- hidden comment -->b</p>`, "ab"},
		{"attributes are not text", `<p title="tooltip" data-x="data">visible</p><img alt="picture">`, "visible"},
		{"hidden attribute", `<p>shown</p><p hidden>not shown</p><div hidden="hidden">nor this</div>`, "shown"},
		{"hidden until-found stays", `<div hidden="until-found">accordion text</div>`, "accordion text"},
		{"aria-hidden", `<p>shown <span aria-hidden="true">icon</span>text</p><p aria-hidden="false">kept</p>`, "shown text kept"},
		{"inline display none", `<p>a<span style="display: none">x</span>b</p><div style="color:red;DISPLAY:NONE !important">y</div>`, "ab"},
		{"a hidden block does not split a word", `<div>Vil<span hidden><div>x</div></span>kår</div>`, "Vilkår"},
		{"inline visibility hidden", `<p>a<span style="visibility:hidden">x</span>b</p>`, "ab"},
		{"display other than none", `<p style="display:block">kept</p>`, "kept"},
		{"closed dialog hidden, open shown", `<dialog>closed</dialog><dialog open>open</dialog>`, "open"},
		{"white space folds", "<p>  a \n\t b  </p>\n\n<p>c</p>", "a b c"},
		{"pre folds too", "<pre>a\n   b</pre>", "a b"},
		{"custom elements are inline", `<my-el>con</my-el><x-y>cat</x-y>`, "concat"},
		{"wbr does not split", `Personvern<wbr>erklæring`, "Personvernerklæring"},
		{"NFC", "<p>vilka\u030ar</p>", "vilkår"},
		{"MathML text kept", `<p>x <math><mi>y</mi></math> z</p>`, "x y z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := parse(t, c.html)
			if p.Text != c.want {
				t.Errorf("Text = %q, want %q", p.Text, c.want)
			}
			if j := Normalize(joinBlocks(p.Blocks)); j != p.Text {
				t.Errorf("Blocks %+v do not join to Text %q", p.Blocks, p.Text)
			}
		})
	}
}

func TestBlocks(t *testing.T) {
	p := parse(t, `<h1>Vilkår</h1><p>Data kan brukes <b>fritt</b>.</p><p>Line<br>two</p>`)
	want := []Block{
		{Text: "Vilkår", Box: BoxHeading, Letters: 6},
		{Text: "Data kan brukes fritt.", Box: BoxText, Letters: 18},
		{Text: "Line", Box: BoxText, Letters: 4},
		{Text: "two", Box: BoxText, Letters: 3},
	}
	if !reflect.DeepEqual(p.Blocks, want) {
		t.Errorf("Blocks = %+v, want %+v", p.Blocks, want)
	}
}

func TestLinks(t *testing.T) {
	src := `<html><head><base href="/base/"></head><body>
	<a href="vilkar">Vilkår</a>
	<a href="/personvern#cookies">Personvern</a>
	<a href="  https://other.test/x  ">  spaced   text </a>
	<a href="mailto:post@kommune.test">e-mail</a>
	<a href="tel:+4712345678">phone</a>
	<a href="javascript:void(0)">js</a>
	<a href="#top">top</a>
	<a href="ftp://files.test/a">ftp</a>
	<a>no href</a>
	<a href="//cdn.test/p">protocol relative</a>
	<a href="/a" aria-label="Label"><img src="i.png"></a>
	<a href="/b" title="Title"></a>
	<a href="/c"><img src="i.png" alt="Alt text"></a>
	<a href="/d"><span>Bru</span>ker<b>vilkår</b><span hidden>gone</span></a>
	<div style="display:none"><a href="/menu">Menu item</a><a href="/menu2"><div>Per</div><div>sonvern</div></a></div>
	<map><area href="/area" alt="Area"></map>
	<svg><a href="/in-svg"><text>svg</text></a></svg>
	<template><a href="/in-template">t</a></template>
	<a href="HTTPS://Kommune.test/Upper">case</a>
	</body></html>`
	p := parse(t, src)
	want := []Link{
		{URL: "https://kommune.test/base/vilkar", Text: "Vilkår"},
		{URL: "https://kommune.test/personvern", Text: "Personvern", Fragment: "cookies"},
		{URL: "https://other.test/x", Text: "spaced text"},
		{URL: "https://cdn.test/p", Text: "protocol relative"},
		{URL: "https://kommune.test/a", Text: "Label"},
		{URL: "https://kommune.test/b", Text: "Title"},
		{URL: "https://kommune.test/c", Text: "Alt text"},
		{URL: "https://kommune.test/d", Text: "Brukervilkår"},
		{URL: "https://kommune.test/menu", Text: "Menu item", Hidden: true},
		{URL: "https://kommune.test/menu2", Text: "Per sonvern", Hidden: true},
		{URL: "https://kommune.test/area", Text: ""},
		{URL: "https://Kommune.test/Upper", Text: "case"},
	}
	if !reflect.DeepEqual(p.Links, want) {
		t.Errorf("Links:\n got %+v\nwant %+v", p.Links, want)
	}
}

func TestLinksWithoutPageURL(t *testing.T) {
	p, err := HTML([]byte(`<a href="/rel">r</a><a href="https://abs.test/x">a</a>`), "text/html", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Links) != 1 || p.Links[0].URL != "https://abs.test/x" {
		t.Errorf("Links = %+v, want only the absolute one", p.Links)
	}
}

func TestBaseHrefAbsoluteAndFirstWins(t *testing.T) {
	p := parse(t, `<head><base href="https://cdn.test/docs/"><base href="https://ignored.test/"></head><a href="terms">T</a>`)
	if len(p.Links) != 1 || p.Links[0].URL != "https://cdn.test/docs/terms" {
		t.Errorf("Links = %+v", p.Links)
	}
}

func TestTitleLangAlternates(t *testing.T) {
	p := parse(t, `<html lang="nb"><head><title>  Vilkår
	for bruk </title>
	<link rel="alternate" hreflang="en" href="/en/terms">
	<link rel="alternate" hreflang="NB" href="https://kommune.test/vilkar#x">
	<link rel="alternate" hreflang="en" href="/en/terms">
	<link rel="alternate" hreflang="x-default" href="/vilkar">
	<link rel="alternate" type="application/rss+xml" href="/feed">
	<link rel="canonical" hreflang="de" href="/de">
	</head><body>x</body></html>`)
	if p.Title != "Vilkår for bruk" {
		t.Errorf("Title = %q", p.Title)
	}
	if p.Lang != "nb" {
		t.Errorf("Lang = %q", p.Lang)
	}
	want := []Alternate{
		{"en", "https://kommune.test/en/terms"},
		{"nb", "https://kommune.test/vilkar"},
		{"x-default", "https://kommune.test/vilkar"},
	}
	if !reflect.DeepEqual(p.Alternates, want) {
		t.Errorf("Alternates = %+v, want %+v", p.Alternates, want)
	}
}

func TestAppShell(t *testing.T) {
	cases := []struct {
		name, html string
		want       bool
	}{
		{"empty React root", `<html><head><script src="/app.js"></script></head><body><div id="root"></div></body></html>`, true},
		{"empty Next root", `<body><div id="__next"></div><script>self.__next_f=[]</script></body>`, true},
		{"noscript message", `<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="main"></div></body>`, true},
		{"Norwegian noscript message", `<body><noscript><p>Du må slå på JavaScript for å bruke denne siden.</p></noscript></body>`, true},
		{"tracking-pixel noscript is not a message", `<body><noscript><img src="https://px.test/t?noscript=1"></noscript><p>Hi</p></body>`, false},
		{"server-rendered root with text", `<body><div id="root"><h1>Vilkår</h1><p>` + strings.Repeat("Dette er vilkårene for bruk av tjenesten. ", 10) + `</p></div></body>`, false},
		{"page with text and a noscript warning", `<body><noscript>Enable JavaScript for the map.</noscript><p>` + strings.Repeat("Plenty of server-rendered text here. ", 10) + `</p></body>`, false},
		{"short page without app root", `<body><p>Coming soon</p></body>`, false},
	}
	for _, c := range cases {
		if got := parse(t, c.html).AppShell; got != c.want {
			t.Errorf("%s: AppShell = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDeeplyNestedPageStillReads(t *testing.T) {
	// The HTML parser refuses more than 512 open elements; a page of
	// unclosed tags is read anyway, with all its text and links.
	src := "<html><body>" + strings.Repeat("<div><span>x</span>", 2000) +
		"<p>Vilkår for bruk</p><footer><a href=\"/vilkar\">Vilkår</a></footer>"
	p := parse(t, src)
	if !strings.HasSuffix(p.Text, "x x Vilkår for bruk Vilkår") {
		t.Errorf("text ends %q", p.Text[max(0, len(p.Text)-60):])
	}
	if strings.Count(p.Text, "x") != 2000 {
		t.Errorf("%d x, want 2000", strings.Count(p.Text, "x"))
	}
	if len(p.Links) != 1 || p.Links[0].URL != "https://kommune.test/vilkar" {
		t.Errorf("links %+v", p.Links)
	}
	if !p.FooterFound || p.FooterHow != FooterByElement {
		t.Errorf("footer found %v how %q", p.FooterFound, p.FooterHow)
	}
}

// TestLicenseLinks: <link rel="license"> elements are read with the href
// as written and resolved against the base; rel may hold other tokens, in
// any case; an <a rel="license"> is a link with text, not one of these.
func TestLicenseLinks(t *testing.T) {
	body := `<html><head><base href="https://e.test/data/">
<link rel="license" href="https://creativecommons.org/licenses/by/4.0/">
<link rel="alternate LICENSE" href="terms/licence.html">
<link rel="stylesheet" href="x.css">
</head><body><p>Text <a rel="license" href="https://opendatacommons.org/licenses/odbl/">ODbL</a></p></body></html>`
	base, _ := url.Parse("https://e.test/")
	p, err := HTML([]byte(body), "text/html; charset=utf-8", base)
	if err != nil {
		t.Fatal(err)
	}
	want := []LicenseLink{
		{"https://creativecommons.org/licenses/by/4.0/", "https://creativecommons.org/licenses/by/4.0/"},
		{"terms/licence.html", "https://e.test/data/terms/licence.html"},
	}
	if len(p.LicenseLinks) != len(want) {
		t.Fatalf("license links %+v, want %+v", p.LicenseLinks, want)
	}
	for i := range want {
		if p.LicenseLinks[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, p.LicenseLinks[i], want[i])
		}
	}
}
