package render

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/crawlsignals/crawlsignals/internal/sitecheck"
	"github.com/crawlsignals/crawlsignals/signals"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

func build(t testing.TB, in Input) string {
	t.Helper()
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if err := r.Build(context.Background(), out, in); err != nil {
		t.Fatal(err)
	}
	return out
}

func read(t testing.TB, dir, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var testContent = fstest.MapFS{
	"about.md":              {Data: []byte("+++\ntitle = \"How we read\"\n+++\nWe read politely. See [the owners page](../site-owners/).\n")},
	"contact.md":            {Data: []byte("Write to us.\n")},
	"site-owners.md":        {Data: []byte("+++\ntitle = \"For site owners\"\n+++\nYour site has a page.\n")},
	"sites/kommune.test.md": {Data: []byte("+++\n+++\nThe municipality publishes its **data** openly. <script>alert(1)</script>\n")},
}

// TestGolden compares one site's page and the directory with the files in
// testdata/golden; run `go test ./render -run Golden -update` after a
// deliberate change to the templates, and read the diff.
func TestGolden(t *testing.T) {
	out := build(t, Input{Sites: directorySites(), Content: testContent, Contact: "crawler@crawlsignals.test"})
	for _, c := range []struct{ rel, golden string }{
		{"sites/kommune.test/index.html", "site.html"},
		{"index.html", "index.html"},
	} {
		got := read(t, out, c.rel)
		path := filepath.Join("testdata", "golden", c.golden)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./render -run Golden -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (%s); if the change is meant, run go test ./render -run Golden -update and read the diff", c.rel, path, firstDiff(got, want))
		}
	}
}

func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ": got " + clip(al[i]) + ", want " + clip(bl[i])
		}
	}
	return "lengths differ: " + strconv.Itoa(len(al)) + " lines, want " + strconv.Itoa(len(bl))
}

func clip(s string) string {
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return "«" + s + "»"
}

// TestOutputIsSound: every page of a build is well-formed, has its
// landmarks, and every internal link resolves; also when the site is
// published under a sub-path, where every feed, sitemap, canonical and
// 404-page link must resolve under it.
func TestOutputIsSound(t *testing.T) {
	for _, base := range []string{"", "https://example.org/crawlsignals/", "https://example.org/sub/"} {
		out := build(t, Input{Sites: directorySites(), Content: testContent, Contact: "crawler@crawlsignals.test", BaseURL: base})
		check := base
		if base == "" {
			check = DefaultBaseURL
		}
		problems, err := sitecheck.Check(out, check)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Errorf("base %q: %s", base, p)
		}
	}
}

// TestBuildIsDeterministic: the same findings give byte-identical files,
// whatever the number of workers and the order the sites come in.
func TestBuildIsDeterministic(t *testing.T) {
	sites := manySites(60)
	a := build(t, Input{Sites: sites, Content: testContent, Workers: 1})
	reversed := slices.Clone(sites)
	slices.Reverse(reversed)
	b := build(t, Input{Sites: reversed, Content: testContent, Workers: 8})
	files := 0
	filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil {
			t.Errorf("%s missing from the second build", rel)
		} else if !bytes.Equal(x, y) && rel != "sites.json" {
			// sites.json keeps the input's order for equal names (signals.NewIndex).
			t.Errorf("%s differs between two builds", rel)
		}
		files++
		return nil
	})
	if files < 60*3 {
		t.Errorf("only %d files", files)
	}
}

