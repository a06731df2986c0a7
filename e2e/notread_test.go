package e2e_test

import (
	"encoding/csv"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnreadRobotsIsNoPolicy: a robots.txt that answered 401, 403, 429 or
// 503, or a challenge with 200, was not read, and every output says so in
// the words of design §6: robots.outcome and sites.json robots_outcome are
// "not-read" (never "disallow-all"), the CSV says the same, the schema
// offers no other value, the site page and its feed name reading nothing
// else as our rule, and no text anywhere says "everything on the host is
// disallowed" as if the site had said it. The cause is said once per
// host, not again in the detail of every planned address.
func TestUnreadRobotsIsNoPolicy(t *testing.T) {
	r := crawlFixtureWeb(t)
	unread := map[string]int{"laast.test": 401, "stengt.test": 403, "travelt.test": 429, "nede.test": 503, "vakt.test": 200}

	var index struct {
		Sites []struct {
			Host          string `json:"host"`
			RobotsOutcome string `json:"robots_outcome"`
		} `json:"sites"`
	}
	readJSONFile(t, filepath.Join(r.public, "sites.json"), &index)
	seen := 0
	for _, e := range index.Sites {
		if _, ok := unread[e.Host]; ok {
			seen++
			if e.RobotsOutcome != "not-read" {
				t.Errorf("sites.json %s: robots_outcome %q, want not-read", e.Host, e.RobotsOutcome)
			}
		}
	}
	if seen != len(unread) {
		t.Fatalf("sites.json lists %d of the %d sites", seen, len(unread))
	}

	f, err := os.Open(filepath.Join(r.public, "sites.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, h := range rows[0] {
		if h == "robots_outcome" {
			col = i
		}
	}
	for _, row := range rows[1:] {
		if _, ok := unread[row[0]]; ok && row[col] != "not-read" {
			t.Errorf("sites.csv %s: robots_outcome %q", row[0], row[col])
		}
	}

	for host, status := range unread {
		var s struct {
			Robots struct {
				Status  int    `json:"status"`
				Outcome string `json:"outcome"`
				Meaning string `json:"meaning"`
			} `json:"robots"`
			NotRead []struct {
				URL      string `json:"url"`
				Reason   string `json:"reason"`
				Detail   string `json:"detail"`
				FoundVia string `json:"found_via"`
			} `json:"not_read"`
			AIUse struct {
				Verdict string `json:"verdict"`
				Why     string `json:"why"`
			} `json:"ai_use"`
		}
		readJSONFile(t, filepath.Join(r.public, "sites", host, "signals.json"), &s)
		if s.Robots.Outcome != "not-read" || s.Robots.Status != status {
			t.Errorf("%s: robots %d %q, want %d not-read", host, s.Robots.Status, s.Robots.Outcome, status)
		}
		if !strings.Contains(s.Robots.Meaning, "our rule") {
			t.Errorf("%s: meaning does not name our rule: %q", host, s.Robots.Meaning)
		}
		if s.AIUse.Verdict != "unknown" {
			t.Errorf("%s: AI use %q", host, s.AIUse.Verdict)
		}
		if host == "vakt.test" && (strings.Contains(s.AIUse.Why, "answered HTTP 200") || !strings.Contains(s.AIUse.Why, "challenge")) {
			t.Errorf("%s: a challenge answered 200 reads %q", host, s.AIUse.Why)
		}
		details := map[string]bool{}
		for _, g := range s.NotRead {
			if g.Reason == "robots-unavailable" && g.FoundVia != "robots" {
				details[g.Detail] = true
				if strings.Contains(g.Detail, "HTTP") || strings.Contains(g.Detail, "challenge") {
					t.Errorf("%s: the cause is repeated in the gap of %s: %q", host, g.URL, g.Detail)
				}
				if !strings.Contains(g.Detail, "our rule") {
					t.Errorf("%s: gap of %s does not name our rule: %q", host, g.URL, g.Detail)
				}
			}
		}
		if len(details) == 0 {
			t.Errorf("%s: no address was left unread for robots.txt", host)
		}
		page := readText(t, filepath.Join(r.public, "sites", host, "index.html"))
		if !strings.Contains(page, "our rule") {
			t.Errorf("%s: the page does not name our rule", host)
		}
		feed := readText(t, filepath.Join(r.public, "sites", host, "feed.xml"))
		if strings.Contains(feed, "disallow-all") {
			t.Errorf("%s: the feed says disallow-all", host)
		}
	}

	schema := readText(t, filepath.Join(r.public, "schema", "signals.schema.json"))
	if !strings.Contains(schema, `"not-read"`) {
		t.Error("signals.schema.json does not offer not-read")
	}
	err = filepath.WalkDir(r.public, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".html", ".json", ".csv", ".xml", ".txt":
		default:
			return nil
		}
		text := readText(t, path)
		rel, _ := filepath.Rel(r.public, path)
		if strings.Contains(text, "disallow-all") {
			t.Errorf("%s says disallow-all", rel)
		}
		if strings.Contains(text, ": everything on the host is disallowed") {
			t.Errorf("%s says \"everything on the host is disallowed\" as if the site had said it", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
