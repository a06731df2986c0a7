// Package render turns findings and content/ into the static website in
// public/: the directory and its category pages, one page, signals.json and
// Atom feed per site, the about, contact and site-owner pages, sites.json,
// sites.csv, the directory's feed, sitemap.xml, robots.txt and a 404 page.
//
// It is deterministic: the same inputs give byte-identical output, so a
// rebuild shows only what really changed. Pages are rendered in parallel,
// each to its own file, so the order in which workers finish changes
// nothing; nothing reads the clock.
package render

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/templates"
	"github.com/yuin/goldmark"
)

// Renderer holds the templates, parsed once, and the one goldmark instance.
type Renderer struct {
	pages map[string]*template.Template
	md    goldmark.Markdown
	mdMu  sync.Mutex // goldmark does not promise to be safe for concurrent use
	// beforeSwapStep, set by a test, is called before each step of the
	// swap that publishes a build (swapIn): a crash point.
	beforeSwapStep func(step string) error
	// noExchange, set by a test, makes the swap take two renames, as on
	// a system that cannot exchange two names in one step.
	noExchange bool
}

// pageTemplates are the page kinds; each is parsed with layout.html and
// parts.html.
var pageTemplates = []string{"index.html", "site.html", "page.html", "about.html", "contact.html", "owners.html",
	"crawlers.html", "crawler.html", "compare.html", "changes.html"}

// New parses the embedded templates.
func New() (*Renderer, error) {
	r := &Renderer{pages: map[string]*template.Template{}, md: goldmark.New()}
	for _, name := range pageTemplates {
		t, err := template.New(name).Funcs(funcs).ParseFS(templates.FS, "layout.html", "parts.html", name)
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		r.pages[name] = t
	}
	return r, nil
}

var funcs = template.FuncMap{
	"linkTo":      linkTo,
	"seconds":     seconds,
	"topicWords":  topicWords,
	"jsonFile":    jsonFile,
	"tdmSource":   tdmSource,
	"short":       shortURL,
	"when":        newDate,
	"batchDate":   batchDate,
	"aiWord":      signals.AIWord,
	"verdictCell": verdictCell,
	"refs":        func(root string, sites []siteRef) siteRefs { return siteRefs{Root: root, Sites: sites} },
	// unstop drops a sentence's full stop where the template goes on
	// after it ("…, which says: Yes: …, both quoted. The reason …")
	"unstop": func(s string) string { return strings.TrimSuffix(s, ".") },
}

// siteRefs is a list of sites to link, with the path to the site root.
type siteRefs struct {
	Root  string
	Sites []siteRef
}

// Input is everything a build reads.
type Input struct {
	Sites   []*signals.Site
	Content fs.FS  // content/: about.md, contact.md, site-owners.md, sites/HOST.md; may be nil
	Contact string // address for re-check requests; sites.DefaultContact when empty
	// BaseURL is where the site is published (DefaultBaseURL when empty).
	// Pages link to each other relatively; only sitemap.xml, the feeds,
	// robots.txt and the 404 page (served at any depth) use it.
	BaseURL string
	// Workers is how many site pages are rendered at once; GOMAXPROCS when 0.
	Workers int
}

// Build writes the website to out. It writes into a fresh folder beside out
// and swaps it in at the end, so a failed build leaves the old site whole.
//
// out is cleaned first ("public/" is "public", whose ".new" must be beside
// it, not inside it). When out is a symbolic link, the site is built where
// it points and swapped in there, so the link is kept and its target is
// what gets the new site.
//
// Once ctx is done no more site is written (it is checked between sites):
// the new folder is removed, out is left as it was, and ctx's error is
// returned.
func (r *Renderer) Build(ctx context.Context, out string, in Input) error {
	st, err := r.Stream(out, in, len(in.Sites))
	if err != nil {
		return err
	}
	// The sites are all in memory already: keeping them whole costs
	// nothing, and a test compares this with a stream that keeps a brief.
	st.whole = true
	// Each site's files are a job of their own, so site pages render on
	// every worker; the views across sites follow in Close.
	jobs := make([]func() error, len(in.Sites))
	for i, s := range in.Sites {
		jobs[i] = func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return st.Site(i, s)
		}
	}
	runJobs(in.Workers, jobs) // Close reports the first error in list order
	if err := ctx.Err(); err != nil {
		st.Abort()
		return err
	}
	return st.Close()
}

