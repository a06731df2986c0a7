package render

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// WriteHugoProject writes a Hugo project for the same directory, for the
// benchmarks that compare our build with Hugo's on the same facts: one Markdown
// file per site with the page's facts in front matter and its prose
// sections in Markdown, categories as a taxonomy, and templates with the
// same layout as ours (header, navigation, verdict, agents table by
// category, documents with quotes, gaps, footer), plus the directory table
// on the home page and each category's page; and the views across sites our
// build writes too: a page per crawler (its lists, shares by category, the
// trend with its bar chart), the comparison table, the directory's views,
// and agents.json (given to Hugo computed, as every other fact is).
func WriteHugoProject(dir string, all []*signals.Site) error {
	files := map[string]string{
		// The same files as ours: per site a page, a signals.json and an
		// Atom feed; the directory with its CSV and feed; a page per
		// category; a sitemap.
		"hugo.toml": `baseURL = "https://crawlsignals.com/"
title = "crawlsignals"
disableKinds = ["section", "RSS"]
[taxonomies]
category = "categories"
[mediaTypes."application/atom+xml"]
suffixes = ["xml"]
[outputFormats.Feed]
mediaType = "application/atom+xml"
baseName = "feed"
isPlainText = true
[outputFormats.Signals]
mediaType = "application/json"
baseName = "signals"
isPlainText = true
[outputFormats.Dircsv]
mediaType = "text/csv"
baseName = "sites"
isPlainText = true
[outputs]
home = ["HTML", "Dircsv", "Feed"]
page = ["HTML", "Signals", "Feed"]
term = ["HTML"]
`,
		"layouts/_default/single.signals.json": `{{ dict "host" .Params.host "name" .Title "category" .Params.categories "robots" .Params.robots "meaning" .Params.meaning "ai_training" .Params.ai "read" .Params.read "not_read" .Params.gaps "open_by_design" .Params.open "why" .Params.why "read_at" .Params.readat "agents" .Params.agentgroups | jsonify (dict "indent" "  ") }}
`,
		"layouts/_default/single.feed.xml": `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>tag:crawlsignals.com,2026:site/{{ .Params.host }}</id>
  <title>crawlsignals: {{ .Title | htmlEscape }}</title>
  <updated>{{ .Params.readat }}</updated>
  <link rel="self" href="{{ .Permalink }}feed.xml"/>
  <author><name>crawlsignals</name></author>
  <entry>
    <id>tag:crawlsignals.com,2026:site/{{ .Params.host }}/batch/1</id>
    <title>{{ .Params.host }} read on {{ .Params.readat }}: {{ .Params.read }} read, {{ .Params.gaps }} not read</title>
    <updated>{{ .Params.readat }}</updated>
    <link href="{{ .Permalink }}"/>
    <summary type="text">{{ .Title | htmlEscape }}: robots.txt {{ .Params.robots }}; AI training crawlers: {{ .Params.ai }}</summary>
  </entry>
</feed>
`,
		// The directory CSV has our columns (csvHead), each site's cells
		// given computed in its front matter, as every other fact is.
		"layouts/index.dircsv.csv": hugoCSVHead() + `
{{ range (where .Site.RegularPages "Section" "sites").ByTitle }}{{ delimit .Params.csvrow "," }}
{{ end }}`,
		"layouts/index.feed.xml": `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>tag:crawlsignals.com,2026:directory</id>
  <title>crawlsignals</title>
  <author><name>crawlsignals</name></author>
{{ range (where .Site.RegularPages "Section" "sites") }}  <entry>
    <id>tag:crawlsignals.com,2026:site/{{ .Params.host }}/batch/1</id>
    <title>{{ .Params.host }} read on {{ .Params.readat }}: {{ .Params.read }} read, {{ .Params.gaps }} not read</title>
    <updated>{{ .Params.readat }}</updated>
    <link href="{{ .Permalink }}"/>
  </entry>
{{ end }}</feed>
`,
		"layouts/_default/baseof.html": `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} · crawlsignals</title><link rel="stylesheet" href="/style.css"></head>
<body><a class="skip" href="#main">Skip to content</a>
<header class="site"><a class="brand" href="/">crawlsignals</a><nav aria-label="Site"><ul><li><a href="/">Directory</a></li><li><a href="/about/">How we read</a></li><li><a href="/site-owners/">For site owners</a></li><li><a href="/contact/">Contact</a></li></ul></nav></header>
<main id="main">{{ block "main" . }}{{ end }}</main>
<footer class="site"><p>crawlsignals describes what each site says about reuse of its data, with evidence.</p></footer>
</body></html>
`,
		"layouts/_default/single.html": `{{ define "main" }}
<h1>{{ .Title }}</h1>
<p class="sub">{{ .Params.host }} · {{ .Params.categorylabel }}</p>
<section class="verdict"><h2 id="verdict">In short</h2><dl class="facts">
<div><dt>robots.txt</dt><dd>{{ .Params.robots }}</dd></div>
<div><dt>AI training crawlers</dt><dd>{{ .Params.ai }}</dd></div>
<div><dt>Documents read</dt><dd>{{ .Params.read }}</dd></div>
<div><dt>Not read by us</dt><dd>{{ .Params.gaps }}</dd></div>
<div><dt>Open by design</dt><dd>{{ if .Params.open }}yes{{ else }}no{{ end }}: {{ .Params.why }}</dd></div>
<div><dt>Read</dt><dd><time datetime="{{ .Params.readat }}">{{ .Params.readat }}</time></dd></div>
</dl></section>
<section><h2 id="robots">robots.txt</h2><p>{{ .Params.meaning }}</p>
<table class="agents"><caption>What the rules say to each crawler</caption>
<thead><tr><th>Crawler</th><th>Operator</th><th>Purpose</th><th>Group</th><th>May read /</th><th>Deciding line</th></tr></thead>
{{ range .Params.agentgroups }}<tbody><tr class="rowgroup"><th colspan="6">{{ .label }}</th></tr>
{{ range .agents }}<tr><th><a href="../../crawlers/{{ .slug }}/"><code>{{ .agent }}</code></a></th><td>{{ .group }}</td><td>{{ if .allowed }}yes{{ else }}no{{ end }}</td><td>{{ .line }}</td></tr>{{ end }}
</tbody>{{ end }}</table></section>
{{ .Content }}
{{ end }}
`,
		"layouts/index.html":          hugoListTemplate,
		"layouts/_default/term.html":  hugoListTemplate,
		"layouts/_default/terms.html": `{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Data.Terms.Alphabetical }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> ({{ .Count }})</li>{{ end }}</ul>{{ end }}`,
	}
	files["layouts/crawler/single.html"] = hugoCrawlerTemplate
	files["layouts/compare/single.html"] = hugoCompareTemplate
	files["layouts/view/single.html"] = hugoViewTemplate
	for name, body := range files {
		if err := writeFile(filepath.Join(dir, name), body); err != nil {
			return err
		}
	}
	for _, s := range all {
		if err := writeFile(filepath.Join(dir, "content", "sites", s.Host+".md"), hugoMarkdown(s)); err != nil {
			return err
		}
	}
	sorted := byName(all)
	table := signals.NewAgentsTable(all, signals.Generated(all))
	agents, err := json.Marshal(table.Index())
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "static", "agents.json"), string(agents)); err != nil {
		return err
	}
	_, pages := crawlerPages(table, sorted)
	for _, p := range pages {
		if err := writeFile(filepath.Join(dir, "content", "crawlers", crawlerSlug(p.Agent.Agent)+".md"), hugoCrawler(p)); err != nil {
			return err
		}
	}
	if err := writeFile(filepath.Join(dir, "content", "compare.md"), "+++\ntitle = \"Compare sites\"\ntype = \"compare\"\n+++\n"); err != nil {
		return err
	}
	for _, v := range views("") {
		if v.path == "changed/" {
			continue // a synthetic directory has one batch: nothing changed
		}
		name := strings.ReplaceAll(strings.Trim(v.path, "/"), "/", "-")
		key, value := "ai", strings.TrimPrefix(v.path, "ai/")
		switch {
		case strings.HasPrefix(v.path, "open/"):
			key, value = "openword", strings.TrimPrefix(v.path, "open/")
		case v.path == "gaps/":
			key, value = "hasgaps", "yes"
		}
		fm := fmt.Sprintf("+++\ntitle = %q\ntype = \"view\"\nkey = %q\nvalue = %q\n+++\n", v.heading, key, strings.TrimSuffix(value, "/"))
		if err := writeFile(filepath.Join(dir, "content", "views", name+".md"), fm); err != nil {
			return err
		}
	}
	return nil
}