// TestDirectoryOrderIsNorwegian: Æ, Ø, Å after Z, in that order.
func TestDirectoryOrderIsNorwegian(t *testing.T) {
	var in []*signals.Site
	for i, name := range []string{"Åpent", "zebra", "Øst", "Ærlig", "Aker", "øvre", "Zeta", "Bø"} {
		in = append(in, &signals.Site{Host: "h" + strconv.Itoa(i) + ".test", Name: name})
	}
	var got []string
	for _, s := range byName(in) {
		got = append(got, s.Name)
	}
	want := []string{"Aker", "Bø", "zebra", "Zeta", "Ærlig", "Øst", "øvre", "Åpent"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

func TestDirectoryPage(t *testing.T) {
	out := build(t, Input{Sites: directorySites()})
	page := string(read(t, out, "index.html"))
	for _, want := range []string{
		`<dt>Sites</dt><dd>7</dd>`, `<dt>Read fully</dt><dd>3</dd>`, `<dt>With gaps</dt><dd>3</dd>`, `<dt>Open by design</dt><dd>1</dd>`,
		`<dt>Asked us to stop</dt><dd>1</dd>`, `<dt>Not read yet</dt><dd>1</dd>`,
		`not read: asked us to stop`, `class="blocked"`, `href="./category/public-sector/"`, `Public sector <span class="n">(3)</span>`,
		`ai-refused`, `ai-partly-refused`, `ai-no-objection-found`, `ai-unknown`, `Not determined`,
		`data-search="stoppet as stopp.test"`, `filter.js`, `type="search"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	cat := string(read(t, out, "category/public-sector/index.html"))
	for _, s := range []string{"kommune.test", "register.test", "ny.test"} {
		if !strings.Contains(cat, `href="../../sites/`+s+`/"`) {
			t.Errorf("category page lacks %s", s)
		}
	}
	if strings.Contains(cat, "avis.test") {
		t.Error("the public-sector page lists a news site")
	}
}

func TestSitePageSections(t *testing.T) {
	out := build(t, Input{Sites: directorySites(), Content: testContent, Contact: "crawler@crawlsignals.test"})
	page := string(read(t, out, "sites/kommune.test/index.html"))
	for _, want := range []string{
		`<h2 id="answers" class="visually-hidden">In short</h2>`, `<h2 id="ai-use">AI signals</h2>`, `<h2 id="robots">robots.txt</h2>`,
		`<li id="L9" class="decides" style="--above: 2">Disallow: /</li>`, `<a href="#L9">line 9</a>`,
		`#:~:text=Automatisert%20innsamling%20av%20innhold%20er%20ikke%20tillatt%20uten%20skriftlig%20samtykke.`, `<h2 id="robots-2">robots.txt of data.kommune.test</h2>`,
		`Crawl-delay for our crawler: 3 s.`, `Content-Signal`, `search=yes, ai-train=no`,
		`Automatisert innhenting av innhold er forbudt uten samtykke.`, `<h2 id="read">Documents read</h2>`,
		`<time datetime="2026-12-01T06:00:10Z">1 December 2026, 06:00 UTC</time>`, `no text layer`,
		`<h2 id="signals">Signals</h2>`, `security.txt`, `<strong>expired</strong>`, `not published`, `not read by us: <code>server-error</code>`,
		`rights are reserved`, `tdm-reservation`, `NLOD 2.0`, `<h2 id="look-twice">Look twice</h2>`,
		`<h2 id="gaps">Not read by us</h2>`, `robots-disallowed`, `off-list`, `HTTP 500`,
		`<h2 id="changes">Changes since the last batch</h2>`, `GPTBot may no longer read /.`,
		`The municipality publishes its <strong>data</strong> openly.`, `A municipality with open data.`,
		`href="mailto:crawler@crawlsignals.test?subject=Re-check%20kommune.test"`, `href="signals.json"`, `href="feed.xml"`,
		`no longer found, word for word`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("site page lacks %q", want)
		}
	}
	// Content files cannot inject markup.
	if strings.Contains(page, "<script>") {
		t.Error("a <script> from content/sites/kommune.test.md reached the page")
	}
	// The unverified curated quote is stated, never quoted.
	if strings.Contains(page, "Vi deler data fritt.") {
		t.Error("a curated quote that no longer verifies is shown as a quote")
	}
	// The file is shown whole, so its groups are not tabled again, and a
	// line nothing links to has no id.
	if strings.Contains(page, `only examples`) || strings.Contains(page, `<li id="L1">`) {
		t.Error("the page repeats robots.txt's groups in a table, or gives every line an id")
	}
	stop := string(read(t, out, "sites/stopp.test/index.html"))
	if !strings.Contains(stop, `This site asked us to stop on <time datetime="2026-11-15">15 November 2026</time>`) {
		t.Error("the blocked site's page does not say it asked us to stop, with the date")
	}
}

// TestRobotsGroupsOfACutFile: a robots.txt longer than the page shows is
// summed up by its groups, since some of them are not on the page.
func TestRobotsGroupsOfACutFile(t *testing.T) {
	in := directorySites()
	for _, s := range in {
		if s.Host == "kommune.test" {
			s.Robots.LineCount = len(s.Robots.Lines) + 40
		}
	}
	page := string(read(t, build(t, Input{Sites: in}), "sites/kommune.test/index.html"))
	for _, want := range []string{`only examples`, `<code>/intern/</code>`, `40 more lines are not shown here`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page of a cut robots.txt lacks %q", want)
		}
	}
}