// views writes everything but the sites' own files: the directory and its
// views, the pages and files across sites, the content pages, the feeds
// and the sitemap, from kept (what Stream kept of each site: brief).
func (r *Renderer) views(w writer, in Input, kept []*signals.Site) error {
	base := w.base
	sorted := byName(kept)

	// Every file is a job of its own, run on the workers in any order:
	// the views across sites list every site, and written one after the
	// other they kept one core busy while the other waited. The first
	// error in job order is returned, so failures are reported the same
	// way whatever the parallelism.
	//
	// The pages of changes come first: together they list every change of
	// every site in the history, the longest work of a long history (44 ms
	// of 400 sites' 8 earlier batches, the directory 16), and started last
	// they kept the other worker waiting.
	changes, changesFiles := changesPages(sorted)
	var jobs []func() error
	for i := range changes {
		jobs = append(jobs, func() error { return r.page(w, "changes.html", changesFiles[i], &changes[i]) })
	}
	for _, name := range []string{"style.css", "favicon.svg", "filter.js"} {
		jobs = append(jobs, func() error {
			data, err := fs.ReadFile(templates.FS, name)
			if err != nil {
				return err
			}
			return w.file(name, data)
		})
	}
	jobs = append(jobs,
		func() error { return w.file("robots.txt", ownRobots(base)) },
		func() error {
			idx, sites := signals.IndexHead(kept)
			return w.compactJSONList("sites.json", idx, len(sites), func(i int) any { return signals.EntryOf(sites[i]) })
		},
		func() error {
			csv, err := directoryCSV(base, sorted)
			if err != nil {
				return err
			}
			return w.file("sites.csv", csv)
		})
	for _, sc := range []struct {
		name, title string
		v           any
	}{
		{"signals", "crawlsignals: one site's findings (sites/HOST/signals.json)", signals.Site{}},
		{"sites", "crawlsignals: every site in brief (sites.json)", signals.Index{}},
		{"agents", "crawlsignals: each crawler across sites (agents.json)", signals.AgentsIndex{}},
	} {
		rel := "schema/" + sc.name + ".schema.json"
		jobs = append(jobs, func() error { return w.json(rel, signals.Schema(sc.v, abs(base, rel), sc.title)) })
	}
	generated := signals.Generated(kept)
	agents := signals.NewAgentsTable(kept, generated)
	// Compact: it lists every site for every crawler and batch, so it grows
	// as sites × crawlers × batches, and indentation would double it.
	jobs = append(jobs, func() error {
		head := signals.AgentsIndex{Generated: agents.Generated, Agents: []signals.AgentIndex{}}
		return w.compactJSONList("agents.json", head, agents.Len(), func(k int) any { return agents.Agent(k) })
	})
	jobs = append(jobs, r.acrossSites(w, agents, sorted)...)
	all, cats := directoryPages(sorted)
	filters, views := viewPages(sorted, all)
	all.Filters = filters
	jobs = append(jobs, func() error { return r.page(w, "index.html", "index.html", &all) })
	dirs := append(cats, views...) // the directory's other pages: categories, then views
	for _, d := range dirs {
		d.Filters = withCurrent(filters, d.Filter)
		jobs = append(jobs, func() error { return r.page(w, "index.html", d.path()+"index.html", &d) })
	}
	jobs = append(jobs,
		func() error { return r.contentPages(w, in.Content, in.Contact, base) },
		func() error { return r.feedsAndSitemap(w, base, sorted, dirs) })
	return runJobs(in.Workers, jobs)
}

// runJobs runs jobs on workers goroutines (0: one per processor) and
// returns the first error in job order.
func runJobs(workers int, jobs []func() error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(len(jobs), 1))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				errs[i] = jobs[i]()
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// acrossSites returns the jobs that write the views across sites but the
// page of changes: the list of crawlers, one page per crawler, and the
// comparison table.
func (r *Renderer) acrossSites(w writer, agents *signals.AgentsTable, sorted []*signals.Site) []func() error {
	list, pageOf := crawlerList(agents, sorted)
	jobs := []func() error{func() error { return r.page(w, "crawlers.html", "crawlers/index.html", &list) }}
	for k := range agents.Len() {
		jobs = append(jobs, func() error {
			p := pageOf(k)
			return r.page(w, "crawler.html", "crawlers/"+crawlerSlug(p.Agent.Agent)+"/index.html", &p)
		})
	}
	return append(jobs, func() error {
		cmp := comparePage(sorted)
		return r.page(w, "compare.html", "compare/index.html", &cmp)
	})
}

