package bench_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing/fstest"
)

// benchPages are the pages the benchmark's web serves: the real ones of
// ../shared/realweb (home pages, terms, privacy and API documents, PDFs,
// robots.txt files) when that folder is there, read at bench time and never
// copied into the project; otherwise synthetic pages of about the same size.
type benchPages struct {
	from   string   // where they came from, for the benchmark's output
	robots [][]byte // robots.txt files that let our crawler read the site
	homes  [][]byte
	docs   []benchDoc // HTML and plain-text documents
	pdfs   []benchDoc
}

type benchDoc struct {
	ext  string // ".html", ".txt" or ".pdf": the fixture server's type
	body []byte
}

// realwebDir is the folder of real pages, beside the project as tests find it.
const realwebDir = "../../shared/realweb"

// loadBenchPages reads the real pages, or makes synthetic ones where the
// folder is absent (a clone outside this environment).
func loadBenchPages() (benchPages, error) {
	if _, err := os.Stat(realwebDir); err != nil {
		return syntheticPages(), nil
	}
	p := benchPages{from: "real pages of " + realwebDir + " (robots/, home/, terms/, docs/, pdf/)"}
	// A robots.txt that forbids our crawler the whole site, or asks it to
	// wait (Crawl-delay in a group it follows), would make a site with
	// nothing read or a crawl slower than the floor for the site's own
	// reason: the benchmark serves the others.
	var expect map[string]struct {
		Agents map[string]struct {
			RootAllowed bool `json:"root_allowed"`
		} `json:"agents"`
		CrawlDelay []struct {
			GroupAgents []string `json:"group_agents"`
		} `json:"crawl_delay"`
		File string `json:"file"`
	}
	data, err := os.ReadFile(filepath.Join(realwebDir, "robots", "expected.json"))
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(data, &expect); err != nil {
		return p, err
	}
	names := make([]string, 0, len(expect))
	for name := range expect {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		e := expect[name]
		if e.File == "" || !e.Agents["crawlsignals"].RootAllowed {
			continue
		}
		delayed := false
		for _, d := range e.CrawlDelay {
			delayed = delayed || slices.Contains(d.GroupAgents, "*") || slices.Contains(d.GroupAgents, "crawlsignals")
		}
		if delayed {
			continue
		}
		body, err := os.ReadFile(filepath.Join(realwebDir, e.File))
		if err != nil {
			return p, err
		}
		p.robots = append(p.robots, body)
	}
	read := func(dir string, keep func(name string) bool) ([]benchDoc, error) {
		entries, err := os.ReadDir(filepath.Join(realwebDir, dir))
		if err != nil {
			return nil, err
		}
		var out []benchDoc
		for _, e := range entries {
			ext := filepath.Ext(e.Name())
			if e.IsDir() || !keep(e.Name()) || (ext != ".html" && ext != ".txt" && ext != ".pdf") || strings.HasSuffix(e.Name(), ".pdftotext.txt") {
				continue
			}
			body, err := os.ReadFile(filepath.Join(realwebDir, dir, e.Name()))
			if err != nil {
				return nil, err
			}
			out = append(out, benchDoc{ext: ext, body: body})
		}
		return out, nil
	}
	all := func(string) bool { return true }
	homes, err := read("home", func(n string) bool { return strings.HasSuffix(n, ".html") })
	if err != nil {
		return p, err
	}
	for _, h := range homes {
		p.homes = append(p.homes, h.body)
	}
	for _, dir := range []string{"terms", "docs"} {
		docs, err := read(dir, all)
		if err != nil {
			return p, err
		}
		for _, d := range docs {
			if d.ext == ".pdf" {
				p.pdfs = append(p.pdfs, d)
			} else {
				p.docs = append(p.docs, d)
			}
		}
	}
	pdfs, err := read("pdf", func(n string) bool { return strings.HasSuffix(n, ".pdf") })
	if err != nil {
		return p, err
	}
	p.pdfs = append(p.pdfs, pdfs...)
	if len(p.robots) == 0 || len(p.homes) == 0 || len(p.docs) == 0 || len(p.pdfs) == 0 {
		return syntheticPages(), nil
	}
	return p, nil
}

// syntheticPages stand in for the real ones: a home page of about 200 KB
// with a footer, documents of 50 to 250 KB with sentences the reader
// quotes, and no PDF.
func syntheticPages() benchPages {
	p := benchPages{from: "synthetic pages (" + realwebDir + " is absent): home pages of about 200 KB, documents of 50–250 KB, no PDF"}
	p.robots = [][]byte{[]byte("User-agent: *\nDisallow: /privat/\n\nUser-agent: GPTBot\nDisallow: /\n"),
		[]byte("User-agent: *\nAllow: /\n\nUser-agent: CCBot\nUser-agent: ClaudeBot\nDisallow: /\n")}
	filler := "<p>Dette nettstedet er en del av et stort, oppdiktet nett som bare finnes for å måle en høflig leser, og hver side er omtrent like stor som en ekte side.</p>\n"
	home := "<!DOCTYPE html>\n<html lang=\"nb\"><head><meta charset=\"utf-8\"><title>Vert</title></head>\n<body><main><h1>Vert</h1>" +
		strings.Repeat(filler, 1400) + "</main>\n<footer><ul><li><a href=\"/om\">Om oss</a></li><li><a href=\"/vilkar-og-personvern\">Vilkår og personvern</a></li></ul></footer></body></html>\n"
	p.homes = [][]byte{[]byte(home)}
	says := []string{
		"<p>Automatisert innsamling av innhold (skraping) er ikke tillatt uten skriftlig avtale.</p>\n<p>Innholdet kan ikke brukes til å trene kunstig intelligens.</p>\n",
		"<p>Vi samler ikke inn personopplysninger om besøkende utover det som trengs for å levere tjenesten.</p>\n",
		"<p>Alle data er tilgjengelige under Norsk lisens for offentlige data (NLOD 2.0).</p>\n<p>Vi tilbyr et åpent API uten nøkkel for alle som vil bruke dataene.</p>\n",
	}
	for i, s := range says {
		n := 350 * (1 + 2*i) // about 50, 150 and 250 KB
		p.docs = append(p.docs, benchDoc{ext: ".html", body: []byte("<!DOCTYPE html>\n<html lang=\"nb\"><head><meta charset=\"utf-8\"><title>Vilkår</title></head>\n<body><main><h1>Vilkår</h1>\n" +
			strings.Repeat(filler, n/2) + s + strings.Repeat(filler, n/2) + "</main></body></html>\n")})
	}
	return p
}