// hugoCrawler is one crawler's page as Hugo content: its lists, shares by
// category and trend (with the chart's bars) in front matter.
func hugoCrawler(v crawlerView) string {
	var b strings.Builder
	q := strconv.Quote
	a := v.Agent
	fmt.Fprintf(&b, "+++\ntitle = %s\ntype = \"crawler\"\noperator = %s\npurpose = %s\ncategorylabel = %s\ntotal = %d\nndisallowed = %d\nnallowed = %d\nnunknown = %d\n",
		q(a.Agent), q(a.Operator), q(a.Purpose), q(v.CategoryLabel), v.Total, len(v.Disallowed), len(v.Allowed), len(v.Unknown))
	for _, list := range []struct {
		name  string
		sites []siteRef
	}{{"disallowed", v.Disallowed}, {"allowed", v.Allowed}, {"unknown", v.Unknown}} {
		for _, r := range list.sites {
			fmt.Fprintf(&b, "[[%s]]\nhost = %s\nname = %s\n", list.name, q(r.Host), q(r.Name))
		}
	}
	for _, c := range v.ByCategory {
		fmt.Fprintf(&b, "[[bycategory]]\nlabel = %s\ndisallowed = %d\nallowed = %d\nunknown = %d\npct = %s\n", q(c.Label), c.Disallowed, c.Allowed, c.Unknown, q(c.DisallowedPct))
	}
	for _, t := range v.Trend {
		fmt.Fprintf(&b, "[[trend]]\nbatch = %s\ndisallowed = %d\nallowed = %d\nunknown = %d\npct = %s\n", q(t.Batch), t.Disallowed, t.Allowed, t.Unknown, q(t.Pct))
	}
	for _, bar := range v.Chart.Bars {
		fmt.Fprintf(&b, "[[bars]]\nx = %s\ny = %d\nw = %s\nh = %d\nlabel = %s\nvalue = %s\n", q(bar.X), bar.Y, q(bar.W), bar.H, q(bar.Label), q(bar.Value))
	}
	b.WriteString("+++\n")
	return b.String()
}

