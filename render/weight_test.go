package render

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/internal/pageweight"
	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
)

// TestPageWeight builds a synthetic directory (every section of each site's
// page filled, the whole list of crawlers, robots.txt as a news site often
// writes it) and prints what each kind of file
// weighs, per file and per site: `go test -run TestPageWeight -v ./render/`
// (WEIGHT_SITES=N for another size). A published site must stay far inside
// GitHub Pages' 1 GB at 10,000 sites. WEIGHT_DIR=public measures a folder
// built elsewhere instead (the demo's, a real build).
func TestPageWeight(t *testing.T) {
	n := 200
	if v, err := strconv.Atoi(os.Getenv("WEIGHT_SITES")); err == nil && v > 0 {
		n = v
	}
	if dir := os.Getenv("WEIGHT_DIR"); dir != "" {
		// A folder built elsewhere (the demo's, a real build): measured
		// and printed, not judged.
		sites, err := os.ReadDir(filepath.Join(dir, "sites"))
		if err != nil {
			t.Fatal(err)
		}
		weights, err := pageweight.Weights(dir)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		pageweight.WriteWeights(&b, weights, len(sites))
		t.Logf("%s, %d sites:\n%s", dir, len(sites), b.String())
		return
	}
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if err := r.Build(context.Background(), out, Input{Sites: weightSites(n), Content: testContent}); err != nil {
		t.Fatal(err)
	}
	weights, err := pageweight.Weights(out)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	pageweight.WriteWeights(&b, weights, n)
	t.Logf("%d synthetic sites:\n%s", n, b.String())
	// The goal is 40 KiB a site (issue 25); what is built today is near
	// 70 KiB (from 99 KiB), so this guards what was gained: a page or an
	// export that grows back past it fails here.
	const guard = 72 << 10
	per := pageweight.PerSite(weights, n)
	t.Logf("%d bytes per site; the goal is %d (40 KiB)", per, 40<<10)
	if per > guard {
		t.Errorf("the built folder weighs %d bytes per site, over %d", per, guard)
	}
}

// weightSites are manySites with robots.txt as sites often write it: own
// groups that refuse GPTBot and CCBot, every other crawler in the * group
// with no rule against "/". (manySites gives every crawler a deciding line
// of its own, the heaviest agents table there can be.)
func weightSites(n int) []*signals.Site {
	var agents []signals.Agent
	for _, a := range robots.Agents() {
		ag := signals.Agent{Agent: a.Token, ParserToken: a.ParserToken(), Note: a.Note, Operator: a.Operator,
			Purpose: a.Purpose, Category: a.Category, Group: "star", RootAllowed: ptr(true)}
		switch a.Token {
		case "GPTBot":
			ag.Group, ag.RootAllowed, ag.Line = "own", ptr(false), 9
		case "CCBot":
			ag.Group, ag.RootAllowed, ag.Line = "own", ptr(false), 9
		case "crawlsignals":
			ag.Group, ag.Line = "own", 4
		}
		agents = append(agents, ag)
	}
	all := manySites(n)
	for _, s := range all {
		s.Robots.Agents = agents
	}
	return all
}