// benchSite is what one host serves in one week: which page of each kind.
// week changes a quarter of the sites' choices each week, at staggered
// times, so that batches of a history differ from one another as a real
// list's do (a terms page replaced, a robots.txt edited), not all at once.
func (p benchPages) site(i, week int) (robots, home []byte, docs []benchDoc) {
	turn := (week + i%4) / 4 // this site's own count of changes so far
	robots = p.robots[(i+turn)%len(p.robots)]
	home = p.homes[i%len(p.homes)]
	docs = []benchDoc{
		p.docs[(i*3+turn)%len(p.docs)],
		p.docs[(i*3+1+2*turn)%len(p.docs)],
	}
	// One site in five has a PDF among its policy documents.
	if len(p.pdfs) > 0 && i%5 == 0 {
		docs = append(docs, p.pdfs[(i/5+turn)%len(p.pdfs)])
	} else {
		docs = append(docs, p.docs[(i*3+2+turn*5)%len(p.docs)])
	}
	return robots, home, docs
}

// benchAIAgents are the crawlers an edited robots.txt refuses, one more
// at each of the site's changes.
var benchAIAgents = []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "PerplexityBot", "Bytespider"}

// benchClauses are the sentences an edited first document gains, one more
// at each of the site's changes.
var benchClauses = []string{
	"Automated collection of the content of this site for training artificial intelligence models is not permitted without our written consent.",
	"The open data published on this site may be reused under the Creative Commons Attribution 4.0 licence.",
	"We may change these terms at any time, and the date of the latest change is shown at the top of this page.",
}

// editedSite is site i in week w of a history whose changes are edits, as
// most weeks' changes on a real site are: the site keeps the robots.txt
// and documents of site(i, 0), and at each of its changes (as often as
// site's) robots.txt gains a group refusing one AI crawler and its first
// document one sentence. (A PDF is served unchanged: it is replaced, not
// edited, on a real site.)
func (p benchPages) editedSite(i, week int) (robots, home []byte, docs []benchDoc) {
	robots, home, docs = p.site(i, 0)
	turn := (week + i%4) / 4
	if turn == 0 {
		return robots, home, docs
	}
	robots = slices.Concat(robots, []byte("\n"))
	docs = slices.Clone(docs)
	first := docs[0]
	var clauses []string
	for k := range turn {
		robots = fmt.Appendf(robots, "\nUser-agent: %s\nDisallow: /\n", benchAIAgents[(i+k)%len(benchAIAgents)])
		clauses = append(clauses, benchClauses[k%len(benchClauses)])
	}
	switch first.ext {
	case ".html":
		added := "<p>" + strings.Join(clauses, "</p>\n<p>") + "</p>\n"
		at := strings.LastIndex(strings.ToLower(string(first.body)), "</body>")
		if at < 0 {
			at = len(first.body)
		}
		first.body = slices.Concat(first.body[:at], []byte(added), first.body[at:])
	case ".txt":
		first.body = slices.Concat(first.body, []byte("\n\n"+strings.Join(clauses, "\n\n")+"\n"))
	}
	docs[0] = first
	return robots, home, docs
}

// benchDocNames are where a site's three documents are served; the list
// approves them (§2, 6), since a real home page's footer links to its own
// addresses (those on the host are asked for and answer 404, as a dead
// link would; those elsewhere are off the list).
var benchDocNames = []string{"vilkar", "personvern", "lisens"}

// writeBenchWeb makes the web of n hosts for one week, in memory (see
// memWeb), and the list of those sites, written to toml. edits chooses how
// the web changes from week to week: editedSite's edits, or site's
// replaced files.
func writeBenchWeb(p benchPages, n, week int, edits bool, toml string) (memWeb, error) {
	web := memWeb{fstest.MapFS{}}
	categories := []string{"public-sector", "news", "reference", "transport"}
	var list strings.Builder
	for i := range n {
		h := fmt.Sprintf("h%05d.test", i)
		robots, home, docs := p.site(i, week)
		if edits {
			robots, home, docs = p.editedSite(i, week)
		}
		web.MapFS[h] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
		web.MapFS[h+"/robots.txt"] = &fstest.MapFile{Data: robots, Mode: 0o644}
		web.MapFS[h+"/index.html"] = &fstest.MapFile{Data: home, Mode: 0o644}
		var approved []string
		for j, d := range docs {
			name := benchDocNames[j] + d.ext
			web.MapFS[h+"/"+name] = &fstest.MapFile{Data: d.body, Mode: 0o644}
			approved = append(approved, fmt.Sprintf("%q", "http://"+h+"/"+name))
		}
		fmt.Fprintf(&list, "[[site]]\nname = \"Vert %d\"\nurl = \"http://%s/\"\nhosts = [%q]\ncategory = %q\napproved = [%s]\n\n",
			i, h, h, categories[i%len(categories)], strings.Join(approved, ", "))
	}
	return web, os.WriteFile(toml, []byte(list.String()), 0o644)
}
