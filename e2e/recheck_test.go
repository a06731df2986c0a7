package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/fixture"
)

// TestRecheckOnlyThatHost crawls the fixture web, then re-checks one site
// right away (the real binary), and judges it from the fixture server's
// log: the recheck asks only that site's hosts, for the same addresses the
// batch asked them, except robots.txt, which is less than 24 h old and
// reused; its first request to each host waits the recheck's floor after
// the batch's last request to that host ended; the page says it was
// re-checked on request. Then a blocked site: recheck refuses, sending
// nothing, and so does crawl -site.
func TestRecheckOnlyThatHost(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the crawler")
	}
	w := startFixtureWeb(t)
	dir := t.TempDir()
	batches := filepath.Join(dir, "batches")
	public := filepath.Join(dir, "public")
	run(t, 0, w.crawlArgs("crawl", "-min-delay", "100ms", "-batches", batches)...)
	crawled := w.srv.SettledLog(5 * time.Second)

	const floor = 700 * time.Millisecond
	site, _ := w.list.Lookup("kommune.test")
	mine := map[string]bool{}
	for _, h := range site.Hosts {
		mine[h] = true
	}
	before := map[string]bool{}
	lastEnd := map[string]time.Time{}
	for _, r := range crawled {
		if mine[r.Host] {
			if !strings.HasPrefix(r.Path, "/robots.txt") {
				before[address(r)] = true
			}
			if r.End.After(lastEnd[r.Host]) {
				lastEnd[r.Host] = r.End
			}
		}
	}
	out := run(t, 0, w.crawlArgs("recheck", "-min-delay", floor.String(), "-batches", batches, "-out", public, "-content", "content", "kommune.test")...)
	log := w.srv.SettledLog(5 * time.Second)[len(crawled):]
	if len(log) == 0 {
		t.Fatalf("recheck made no request:\n%s", out)
	}
	after := map[string]bool{}
	firstAt := map[string]time.Time{}
	for _, r := range log {
		if !mine[r.Host] {
			t.Errorf("recheck of kommune.test asked another host: %s", address(r))
			continue
		}
		if strings.HasPrefix(r.Path, "/robots.txt") {
			t.Errorf("recheck asked for %s again; the batch's answer is less than 24 h old", address(r))
		}
		after[address(r)] = true
		if _, ok := firstAt[r.Host]; !ok {
			firstAt[r.Host] = r.Start
		}
	}
	if !mapsEqual(before, after) {
		t.Errorf("recheck addresses differ from the batch's:\nbatch:   %v\nrecheck: %v", keys(before), keys(after))
	}
	for h, at := range firstAt {
		if gap := at.Sub(lastEnd[h]); gap < floor {
			t.Errorf("%s: recheck's first request %s after the batch's last ended; the floor is %s", h, gap, floor)
		}
	}

	// The recheck is its own batch, of kind recheck, and the page says so.
	names, _ := evidence.Batches(batches)
	if len(names) != 2 {
		t.Fatalf("batches: %v", names)
	}
	rec, err := evidence.ReadBatchStart(filepath.Join(batches, names[1]), "")
	if err != nil || rec.Kind != "recheck" || !slices.Equal(rec.Sites, []string{"kommune.test"}) || rec.SitesSHA256 == "" {
		t.Errorf("recheck batch.json: %+v, %v", rec, err)
	}
	data, err := os.ReadFile(filepath.Join(public, "sites", "kommune.test", "signals.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Batch     string   `json:"batch"`
		Rechecked []string `json:"rechecked"`
	}
	json.Unmarshal(data, &s)
	today := time.Now().UTC().Format(time.DateOnly)
	if s.Batch != names[1] || !slices.Contains(s.Rechecked, today) {
		t.Errorf("signals.json: batch %s, rechecked %v; want %s and %s", s.Batch, s.Rechecked, names[1], today)
	}
	page, _ := os.ReadFile(filepath.Join(public, "sites", "kommune.test", "index.html"))
	if !strings.Contains(string(page), "Re-checked on request on") {
		t.Error("the site's page does not say it was re-checked on request")
	}

	// A blocked site: refused, nothing sent.
	n := len(w.srv.Log())
	refusal := run(t, 1, w.crawlArgs("recheck", "-min-delay", "100ms", "-batches", batches, "-out", public, "stopp.test")...)
	if !strings.Contains(refusal, "asked us to stop") {
		t.Errorf("recheck of a blocked site:\n%s", refusal)
	}
	run(t, 0, w.crawlArgs("crawl", "-min-delay", "100ms", "-batches", batches, "-site", "stopp.test")...)
	if extra := w.srv.SettledLog(5 * time.Second)[n:]; len(extra) > 0 {
		t.Errorf("requests after recheck and crawl of a blocked site: %v", extra)
	}
	assertNoneTo(t, w.srv.Log(), w.blockedHosts())
}

func assertNoneTo(t *testing.T, log []fixture.Request, blocked map[string]bool) {
	t.Helper()
	for _, r := range log {
		if blocked[r.Host] {
			t.Errorf("request to a site that asked us to stop: %s", address(r))
		}
	}
}

func mapsEqual(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
