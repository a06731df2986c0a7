package render

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/signals"
)

// changedSites is a directory of three sites read in three batches: one
// whose robots.txt newly refuses CCBot and whose AI verdict changed in the
// newest batch, one whose terms changed a batch earlier, and one that never
// changed.
func changedSites() []*signals.Site {
	b1, b2, b3 := "20261115T060000Z", "20261122T060000Z", "20261129T060000Z"
	hist := func(ai3 string, disallowed3 ...string) []signals.BatchVerdicts {
		return []signals.BatchVerdicts{
			{Batch: b1, AIUse: "no-objection-found", Disallowed: []string{}, Unknown: []string{}},
			{Batch: b2, AIUse: "no-objection-found", Disallowed: []string{"GPTBot"}, Unknown: []string{}},
			{Batch: b3, AIUse: ai3, Disallowed: disallowed3, Unknown: []string{}},
		}
	}
	site := func(host, name string) *signals.Site {
		return &signals.Site{Host: host, Name: name, URL: "https://" + host + "/", Category: "news", Hosts: []string{host},
			Batch: b3, ReadAt: ptr("2026-11-29T06:00:01Z"),
			Robots: signals.Robots{Host: host, URL: "https://" + host + "/robots.txt", Status: 200, Outcome: "rules", Meaning: "Rules.", Agents: testAgents(true, 3)},
			AIUse:  signals.AIUse{Verdict: "no-objection-found", Why: "Nothing objects."}, OpenByDesign: signals.OpenVerdict{Verdict: ptr(false), Why: "No."}}
	}
	avis := site("avis.test", "Avisa")
	avis.AIUse.Verdict = "partly-refused"
	avis.History = hist("partly-refused", "GPTBot", "CCBot")
	avis.Changes = []signals.Change{
		{Batch: b3, Previous: b2, ReadAt: "2026-11-29T06:00:01Z", Items: []string{"robots.txt changed", "CCBot: allowed → disallowed", "AI use: no objection found → partly refused"},
			Diffs: []signals.Diff{{URL: "https://avis.test/robots.txt", What: "robots", Added: []string{"User-agent: CCBot", "Disallow: /", "# a", "# b", "# c"}, Removed: []string{}, MoreAdded: 1}}},
		{Batch: b2, Previous: b1, ReadAt: "2026-11-22T06:00:01Z", Items: []string{"GPTBot: allowed → disallowed"}},
	}
	kommune := site("kommune.test", "Kommunen")
	kommune.History = hist("no-objection-found", "GPTBot")
	kommune.Changes = []signals.Change{{Batch: b2, Previous: b1, ReadAt: "2026-11-22T06:00:01Z", Items: []string{"text changed: https://kommune.test/vilkar"},
		Diffs: []signals.Diff{{URL: "https://kommune.test/vilkar", What: "document", Added: []string{"Ny setning om KI."}, Removed: []string{"Gammel setning om maskinlæring."}}}}}
	shop := site("butikk.test", "Butikken")
	shop.History = hist("no-objection-found", "GPTBot")
	return []*signals.Site{avis, kommune, shop}
}

