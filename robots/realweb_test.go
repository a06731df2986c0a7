package robots

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// realwebSite is one entry of ../shared/realweb/robots/expected.json.
type realwebSite struct {
	File   string `json:"file"`
	Bytes  int    `json:"bytes"`
	SHA256 string `json:"sha256"`
	Agents map[string]struct {
		Follows     string `json:"follows"`
		RootAllowed bool   `json:"root_allowed"`
	} `json:"agents"`
	Paths []struct {
		Path         string          `json:"path"`
		Allowed      map[string]bool `json:"allowed"`
		DecidingStar *string         `json:"deciding_rule_for_*"`
	} `json:"paths"`
	Sitemaps   []string `json:"sitemaps"`
	CrawlDelay []struct {
		Value       string   `json:"value"`
		Line        int      `json:"line"`
		GroupAgents []string `json:"group_agents"`
	} `json:"crawl_delay"`
	Prohibits        bool     `json:"comments_prohibit_crawling"`
	ProhibitionLines []string `json:"prohibition_comment_lines"`
}

func loadRealweb(t *testing.T) (string, map[string]realwebSite) {
	t.Helper()
	dir := filepath.Join(sharedDir(), "realweb", "robots")
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if os.IsNotExist(err) {
		t.Skipf("real robots.txt files not found in %s (a clone outside the project's environment): skipping", dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	sites := map[string]realwebSite{}
	for host, msg := range raw {
		if strings.HasPrefix(host, "_") {
			continue
		}
		var s realwebSite
		if err := json.Unmarshal(msg, &s); err != nil {
			t.Fatalf("expected.json %s: %v", host, err)
		}
		sites[host] = s
	}
	return filepath.Dir(dir), sites
}

func TestRealWeb(t *testing.T) {
	root, sites := loadRealweb(t)
	hosts := make([]string, 0, len(sites))
	for h := range sites {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	checks := 0
	for _, host := range hosts {
		want := sites[host]
		t.Run(host, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join(root, want.File))
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(body)
			if len(body) != want.Bytes || hex.EncodeToString(sum[:]) != want.SHA256 {
				t.Fatalf("%s is not the file expected.json describes", want.File)
			}
			f := Parse(body)
			for agent, w := range want.Agents {
				kind, _ := f.GroupFor(agent)
				if wk := followsKind(w.Follows); kind != wk {
					t.Errorf("%s: group %s, want %s", agent, kind, wk)
				}
				if got, line := f.Allowed(agent, "https://"+host+"/"); got != w.RootAllowed {
					t.Errorf("%s: / allowed=%v (line %d), want %v", agent, got, line, w.RootAllowed)
				}
				if ok, _ := f.Allowed(agent, "https://"+host+"/robots.txt"); !ok {
					t.Errorf("%s: /robots.txt is not allowed", agent)
				}
				checks += 3
			}
			for _, p := range want.Paths {
				for agent, allowed := range p.Allowed {
					if got, line := f.Allowed(agent, "https://"+host+p.Path); got != allowed {
						t.Errorf("%s %s: allowed=%v (line %d: %q), want %v", agent, p.Path, got, line, f.Line(line), allowed)
					}
					checks++
				}
				_, line := f.Allowed("*", "https://"+host+p.Path)
				checkDeciding(t, f, p.Path, line, p.DecidingStar)
				checks++
			}
			if got := f.Sitemaps(); !equalStrings(got, want.Sitemaps) {
				t.Errorf("sitemaps %q, want %q", got, want.Sitemaps)
			}
			checkDelays(t, f, want)
			checkProhibiting(t, f, want)
			checks += 3
		})
	}
	t.Logf("%d files, %d checks", len(hosts), checks)
}

func followsKind(s string) string {
	switch s {
	case "own group":
		return "own"
	case "* group":
		return "star"
	}
	return "none"
}

// checkDeciding compares the deciding line with expected.json's "Disallow:
// /x" (null: no rule decided).
func checkDeciding(t *testing.T, f *File, path string, line int, want *string) {
	t.Helper()
	if want == nil {
		if line != 0 {
			t.Errorf("* %s: decided by line %d %q, want no rule", path, line, f.Line(line))
		}
		return
	}
	r, ok := f.RuleAt(line)
	if !ok {
		t.Errorf("* %s: no deciding rule (line %d), want %q", path, line, *want)
		return
	}
	key, val, _ := strings.Cut(*want, ":")
	wantAllow := strings.EqualFold(strings.TrimSpace(key), "allow")
	if r.Allow != wantAllow || r.Path != strings.TrimSpace(val) {
		t.Errorf("* %s: decided by line %d %q, want %q", path, line, r.String(), *want)
	}
}

func checkDelays(t *testing.T, f *File, want realwebSite) {
	t.Helper()
	type delay struct {
		value  string
		line   int
		agents string
	}
	var got []delay
	for _, g := range f.Groups() {
		for _, d := range g.Delays {
			got = append(got, delay{d.Value, d.Line, strings.Join(g.AgentNames(), ",")})
		}
	}
	for _, e := range f.Outside() {
		if classify(e.Key) == kindCrawlDelay {
			got = append(got, delay{e.Value, e.Line, "(outside any group)"})
		}
	}
	var exp []delay
	for _, d := range want.CrawlDelay {
		exp = append(exp, delay{d.Value, d.Line, strings.Join(d.GroupAgents, ",")})
	}
	if len(got) != len(exp) {
		t.Errorf("crawl-delay lines %v, want %v", got, exp)
		return
	}
	for i := range got {
		if got[i] != exp[i] {
			t.Errorf("crawl-delay %v, want %v", got[i], exp[i])
		}
	}
	// The delay that applies to us is the "*" group's, as we have no group.
	for _, d := range want.CrawlDelay {
		if !contains(d.GroupAgents, "*") {
			continue
		}
		secs, ok := f.CrawlDelay("crawlsignals")
		if !ok || formatSeconds(secs) != d.Value {
			t.Errorf("CrawlDelay(crawlsignals) = %v, %v; want %s", secs, ok, d.Value)
		}
	}
}

func checkProhibiting(t *testing.T, f *File, want realwebSite) {
	t.Helper()
	got := f.ProhibitingComments()
	if (len(got) > 0) != want.Prohibits {
		t.Errorf("prohibiting comments %v, want any: %v", got, want.Prohibits)
	}
	var texts []string
	for _, c := range got {
		texts = append(texts, c.Text)
		if !strings.Contains(f.Line(c.Line), c.Text) {
			t.Errorf("comment %q is not the text of line %d %q", c.Text, c.Line, f.Line(c.Line))
		}
	}
	var exp []string
	for _, l := range want.ProhibitionLines {
		exp = append(exp, strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#")))
	}
	if !equalStrings(texts, exp) {
		t.Errorf("prohibiting comments\n got %q\nwant %q", texts, exp)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
