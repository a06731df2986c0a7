package e2e_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals/signals"
)

// The views across sites (issue 12), judged from the demo's published files.

// agents.json files each site under the right verdict for a crawler with its
// own group (GPTBot on avis.test), one that follows * (ClaudeBot there), and
// one whose robots.txt was not read (nede.test: unknown).
func TestAgentsJSON(t *testing.T) {
	r := crawlFixtureWeb(t)
	var idx signals.AgentsIndex
	if err := json.Unmarshal([]byte(readPublic(t, r, "agents.json")), &idx); err != nil {
		t.Fatal(err)
	}
	if _, err := time.Parse(time.RFC3339, idx.Generated); err != nil {
		t.Errorf("generated %q: %v", idx.Generated, err)
	}
	byAgent := map[string]signals.AgentIndex{}
	for _, a := range idx.Agents {
		byAgent[a.Agent] = a
	}
	if len(byAgent) < 40 {
		t.Fatalf("%d crawlers in agents.json", len(byAgent))
	}
	gpt, claude := byAgent["GPTBot"], byAgent["ClaudeBot"]
	if gpt.Operator != "OpenAI" || gpt.Purpose == "" {
		t.Errorf("GPTBot: %+v", gpt)
	}
	cases := []struct {
		a           signals.AgentIndex
		host, where string
	}{
		{gpt, "avis.test", "disallowed"},    // its own group: Disallow: /
		{claude, "avis.test", "allowed"},    // follows the * group
		{gpt, "nede.test", "unknown"},       // robots.txt answered 503
		{gpt, "stopp.test", "unknown"},      // asked us to stop
		{claude, "kommune.test", "allowed"}, // no group disallows it
		{gpt, "travelt.test", "unknown"},    // robots.txt answered 429
	}
	for _, c := range cases {
		lists := map[string][]string{"allowed": c.a.Allowed, "disallowed": c.a.Disallowed, "unknown": c.a.Unknown}
		for where, hosts := range lists {
			if slices.Contains(hosts, c.host) != (where == c.where) {
				t.Errorf("%s: %s listed under %s = %v, want it under %s only", c.a.Agent, c.host, where, slices.Contains(hosts, c.host), c.where)
			}
		}
	}
	if len(gpt.Batches) != 1 || !slices.Contains(gpt.Batches[0].Disallowed, "avis.test") || slices.Contains(gpt.Batches[0].Disallowed, "stopp.test") {
		t.Errorf("GPTBot batches: %+v", gpt.Batches)
	}
	// The crawler's page names the hosts, and draws its chart at build time.
	page := readPublic(t, r, "crawlers/gptbot/index.html")
	for _, want := range []string{`href="../../sites/avis.test/"`, `href="../../sites/nede.test/"`, `<svg data-chart="trend" role="img"`,
		`<rect `, "Disallow GPTBot (", "Unknown ("} {
		if !strings.Contains(page, want) {
			t.Errorf("crawlers/gptbot/: lacks %q", want)
		}
	}
	// Its counts agree, or say why not (issue 39, item 9): the headline
	// and the categories count every reviewed site, unknown where no batch
	// read it; the batch's row counts the sites that batch read, and the
	// table says that a site no batch read is in no row.
	head := regexp.MustCompile(`(\d+) disallow</span> · (\d+) allow · (\d+) unknown`).FindStringSubmatch(page)
	if head == nil {
		t.Fatal("crawlers/gptbot/: no headline counts")
	}
	var catSum [3]int
	for _, m := range regexp.MustCompile(`<td data-label="Disallow" class="num">(\d+)</td><td data-label="Allow" class="num">(\d+)</td><td data-label="Unknown" class="num">(\d+)</td>`).FindAllStringSubmatch(page[strings.Index(page, `id="by-category"`):], -1) {
		for k := range catSum {
			n, _ := strconv.Atoi(m[k+1])
			catSum[k] += n
		}
	}
	if fmt.Sprint(catSum[0], catSum[1], catSum[2]) != head[1]+" "+head[2]+" "+head[3] {
		t.Errorf("crawlers/gptbot/: the categories total %v, the headline says %v", catSum, head[1:])
	}
	inBatch := len(gpt.Batches[0].Disallowed) + len(gpt.Batches[0].Allowed) + len(gpt.Batches[0].Unknown)
	if total := len(gpt.Disallowed) + len(gpt.Allowed) + len(gpt.Unknown); inBatch != total && !strings.Contains(page, "A reviewed site that no batch read") {
		t.Errorf("crawlers/gptbot/: the batch counts %d sites, the headline %d, and the page does not say why", inBatch, total)
	}
	if !strings.Contains(readPublic(t, r, "crawlers/chatgpt-agent/index.html"), "ChatGPT Agent") {
		t.Error("a token with a space has no page")
	}
	cmp := readPublic(t, r, "compare/index.html")
	for _, want := range []string{`href="../sites/avis.test/"`, "<code>GPTBot</code>", "ai-train=no", "reserved"} {
		if !strings.Contains(cmp, want) {
			t.Errorf("compare/: lacks %q", want)
		}
	}
}

