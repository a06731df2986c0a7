package sitecheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const good = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>T</title><link rel="stylesheet" href="../style.css"></head>
<body><a class="skip" href="#main">Skip</a><header><nav><a href="../">Home</a> <a href="./">Here</a> <a href="../b/#x">B</a></nav></header>
<main id="main"><h1>T</h1><table><caption>C</caption><tr><th>H</th></tr></table><a href="https://example.org/">out</a> <a href="mailto:a@b">mail</a></main>
<footer><p>f</p></footer></body></html>`

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestGoodSitePasses(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"index.html":   strings.ReplaceAll(strings.ReplaceAll(good, `href="../`, `href="./`), `href="./b/#x"`, `href="b/#x"`),
		"a/index.html": good,
		"b/index.html": strings.Replace(good, `<h1>T</h1>`, `<h1 id="x">T</h1>`, 1),
		"style.css":    "",
	})
	problems, err := Check(dir, "/")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestProblemsAreFound: each kind of fault is reported.
func TestProblemsAreFound(t *testing.T) {
	cases := map[string]struct{ page, want string }{
		"dead link":                {strings.Replace(good, `href="../b/#x"`, `href="../missing/"`, 1), "missing/index.html does not exist"},
		"dead anchor":              {good, `has no id "x"`},
		"leaves the site":          {strings.Replace(good, `href="../"`, `href="../../../"`, 1), "leaves the site"},
		"two h1":                   {strings.Replace(good, `<h1>T</h1>`, `<h1>T</h1><h1>U</h1>`, 1), "2 <h1> elements"},
		"no main":                  {strings.NewReplacer(`<main id="main">`, `<div id="main">`, `</main>`, `</div>`).Replace(good), "0 <main> elements"},
		"no skip target":           {strings.Replace(good, `<main id="main">`, `<main>`, 1), "skip link target #main does not exist"},
		"unclosed":                 {strings.Replace(good, `<p>f</p>`, `<p>f`, 1), "</footer> closes <p>"},
		"misnested":                {strings.Replace(good, `<p>f</p>`, `<p><b>f</p></b>`, 1), "</p> closes <b>"},
		"script":                   {strings.Replace(good, `<p>f</p>`, `<script>x()</script>`, 1), "<script> element"},
		"remote script":            {strings.Replace(good, `<p>f</p>`, `<script src="https://cdn.example/filter.js"></script>`, 1), "<script> element other than"},
		"handler":                  {strings.Replace(good, `<p>f</p>`, `<p onclick="x()">f</p>`, 1), "event handler attribute onclick"},
		"javascript link":          {strings.Replace(good, `href="mailto:a@b"`, `href="javascript:alert(1)"`, 1), `scheme "javascript" is not allowed`},
		"external asset":           {strings.Replace(good, `href="../style.css"`, `href="https://cdn.example/s.css"`, 1), "fetch from elsewhere"},
		"table no caption":         {strings.Replace(good, `<caption>C</caption>`, ``, 1), "a table without a caption"},
		"figcaption in the middle": {strings.Replace(good, `<p>f</p>`, `<figure><svg></svg><figcaption>c</figcaption><p>d</p></figure>`, 1), "<figcaption> is neither the first nor the last child"},
		"landmarks alike":          {strings.Replace(good, `<p>f</p>`, `<div role="region" aria-labelledby="g1"><p id="g1">Groups</p></div><div role="region" aria-labelledby="g2"><p id="g2">Groups </p></div>`, 1), `two landmarks named "region: Groups"`},
		"no lang":                  {strings.Replace(good, ` lang="en"`, ``, 1), "<html> has no lang"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"a/index.html": c.page, "b/index.html": good, "index.html": good, "style.css": ""})
			problems, err := Check(dir, "/")
			if err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(problems, "\n")
			if !strings.Contains(joined, "a/index.html: ") || !strings.Contains(joined, c.want) {
				t.Errorf("want a problem in a/index.html with %q; got:\n%s", c.want, joined)
			}
		})
	}
}

// TestBaseURL: with the whole address the site is published at, the feeds,
// the sitemap, robots.txt and canonical links must point under it, at files
// that exist.
func TestBaseURL(t *testing.T) {
	const base = "https://example.org/sub/"
	page := strings.Replace(good, `<title>T</title>`, `<title>T</title><link rel="canonical" href="https://example.org/sub/a/">`, 1)
	files := func() map[string]string {
		return map[string]string{
			"a/index.html": page, "b/index.html": strings.Replace(good, `<h1>T</h1>`, `<h1 id="x">T</h1>`, 1), "index.html": strings.ReplaceAll(strings.ReplaceAll(good, `href="../`, `href="./`), `href="./b/#x"`, `href="b/#x"`), "style.css": "",
			"feed.xml":    `<feed xmlns="http://www.w3.org/2005/Atom"><link rel="self" href="https://example.org/sub/feed.xml"/><entry><link href="https://example.org/sub/b/"/></entry></feed>`,
			"sitemap.xml": `<urlset><url><loc>https://example.org/sub/a/</loc></url></urlset>`,
			"robots.txt":  "User-agent: *\nAllow: /\n\nSitemap: https://example.org/sub/sitemap.xml\n",
		}
	}
	dir := t.TempDir()
	write(t, dir, files())
	if problems, err := Check(dir, base); err != nil || len(problems) != 0 {
		t.Fatalf("a sound site: %v %v", problems, err)
	}
	cases := map[string]struct{ file, body, want string }{
		"feed outside":     {"feed.xml", `<feed><link href="https://example.org/other/"/></feed>`, "not under the base URL"},
		"sitemap dead":     {"sitemap.xml", `<urlset><url><loc>https://example.org/sub/missing/</loc></url></urlset>`, "missing/index.html does not exist"},
		"robots root":      {"robots.txt", "Sitemap: https://example.org/sitemap.xml\n", "not under the base URL"},
		"canonical astray": {"a/index.html", strings.Replace(page, "https://example.org/sub/a/", "https://example.org/a/", 1), "not under the base URL"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			fs := files()
			fs[c.file] = c.body
			write(t, dir, fs)
			problems, err := Check(dir, base)
			if err != nil {
				t.Fatal(err)
			}
			if joined := strings.Join(problems, "\n"); !strings.Contains(joined, c.file+": ") || !strings.Contains(joined, c.want) {
				t.Errorf("want a problem in %s with %q; got:\n%s", c.file, c.want, joined)
			}
		})
	}
}