// TestJSONExportShapes: sites.json and signals.json are the signals types
// encoded as they are, nothing added or renamed (design §6), on one line.
func TestJSONExportShapes(t *testing.T) {
	in := directorySites()
	out := build(t, Input{Sites: in})
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.Encode(signals.NewIndex(in))
	if got := read(t, out, "sites.json"); !bytes.Equal(got, want.Bytes()) {
		t.Error("sites.json is not signals.NewIndex encoded")
	}
	want.Reset()
	enc.Encode(in[0])
	if got := read(t, out, "sites/kommune.test/signals.json"); !bytes.Equal(got, want.Bytes()) {
		t.Error("signals.json is not the site's findings encoded")
	}
}

func TestFeeds(t *testing.T) {
	in := directorySites()
	out := build(t, Input{Sites: in, BaseURL: "https://example.org/cs"})
	type feed struct {
		ID      string `xml:"id"`
		Updated string `xml:"updated"`
		Links   []struct {
			Rel  string `xml:"rel,attr"`
			Href string `xml:"href,attr"`
		} `xml:"link"`
		Entries []struct {
			ID      string `xml:"id"`
			Title   string `xml:"title"`
			Updated string `xml:"updated"`
			Link    struct {
				Href string `xml:"href,attr"`
			} `xml:"link"`
			Summary string `xml:"summary"`
		} `xml:"entry"`
	}
	var all feed
	if err := xml.Unmarshal(read(t, out, "feed.xml"), &all); err != nil {
		t.Fatal(err)
	}
	// One entry per piece of news: each site's first reading (five), the
	// change kommune.test's second batch brought, and the stop request (one
	// site was never read).
	if len(all.Entries) != 7 {
		t.Fatalf("%d entries, want 7", len(all.Entries))
	}
	if all.Updated != "2026-12-01T06:00:00Z" || all.Links[0].Href != "https://example.org/cs/feed.xml" {
		t.Errorf("feed updated %s, self %s", all.Updated, all.Links[0].Href)
	}
	for _, e := range all.Entries {
		if !strings.HasPrefix(e.ID, "tag:crawlsignals.com,2026:site/") || !strings.HasPrefix(e.Link.Href, "https://example.org/cs/sites/") {
			t.Errorf("entry %q: id %s link %s", e.Title, e.ID, e.Link.Href)
		}
	}
	var one feed
	if err := xml.Unmarshal(read(t, out, "sites/kommune.test/feed.xml"), &one); err != nil {
		t.Fatal(err)
	}
	// The site's feed carries the change's diff; the directory's says what
	// changed and where the lines are.
	const changeID = "tag:crawlsignals.com,2026:site/kommune.test/batch/20261201T060000Z"
	for _, e := range all.Entries {
		if e.ID == changeID && (strings.Contains(e.Summary, "Disallow: /") || !strings.Contains(e.Summary, "GPTBot may no longer read /.") ||
			!strings.Contains(e.Summary, "changed: https://example.org/cs/sites/kommune.test/")) {
			t.Errorf("directory feed's entry of the change: %q", e.Summary)
		}
	}
	if len(one.Entries) > 0 && (!strings.Contains(one.Entries[0].Summary, "+ Disallow: /") || !strings.Contains(one.Entries[0].Summary, "− Alle rettigheter forbeholdt.")) {
		t.Errorf("site feed's entry of the change has no diff: %q", one.Entries[0].Summary)
	}
	if len(one.Entries) != 2 || one.Entries[0].ID != "tag:crawlsignals.com,2026:site/kommune.test/batch/20261201T060000Z" ||
		one.Entries[0].Updated != "2026-12-01T06:00:00Z" || one.Entries[0].Title != "kommune.test changed on 1 December 2026: 2 changes" ||
		one.Entries[1].Title != "kommune.test first read on 1 November 2026" {
		t.Errorf("kommune.test feed: %+v", one.Entries)
	}
	// A batch that changed nothing adds no entry: read twice, no change,
	// the feed holds the first reading alone.
	quiet := fullSite()
	quiet.Changes = nil
	out = build(t, Input{Sites: []*signals.Site{quiet}})
	one = feed{}
	if err := xml.Unmarshal(read(t, out, "sites/kommune.test/feed.xml"), &one); err != nil {
		t.Fatal(err)
	}
	if len(one.Entries) != 1 || one.Entries[0].ID != "tag:crawlsignals.com,2026:site/kommune.test/batch/20261101T060000Z" {
		t.Errorf("a batch with no change has a feed entry: %+v", one.Entries)
	}
	// A change in an earlier batch is an entry of its own.
	s := fullSite()
	s.Changes = append(s.Changes, signals.Change{Batch: "20261101T060000Z", Previous: "20261001T060000Z", ReadAt: "2026-11-01T06:00:00Z", Items: []string{"robots.txt now answers."}})
	out = build(t, Input{Sites: []*signals.Site{s}})
	one = feed{}
	if err := xml.Unmarshal(read(t, out, "sites/kommune.test/feed.xml"), &one); err != nil {
		t.Fatal(err)
	}
	if len(one.Entries) != 2 || one.Entries[1].Title != "kommune.test changed on 1 November 2026: 1 change" {
		t.Errorf("feed with an older change: %+v", one.Entries)
	}
}

