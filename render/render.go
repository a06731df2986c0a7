// Package render turns findings and content/ into the static website in
// public/: the directory, one page and one signals.json per site, the about
// page and sites.json. It is deterministic: the same inputs give
// byte-identical output, so a rebuild shows only what really changed.
package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"

	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/templates"
)

// Renderer holds the templates, parsed once, and the one goldmark instance.
type Renderer struct {
	pages map[string]*template.Template
	md    goldmark.Markdown
}

// New parses the embedded templates.
func New() (*Renderer, error) {
	r := &Renderer{pages: map[string]*template.Template{}, md: goldmark.New()}
	for _, name := range []string{"index.html", "site.html", "page.html", "about.html"} {
		t, err := template.New(name).Funcs(funcs).ParseFS(templates.FS, "layout.html", name)
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		r.pages[name] = t
	}
	return r, nil
}

var funcs = template.FuncMap{}

// Input is everything a build reads.
type Input struct {
	Sites   []*signals.Site
	Content fs.FS  // content/: about.md, sites/HOST.md; may be nil
	Contact string // address for re-check requests
}

// Build writes the website to out. It writes into a fresh folder beside out
// and swaps it in at the end, so a failed build leaves the old site whole.
func (r *Renderer) Build(out string, in Input) error {
	tmp := out + ".new"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	w := &writer{dir: tmp}
	if err := r.write(w, in); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	old := out + ".old"
	os.RemoveAll(old)
	if err := os.Rename(out, old); err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	return os.RemoveAll(old)
}

func (r *Renderer) write(w *writer, in Input) error {
	css, err := fs.ReadFile(templates.FS, "style.css")
	if err != nil {
		return err
	}
	w.file("style.css", css)
	w.file("robots.txt", []byte(ownRobots))
	w.json("sites.json", signals.NewIndex(in.Sites))
	w.page(r, "index.html", "index.html", directoryPage(in.Sites))
	for _, s := range in.Sites {
		notes, err := r.siteNotes(in.Content, s.Host)
		if err != nil {
			return err
		}
		w.page(r, "site.html", "sites/"+s.Host+"/index.html", sitePage(s, notes, in.Contact))
		w.json("sites/"+s.Host+"/signals.json", s)
	}
	about, err := r.aboutPage(in.Content)
	if err != nil {
		return err
	}
	w.page(r, "about.html", "about/index.html", about)
	w.page(r, "page.html", "404.html", page{Title: "Not found", Root: "/", Body: template.HTML("<p>There is no page at this address. The <a href=\"/\">directory</a> lists every site we read.</p>")})
	return w.err
}

// ownRobots is the robots.txt of our own website: everything may be read.
const ownRobots = "# crawlsignals publishes facts and quotes; read as you like.\nUser-agent: *\nAllow: /\n"

// writer writes files under dir, keeping the first error.
type writer struct {
	dir string
	err error
}

func (w *writer) file(rel string, data []byte) {
	if w.err != nil {
		return
	}
	p := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.err = err
		return
	}
	w.err = os.WriteFile(p, data, 0o644)
}

func (w *writer) json(rel string, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil && w.err == nil {
		w.err = fmt.Errorf("%s: %w", rel, err)
		return
	}
	w.file(rel, b.Bytes())
}

func (w *writer) page(r *Renderer, tmpl, rel string, data any) {
	var b bytes.Buffer
	if err := r.pages[tmpl].ExecuteTemplate(&b, "layout", data); err != nil && w.err == nil {
		w.err = fmt.Errorf("%s: %w", rel, err)
		return
	}
	w.file(rel, b.Bytes())
}

// rootFor is the relative path from a page to the site root, so the site
// works from any folder and from file:// as well as from its domain.
func rootFor(rel string) string {
	return strings.Repeat("../", strings.Count(rel, "/"))
}