const hugoCrawlerTemplate = `{{ define "main" }}
<h1><code>{{ .Title }}</code></h1>
<p class="sub">{{ .Params.operator }} · {{ .Params.categorylabel }}</p><p>{{ .Params.purpose }}</p>
<p class="word">{{ .Params.ndisallowed }} disallow · {{ .Params.nallowed }} allow · {{ .Params.nunknown }} unknown</p>
<figure class="chart"><svg role="img" viewBox="0 0 400 166">{{ range .Params.bars }}<rect x="{{ .x }}" y="{{ .y }}" width="{{ .w }}" height="{{ .h }}" class="bar"></rect><text x="{{ .x }}" y="{{ .y }}">{{ .value }}</text><text x="{{ .x }}" y="160">{{ .label }}</text>{{ end }}</svg></figure>
<table><caption>In each batch</caption><thead><tr><th>Batch</th><th>Disallow</th><th>Allow</th><th>Unknown</th><th>Share</th></tr></thead><tbody>
{{ range .Params.trend }}<tr><th>{{ .batch }}</th><td>{{ .disallowed }}</td><td>{{ .allowed }}</td><td>{{ .unknown }}</td><td>{{ .pct }}</td></tr>{{ end }}</tbody></table>
<table><caption>By category</caption><thead><tr><th>Category</th><th>Disallow</th><th>Allow</th><th>Unknown</th><th>Share</th></tr></thead><tbody>
{{ range .Params.bycategory }}<tr><th>{{ .label }}</th><td>{{ .disallowed }}</td><td>{{ .allowed }}</td><td>{{ .unknown }}</td><td>{{ .pct }}</td></tr>{{ end }}</tbody></table>
<h3>Disallow</h3><ul>{{ range .Params.disallowed }}<li><a href="/sites/{{ .host }}/">{{ .name }}</a> {{ .host }}</li>{{ end }}</ul>
<h3>Allow</h3><ul>{{ range .Params.allowed }}<li><a href="/sites/{{ .host }}/">{{ .name }}</a> {{ .host }}</li>{{ end }}</ul>
<h3>Unknown</h3><ul>{{ range .Params.unknown }}<li><a href="/sites/{{ .host }}/">{{ .name }}</a> {{ .host }}</li>{{ end }}</ul>
{{ end }}`