func (r *Renderer) contentPages(w writer, content fs.FS, contact string, base *url.URL) error {
	about, err := r.aboutPage(content, contact)
	if err != nil {
		return err
	}
	if err := r.page(w, "about.html", "about/index.html", &about); err != nil {
		return err
	}
	owners, err := r.ownersPage(content, contact)
	if err != nil {
		return err
	}
	if err := r.page(w, "owners.html", "site-owners/index.html", &owners); err != nil {
		return err
	}
	contactP, err := r.contactPage(content, contact)
	if err != nil {
		return err
	}
	if err := r.page(w, "contact.html", "contact/index.html", &contactP); err != nil {
		return err
	}
	// The 404 page is served for any missing address, at any depth, so its
	// links start from the site's root path rather than from its own place.
	return r.page(w, "page.html", "404.html", &page{Title: "Not found", Root: base.Path, Section: "404",
		Description: "There is no page at this address.",
		Body: template.HTML(`<p>There is no page at this address. It may have moved, or the site it was about may have left our reviewed list.</p>` +
			`<p>The <a href="` + template.HTMLEscapeString(base.Path) + `">directory</a> lists every site we read.</p>`)})
}

// feedsAndSitemap writes the feeds and sitemap.xml; dirs are the directory
// pages besides the home page (categories and views).
func (r *Renderer) feedsAndSitemap(w writer, base *url.URL, sorted []*signals.Site, dirs []directory) error {
	var entries []atomEntry
	for _, s := range sorted {
		entries = append(entries, siteEntries(base, s, false)...)
	}
	feed, err := atom("tag:"+tagAuthority+":directory", "crawlsignals: the directory, batch by batch",
		abs(base, "feed.xml"), base.String(), entries)
	if err != nil {
		return err
	}
	if err := w.file("feed.xml", feed); err != nil {
		return err
	}
	sm := sitemap{URLs: []sitemapURL{{Loc: abs(base, "")}, {Loc: abs(base, "about/")},
		{Loc: abs(base, "site-owners/")}, {Loc: abs(base, "contact/")}}}
	for _, d := range dirs {
		sm.URLs = append(sm.URLs, sitemapURL{Loc: abs(base, d.path())})
	}
	sm.URLs = append(sm.URLs, sitemapURL{Loc: abs(base, "crawlers/")}, sitemapURL{Loc: abs(base, "compare/")},
		sitemapURL{Loc: abs(base, "changes/")})
	if batches := changeBatchNames(sorted); len(batches) > 1 {
		for _, b := range batches[1:] {
			sm.URLs = append(sm.URLs, sitemapURL{Loc: abs(base, changesPath(b, batches[0]))})
		}
	}
	for _, a := range robots.Agents() {
		sm.URLs = append(sm.URLs, sitemapURL{Loc: abs(base, "crawlers/"+crawlerSlug(a.Token)+"/")})
	}
	for _, s := range sorted {
		u := sitemapURL{Loc: abs(base, "sites/"+s.Host+"/")}
		if d := newDate(deref(s.ReadAt)); d != nil {
			u.LastMod = d.ISO
		}
		sm.URLs = append(sm.URLs, u)
	}
	data, err := marshalXML(sm)
	if err != nil {
		return err
	}
	return w.file("sitemap.xml", data)
}

func (r *Renderer) siteFiles(w writer, in Input, base *url.URL, s *signals.Site) error {
	dir := "sites/" + s.Host + "/"
	notes, err := r.siteNotes(in.Content, s.Host)
	if err != nil {
		return err
	}
	sv := sitePage(s, notes, in.Contact)
	if err := r.page(w, "site.html", dir+"index.html", &sv); err != nil {
		return err
	}
	if err := w.compactJSON(dir+"signals.json", s); err != nil {
		return err
	}
	feed, err := atom("tag:"+tagAuthority+":site/"+s.Host, "crawlsignals: "+cleanText(s.Name)+" ("+s.Host+")",
		abs(base, dir+"feed.xml"), abs(base, dir), siteEntries(base, s, true))
	if err != nil {
		return err
	}
	return w.file(dir+"feed.xml", feed)
}