func TestChangesPage(t *testing.T) {
	out := build(t, Input{Sites: changedSites()})
	// changes/ is the newest batch with a change; each earlier batch has a
	// page of its own; each page lists them all, newest first, and each
	// batch lists the sites that changed in it, and only those.
	page := string(read(t, out, "changes/index.html"))
	olderPage := string(read(t, out, "changes/20261122T060000Z/index.html"))
	i3 := strings.Index(page, `id="batch-20261129T060000Z"`)
	i2 := strings.Index(olderPage, `id="batch-20261122T060000Z"`)
	if i3 < 0 || i2 < 0 || strings.Contains(page, `id="batch-20261122T060000Z"`) || strings.Contains(olderPage, `id="batch-20261129T060000Z"`) {
		t.Fatalf("each page should list its own batch alone (%d, %d)", i3, i2)
	}
	newest, older := page[i3:], olderPage[i2:]
	for _, p := range []struct{ page, here, other string }{
		{page, `<strong aria-current="page"><time datetime="2026-11-29T06:00:00Z">29 November 2026, 06:00 UTC</time></strong>: 1 site`,
			`<a href="../changes/20261122T060000Z/"><time datetime="2026-11-22T06:00:00Z">22 November 2026, 06:00 UTC</time></a>: 2 sites`},
		{olderPage, `<strong aria-current="page"><time datetime="2026-11-22T06:00:00Z">22 November 2026, 06:00 UTC</time></strong>: 2 sites`,
			`<a href="../../changes/"><time datetime="2026-11-29T06:00:00Z">29 November 2026, 06:00 UTC</time></a>: 1 site`},
	} {
		nav := p.page[strings.Index(p.page, `<nav class="batches"`)+1:]
		nav = nav[:strings.Index(nav, "</nav>")]
		if !strings.Contains(nav, p.here) || !strings.Contains(nav, p.other) || strings.Index(nav, "29 November 2026") > strings.Index(nav, "22 November 2026") {
			t.Errorf("a page of changes should list both batches, newest first, itself marked:\n%s", p.page)
		}
	}
	if !strings.Contains(olderPage, "<h1>What changed in the batch of 22 November 2026, 06:00 UTC</h1>") || !strings.Contains(olderPage, `<a href="../../crawlers/`) {
		t.Error("the earlier batch's page should name its date and link from two levels down")
	}
	if strings.Contains(page+olderPage, "butikk.test") || strings.Contains(page+olderPage, "Butikken") {
		t.Error("a site that never changed is listed on changes/")
	}
	if sm := string(read(t, out, "sitemap.xml")); !strings.Contains(sm, "/changes/20261122T060000Z/</loc>") {
		t.Error("the sitemap lacks the earlier batch's page of changes")
	}
	if !strings.Contains(newest, ">Avisa</a>") || strings.Contains(newest, "Kommunen") || !strings.Contains(newest, "1 of 3 sites changed") {
		t.Errorf("the newest batch should list Avisa alone:\n%s", newest)
	}
	for _, want := range []string{
		`<strong>Newly refused by robots.txt:</strong> <a href="../crawlers/ccbot/"><code>CCBot</code></a>`,
		`<strong>AI training:</strong> <span class="ai ai-no-objection-found">`, `→ <span class="ai ai-partly-refused">`,
		`<ul class="diff added" aria-label="Added"><li><bdi>User-agent: CCBot</bdi></li>`, `<li><bdi># a</bdi></li>`, `… and 3 more added`, // 3 shown, 2 cut + 1 counted before
		`<li><bdi>CCBot: allowed → disallowed</bdi></li>`,
	} {
		if !strings.Contains(newest, want) {
			t.Errorf("newest batch lacks %q", want)
		}
	}
	if strings.Contains(newest, "# b") {
		t.Error("changes/ shows more than the diff's first lines")
	}
	if strings.Contains(newest, "Let in again") {
		t.Error("a crawler let in where none was")
	}
	if !strings.Contains(older, ">Kommunen</a>") || !strings.Contains(older, ">Avisa</a>") ||
		!strings.Contains(older, `<ul class="diff removed" aria-label="Removed"><li><del><bdi>Gammel setning om maskinlæring.</bdi></del>`) ||
		!strings.Contains(older, `<ul class="diff added" aria-label="Added"><li><bdi>Ny setning om KI.</bdi></li>`) ||
		!strings.Contains(older, "2 of 3 sites changed") {
		t.Errorf("the older batch should list both sites with the terms' sentences:\n%s", older)
	}

	// last_changed: the newest batch that changed the site, null when none.
	var idx struct {
		Sites []struct {
			Host        string  `json:"host"`
			LastChanged *string `json:"last_changed"`
		} `json:"sites"`
	}
	if err := json.Unmarshal(read(t, out, "sites.json"), &idx); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"avis.test": "20261129T060000Z", "kommune.test": "20261122T060000Z", "butikk.test": ""}
	for _, s := range idx.Sites {
		got := ""
		if s.LastChanged != nil {
			got = *s.LastChanged
		}
		if got != want[s.Host] {
			t.Errorf("sites.json %s last_changed = %q, want %q", s.Host, got, want[s.Host])
		}
	}
	if !bytes.Contains(read(t, out, "sites.json"), []byte(`"last_changed":null`)) {
		t.Error("sites.json: a site that never changed should have last_changed null")
	}
	rows, err := csv.NewReader(bytes.NewReader(read(t, out, "sites.csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, h := range rows[0] {
		if h == "last_changed" {
			col = i
		}
	}
	if col < 0 {
		t.Fatal("sites.csv has no last_changed column")
	}
	for _, r := range rows[1:] {
		if r[col] != want[r[0]] {
			t.Errorf("sites.csv %s last_changed = %q, want %q", r[0], r[col], want[r[0]])
		}
	}

	// The view of the directory: the sites the newest batch changed.
	view := string(read(t, out, "changed/index.html"))
	if !strings.Contains(view, "avis.test/") || strings.Contains(view, `sites/kommune.test/"`) || strings.Contains(view, `sites/butikk.test/"`) {
		t.Errorf("changed/ should list avis.test alone")
	}
	home := string(read(t, out, "index.html"))
	if !strings.Contains(home, `href="./changed/"`) || !strings.Contains(home, `href="./changes/#batch-20261129T060000Z">changed 29 November 2026</a>`) ||
		!strings.Contains(home, `href="./changes/20261122T060000Z/#batch-20261122T060000Z">changed 22 November 2026</a>`) {
		t.Error("the directory links neither the view nor the change of a row")
	}

	// Feed entries list their items one per line.
	var f struct {
		Entries []struct {
			Summary string `xml:"summary"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(read(t, out, "sites/avis.test/feed.xml"), &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) == 0 || !strings.HasPrefix(f.Entries[0].Summary, "• robots.txt changed\n• CCBot: allowed → disallowed\n• AI use: no objection found → partly refused\n\nrobots.txt") {
		t.Errorf("feed summary does not list one item per line: %q", f.Entries)
	}
}

// TestSitePageCutsEarlierDiffs: a site's page shows its newest change
// with every line signals.json keeps, and each earlier change cut to the
// first lines of each diff, counting the rest, as changes/ does.
func TestSitePageCutsEarlierDiffs(t *testing.T) {
	sites := changedSites()
	avis := sites[0]
	lines := func(prefix string) []string {
		var out []string
		for i := 1; i <= 6; i++ {
			out = append(out, fmt.Sprintf("%s %d", prefix, i))
		}
		return out
	}
	avis.Changes[0].Diffs = []signals.Diff{{URL: "https://avis.test/robots.txt", What: "robots", Added: lines("Disallow: /new"), Removed: []string{}, MoreAdded: 2}}
	avis.Changes[1].Diffs = []signals.Diff{{URL: "https://avis.test/vilkar", What: "document", Added: lines("Ny setning"), Removed: lines("Gammel setning"), MoreRemoved: 1}}
	out := build(t, Input{Sites: sites})
	page := string(read(t, out, "sites/avis.test/index.html"))
	i := strings.Index(page, `<h2 id="changes">`)
	if i < 0 {
		t.Fatal("no changes section")
	}
	section := page[i:]
	section = section[:strings.Index(section, "</section>")]
	earlier := strings.Index(section, "Earlier changes, newest first")
	if earlier < 0 || strings.Count(section, "Earlier changes, newest first") != 1 {
		t.Fatalf("the note on earlier changes should come once, before them:\n%s", section)
	}
	newest, older := section[:earlier], section[earlier:]
	for n := 1; n <= 6; n++ {
		if !strings.Contains(newest, fmt.Sprintf("<bdi>Disallow: /new %d</bdi>", n)) {
			t.Errorf("the newest change lacks line %d of its diff", n)
		}
	}
	if !strings.Contains(newest, "… and 2 more added") {
		t.Error("the newest change should count what signals.json does not list")
	}
	for n := 1; n <= 3; n++ {
		if !strings.Contains(older, fmt.Sprintf("<bdi>Ny setning %d</bdi>", n)) || !strings.Contains(older, fmt.Sprintf("<bdi>Gammel setning %d</bdi>", n)) {
			t.Errorf("the earlier change lacks line %d of its diffs", n)
		}
	}
	if strings.Contains(older, "Ny setning 4") || strings.Contains(older, "Gammel setning 4") {
		t.Error("the earlier change shows more than its diffs' first lines")
	}
	if !strings.Contains(older, "… and 3 more added") || !strings.Contains(older, "… and 4 more removed") {
		t.Errorf("the earlier change should count the lines it cuts:\n%s", older)
	}
	// signals.json keeps the earlier diff as it was.
	var js struct {
		Changes []signals.Change `json:"changes"`
	}
	if err := json.Unmarshal(read(t, out, "sites/avis.test/signals.json"), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Changes) != 2 || len(js.Changes[1].Diffs) != 1 || len(js.Changes[1].Diffs[0].Added) != 6 {
		t.Errorf("signals.json should keep every listed line of the earlier change: %+v", js.Changes)
	}
}

// TestSiteFeedCutsDiffs: a site's feed carries each change's diffs cut to
// their first lines, counting the rest, and says where the rest is; a
// change whose diffs are short is carried whole, with no such note.
func TestSiteFeedCutsDiffs(t *testing.T) {
	sites := changedSites()
	avis := sites[0]
	var long []string
	for i := 1; i <= 6; i++ {
		long = append(long, fmt.Sprintf("Disallow: /new %d", i))
	}
	avis.Changes[0].Diffs = []signals.Diff{{URL: "https://avis.test/robots.txt", What: "robots", Added: long, Removed: []string{}, MoreAdded: 2}}
	avis.Changes[1].Diffs = []signals.Diff{{URL: "https://avis.test/vilkar", What: "document", Added: []string{"Ny setning"}, Removed: []string{"Gammel setning"}}}
	out := build(t, Input{Sites: sites})
	var f struct {
		Entries []struct {
			ID      string `xml:"id"`
			Summary string `xml:"summary"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(read(t, out, "sites/avis.test/feed.xml"), &f); err != nil {
		t.Fatal(err)
	}
	entry := func(batch string) string {
		for _, e := range f.Entries {
			if strings.HasSuffix(e.ID, "/batch/"+batch) {
				return e.Summary
			}
		}
		t.Fatalf("no feed entry for batch %s: %+v", batch, f.Entries)
		return ""
	}
	newest, older := entry(avis.Changes[0].Batch), entry(avis.Changes[1].Batch)
	for n := 1; n <= 3; n++ {
		if !strings.Contains(newest, fmt.Sprintf("\n+ Disallow: /new %d\n", n)) {
			t.Errorf("the entry lacks line %d of its diff:\n%s", n, newest)
		}
	}
	if strings.Contains(newest, "Disallow: /new 4") {
		t.Errorf("the entry carries more than the diff's first lines:\n%s", newest)
	}
	if !strings.Contains(newest, "\n+ (5 more)") || !strings.Contains(newest, "signals.json") {
		t.Errorf("the entry should count the lines it cuts and say where they are:\n%s", newest)
	}
	if !strings.Contains(older, "\n+ Ny setning\n− Gammel setning") || strings.Contains(older, "Only each file's first") {
		t.Errorf("a short diff should be carried whole, without the note:\n%s", older)
	}
}