const hugoCompareTemplate = `{{ define "main" }}
<h1>{{ .Title }}</h1>
<table class="compare"><caption>Sites and the AI training crawlers</caption>
<thead><tr><th>Site</th>{{ range (index (where .Site.RegularPages "Section" "sites") 0).Params.compare }}<th><code>{{ .agent }}</code></th>{{ end }}<th>AI training</th><th>Open by design</th></tr></thead>
<tbody>{{ range (where .Site.RegularPages "Section" "sites").ByTitle }}<tr><th><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ .Params.host }}</th>{{ range .Params.compare }}<td>{{ .verdict }}</td>{{ end }}<td>{{ .Params.ai }}</td><td>{{ .Params.openword }}</td></tr>
{{ end }}</tbody></table>
{{ end }}`

const hugoViewTemplate = `{{ define "main" }}
<h1>{{ .Title }}</h1>
<table class="directory"><caption>{{ .Title }}</caption>
<thead><tr><th>Site</th><th>Category</th><th>AI training</th><th>Open by design</th><th>Documents read</th><th>Not read by us</th><th>robots.txt</th><th>Last read</th></tr></thead>
<tbody>{{ range (where (where .Site.RegularPages "Section" "sites") (printf "Params.%s" .Params.key) .Params.value).ByTitle }}<tr><th><a href="{{ .RelPermalink }}">{{ .Title }}</a> <span class="host">{{ .Params.host }}</span></th><td>{{ .Params.categorylabel }}</td><td>{{ .Params.ai }}</td><td>{{ .Params.openword }}</td><td>{{ .Params.read }}</td><td>{{ .Params.gaps }}</td><td>{{ .Params.robots }}</td><td><time datetime="{{ .Params.readat }}">{{ .Params.readat }}</time></td></tr>
{{ end }}</tbody></table>
{{ end }}`

const hugoListTemplate = `{{ define "main" }}
<h1>{{ .Title }}</h1>
<table class="directory"><caption>All reviewed sites, by name</caption>
<thead><tr><th>Site</th><th>Category</th><th>robots.txt</th><th>AI training crawlers</th><th>Documents read</th><th>Not read by us</th><th>Open by design</th><th>Last read</th></tr></thead>
<tbody>{{ range (where .Site.RegularPages "Section" "sites").ByTitle }}<tr><th><a href="{{ .RelPermalink }}">{{ .Title }}</a> <span class="host">{{ .Params.host }}</span></th><td>{{ .Params.categorylabel }}</td><td>{{ .Params.robots }}</td><td>{{ .Params.ai }}</td><td>{{ .Params.read }}</td><td>{{ .Params.gaps }}</td><td>{{ if .Params.open }}Yes{{ else }}No{{ end }}</td><td><time datetime="{{ .Params.readat }}">{{ .Params.readat }}</time></td></tr>
{{ end }}</tbody></table>
{{ end }}`

func writeFile(path, body string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(body), 0o644)
}