// safeSegment says whether s can name a folder of public/: letters,
// digits, dots, hyphens and underscores, not starting with a dot. Hosts and
// categories are checked when sites.toml loads; this keeps a bad one from
// ever writing outside the output folder.
func safeSegment(s string) bool {
	if s == "" || s[0] == '.' || len(s) > 255 {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
		default:
			return false
		}
	}
	return true
}

// page is what every template gets from the layout's point of view.
type page struct {
	Title       string
	Description string
	Root        string // path from the page to the site root: "./", "../", "../../"
	Section     string // which navigation entry is the current one
	Feed        string // the page's Atom feed, relative to the page
	Canonical   string // the page's absolute address under the base URL
	Body        template.HTML
}

// pager is any page's data: each view embeds page.
type pager interface{ pageData() *page }

func (p *page) pageData() *page { return p }

func (r *Renderer) page(w writer, tmpl, rel string, data pager) error {
	if rel != "404.html" && w.base != nil { // the 404 page is served at any address
		data.pageData().Canonical = abs(w.base, strings.TrimSuffix(rel, "index.html"))
	}
	// Written to its file as it renders: the directory's pages list every
	// site (megabytes at 10,000 sites), and held whole before writing, the
	// buffers they grew in were most of a build's memory.
	return w.stream(rel, func(out io.Writer) error {
		if err := r.pages[tmpl].ExecuteTemplate(out, "layout", data); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		return nil
	})
}

// stream writes the file rel with what write writes to it, through a
// buffer of its own size. A failed write leaves a file cut short in the
// new folder, which the failed build then removes.
func (w writer) stream(rel string, write func(io.Writer) error) error {
	p := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	return errors.Join(err, f.Close())
}

// writer writes files under dir. It keeps no state of its own, so workers
// share it.
type writer struct {
	dir  string
	base *url.URL // where the site is published, for canonical links
}

func (w writer) file(rel string, data []byte) error {
	p := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// compactJSON writes v as JSON on one line, without HTML escaping: the
// exports (signals.json, sites.json, agents.json) are read by programs,
// and browsers lay JSON out for a person; indentation would add a third
// to every site's signals.json. Encoded into the file as it goes: at
// 10,000 sites agents.json and sites.json are megabytes each, and a
// buffer of ours beside the encoder's held them twice (with the room a
// growing buffer leaves), a third of the views' memory at their peak.
func (w writer) compactJSON(rel string, v any) error {
	return w.stream(rel, func(out io.Writer) error {
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		return nil
	})
}

// compactJSONList writes what compactJSON writes for head with n elements
// made by elem in its last field, a list, which head holds empty: one
// element at a time, so that neither the whole list nor its encoding is
// held. agents.json and sites.json of 10,000 sites are written so; whole,
// their values and the encoder's buffer were most of what the views
// across sites held at their peak.
func (w writer) compactJSONList(rel string, head any, n int, elem func(i int) any) error {
	return w.stream(rel, func(out io.Writer) error {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(head); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		const emptyLast = "[]}\n"
		if !bytes.HasSuffix(buf.Bytes(), []byte(emptyLast)) {
			return fmt.Errorf("%s: the list is not the last field of %T, or not empty", rel, head)
		}
		buf.Truncate(buf.Len() - len(emptyLast) + 1) // keep "["
		for i := range n {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := enc.Encode(elem(i)); err != nil {
				return fmt.Errorf("%s: %w", rel, err)
			}
			buf.Truncate(buf.Len() - 1) // the encoder's newline
			if _, err := out.Write(buf.Bytes()); err != nil {
				return err
			}
			buf.Reset()
		}
		buf.WriteString(emptyLast[1:])
		_, err := out.Write(buf.Bytes())
		return err
	})
}

// json writes v as indented JSON without HTML escaping: the schemas, read
// by people writing a program against the export.
func (w writer) json(rel string, v any) error {
	return w.stream(rel, func(out io.Writer) error {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		return nil
	})
}