// sites.csv: a column per AI training crawler, the AI use verdict and the
// site's address.
func TestSitesCSVColumns(t *testing.T) {
	r := crawlFixtureWeb(t)
	rows, err := csv.NewReader(strings.NewReader(readPublic(t, r, "sites.csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, h := range []string{"url", "ai_use", "robots_GPTBot", "robots_ClaudeBot", "robots_CCBot", "robots_Google-Extended", "open_by_design"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("sites.csv has no column %q: %v", h, rows[0])
		}
	}
	for _, row := range rows[1:] {
		switch row[0] {
		case "avis.test":
			if row[col["robots_GPTBot"]] != "disallowed" || row[col["robots_ClaudeBot"]] != "allowed" || row[col["url"]] != "https://avis.test/" {
				t.Errorf("avis.test row: %v", row)
			}
		case "nede.test":
			if row[col["robots_GPTBot"]] != "unknown" || row[col["ai_use"]] != "unknown" || row[col["open_by_design"]] != "" {
				t.Errorf("nede.test row: %v", row)
			}
		}
	}
}

// The directory's views work without JavaScript: a page per AI use verdict,
// per Open by design verdict, and for sites with gaps.
func TestDirectoryViews(t *testing.T) {
	r := crawlFixtureWeb(t)
	cases := []struct {
		path       string
		has, lacks []string
	}{
		{"ai/refused/index.html", []string{"sites/avis.test/", "sites/feed.test/"}, []string{"sites/nede.test/"}},
		{"ai/unknown/index.html", []string{"sites/nede.test/", "sites/stopp.test/", "sites/vakt.test/"}, []string{"sites/avis.test/"}},
		{"open/not-determined/index.html", []string{"sites/nede.test/", "sites/app.test/"}, []string{"sites/kommune.test/"}},
		{"open/yes/index.html", []string{"sites/kommune.test/"}, []string{"sites/avis.test/"}},
		{"gaps/index.html", []string{"sites/nede.test/", "sites/avis.test/"}, []string{"sites/kommune.test/\""}},
	}
	for _, c := range cases {
		page := readPublic(t, r, c.path)
		for _, h := range c.has {
			if !strings.Contains(page, h) {
				t.Errorf("%s lacks %s", c.path, h)
			}
		}
		for _, h := range c.lacks {
			if strings.Contains(page, `href="../../`+h) || strings.Contains(page, `href="../`+h) {
				t.Errorf("%s lists %s", c.path, h)
			}
		}
	}
	if idx := readPublic(t, r, "index.html"); !strings.Contains(idx, `href="./ai/refused/"`) || !strings.Contains(idx, `href="./gaps/"`) {
		t.Error("the directory does not link its views")
	}
}