// hugoMarkdown is one site as Hugo content: facts in TOML front matter,
// documents, quotes and gaps in Markdown.
func hugoMarkdown(s *signals.Site) string {
	var b strings.Builder
	q := strconv.Quote
	fmt.Fprintf(&b, "+++\ntitle = %s\nhost = %s\ncategories = [%s]\ncategorylabel = %s\nrobots = %s\nai = %s\nread = %d\ngaps = %d\nopen = %t\nwhy = %s\nreadat = %s\nmeaning = %s\n",
		q(s.Name), q(s.Host), q(s.Category), q(sites.CategoryLabel(s.Category)), q(outcomeWords(s.Robots)), q(s.AIUse.Verdict),
		len(s.Read), len(s.NotRead), s.OpenByDesign.IsOpen(), q(s.OpenByDesign.Why), q(deref(s.ReadAt)), q(s.Robots.Meaning))
	hasGaps := "no"
	if len(s.NotRead) > 0 {
		hasGaps = "yes"
	}
	fmt.Fprintf(&b, "openword = %s\nhasgaps = %s\n", q(s.OpenByDesign.Code()), q(hasGaps))
	_, crawlers := csvHead()
	b.WriteString("csvrow = [")
	for i, cell := range csvRecord(hugoBase, s, crawlers) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(q(csvField(cell)))
	}
	b.WriteString("]\n")
	verdicts := s.AgentVerdicts()
	for _, c := range compareCrawlers {
		fmt.Fprintf(&b, "[[compare]]\nagent = %s\nverdict = %s\n", q(c), q(verdicts[c]))
	}
	v := robotsOf(s.Robots, "", "robots")
	for _, g := range v.AgentsBy {
		fmt.Fprintf(&b, "[[agentgroups]]\nlabel = %s\n", q(g.Label))
		for _, a := range g.Agents {
			fmt.Fprintf(&b, "[[agentgroups.agents]]\nagent = %s\nslug = %s\ngroup = %s\nallowed = %t\nline = %s\n",
				q(a.Token), q(a.Slug), q(a.GroupWords), a.Verdict == "allowed", q(a.LineWords))
		}
	}
	b.WriteString("+++\n\n## Documents read\n\n")
	for _, d := range s.Read {
		fmt.Fprintf(&b, "### %s\n\n<%s>\n\n- How we came to it: %s\n- Read: %s\n- Answer: HTTP %d, `%s`\n- Text: %d characters\n- SHA-256: `%s`\n\n",
			firstOf(d.Title, d.LinkText, d.URL), d.URL, viaWords(d.FoundVia, d.LinkText), d.ReadAt, d.Status, d.ContentType, d.Chars, d.SHA256)
		for _, qt := range s.Quotes {
			if qt.URL == d.URL && qt.Verified {
				fmt.Fprintf(&b, "> %s\n\n%s · checked word for word in <%s> as read on %s\n\n", qt.Text, topicWords(qt.Topic), qt.URL, qt.ReadAt)
			}
		}
	}
	b.WriteString("## Open by design\n\n")
	fmt.Fprintf(&b, "%s\n\n", s.OpenByDesign.Why)
	b.WriteString("## Not read by us\n\n| Address | Why not | Status or error |\n| --- | --- | --- |\n")
	for _, g := range s.NotRead {
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", g.URL, g.Reason, g.Detail)
	}
	b.WriteString("\n## Is this your site?\n\nRequest a re-check by email.\n")
	return b.String()
}

// hugoBase is the Hugo project's baseURL, which the CSV's page and signals
// columns are made from.
var hugoBase = &url.URL{Scheme: "https", Host: "crawlsignals.com", Path: "/"}

// hugoCSVHead is the directory CSV's first row as a line.
func hugoCSVHead() string {
	head, _ := csvHead()
	cells := make([]string, len(head))
	for i, h := range head {
		cells[i] = csvField(h)
	}
	return strings.Join(cells, ",")
}

// csvField is one cell as encoding/csv writes it: quoted, its quotes
// doubled, when it holds a comma, a quote or a line break or begins with
// a space.
func csvField(cell string) string {
	if cell == "" || !(strings.ContainsAny(cell, ",\"\r\n") || cell[0] == ' ' || cell[0] == '\t') {
		return cell
	}
	return `"` + strings.ReplaceAll(cell, `"`, `""`) + `"`
}