func TestCSVSitemapRobots(t *testing.T) {
	out := build(t, Input{Sites: directorySites()})
	rows, err := csv.NewReader(bytes.NewReader(read(t, out, "sites.csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 8 || rows[0][0] != "host" || rows[1][0] != "avis.test" || rows[7][2] != "Åpent register" {
		t.Errorf("sites.csv rows: %v", rows)
	}
	// One column per AI training crawler, as sites.json's "robots_agents"; the
	// AI use verdict; Open by design empty when not determined.
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	byHost := map[string][]string{}
	for _, r := range rows[1:] {
		byHost[r[0]] = r
	}
	for _, c := range []struct{ host, column, want string }{
		{"register.test", "robots_CCBot", "disallowed"}, {"register.test", "robots_GPTBot", "allowed"}, {"register.test", "ai_use", "partly-refused"},
		{"nede.test", "robots_GPTBot", "unknown"}, {"nede.test", "open_by_design", ""}, {"nede.test", "ai_use", "unknown"},
		{"stopp.test", "read_at", ""}, {"kommune.test", "open_by_design", "true"}, {"avis.test", "open_by_design", "false"},
	} {
		i, ok := col[c.column]
		if !ok || byHost[c.host][i] != c.want {
			t.Errorf("sites.csv %s %s = %q, want %q", c.host, c.column, byHost[c.host][i], c.want)
		}
	}
	var sm struct {
		URLs []struct {
			Loc string `xml:"loc"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(read(t, out, "sitemap.xml"), &sm); err != nil {
		t.Fatal(err)
	}
	locs := map[string]bool{}
	for _, u := range sm.URLs {
		locs[u.Loc] = true
	}
	for _, want := range []string{"https://crawlsignals.com/", "https://crawlsignals.com/about/", "https://crawlsignals.com/site-owners/",
		"https://crawlsignals.com/contact/", "https://crawlsignals.com/category/shop/", "https://crawlsignals.com/sites/stopp.test/"} {
		if !locs[want] {
			t.Errorf("sitemap.xml lacks %s", want)
		}
	}
	robots := string(read(t, out, "robots.txt"))
	if !strings.Contains(robots, "Sitemap: https://crawlsignals.com/sitemap.xml") {
		t.Errorf("robots.txt: %s", robots)
	}
	for _, p := range []string{"404.html", "about/index.html", "contact/index.html", "site-owners/index.html", "favicon.svg", "style.css"} {
		read(t, out, p)
	}
}

func TestOwnerPages(t *testing.T) {
	out := build(t, Input{Sites: directorySites(), Content: testContent, Contact: "crawler@crawlsignals.test"})
	owners := string(read(t, out, "site-owners/index.html"))
	for _, want := range []string{"User-agent: crawlsignals\nDisallow: /", "crawlsignals/0.1", "mailto:crawler@crawlsignals.test?subject=Stop%20example.com", "Re-check"} {
		if !strings.Contains(owners, want) {
			t.Errorf("site-owners page lacks %q", want)
		}
	}
	about := string(read(t, out, "about/index.html"))
	for _, want := range []string{"CC BY 4.0", "robots-disallowed", "/.well-known/security.txt", "Open by design", "GPTBot", `id="data"`} {
		if !strings.Contains(about, want) {
			t.Errorf("about page lacks %q", want)
		}
	}
	if !strings.Contains(string(read(t, out, "contact/index.html")), `href="mailto:crawler@crawlsignals.test?subject=crawlsignals"`) {
		t.Error("contact page has no mailto link")
	}
}

func TestBadBaseURL(t *testing.T) {
	r, _ := New()
	for _, base := range []string{"ftp://x/", "/relative/", "https://x/?q=1"} {
		if err := r.Build(context.Background(), filepath.Join(t.TempDir(), "p"), Input{BaseURL: base}); err == nil {
			t.Errorf("base URL %q accepted", base)
		}
	}
}
