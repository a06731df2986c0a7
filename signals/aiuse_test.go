package signals

import (
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/sites"
)

// A Content-Signal line in the * group speaks for all only when no AI
// training crawler of our list follows a group of its own: such a crawler
// does not read the * group at all (RFC 9309, 2.2.1).
func TestContentSignalInTheStarGroup(t *testing.T) {
	yes := true
	line := ContentSignal{Kind: "Content-Signal", Agents: []string{"*"}, Line: 2, Text: "ai-train=no", Values: map[string]string{"ai-train": "no"}}
	cases := []struct {
		name     string
		gptGroup string
		want     string
		says     string
	}{
		{"every AI crawler reads the * group", "star", ObjectsAll, ""},
		{"GPTBot has a group of its own", "own", ObjectsSome, "not read by GPTBot"},
	}
	for _, c := range cases {
		r := Robots{URL: "https://x.test/robots.txt", ContentSignals: []ContentSignal{line}, Agents: []Agent{
			{Agent: "GPTBot", Category: "ai-training", Group: c.gptGroup, RootAllowed: &yes},
			{Agent: "ClaudeBot", Category: "ai-training", Group: "star", RootAllowed: &yes},
			{Agent: "Googlebot", Category: "search", Group: "own", RootAllowed: &yes},
		}}
		got := contentSignalSources(r, true)
		if len(got) != 1 {
			t.Fatalf("%s: %d sources", c.name, len(got))
		}
		if got[0].Objects != c.want {
			t.Errorf("%s: objects %q, want %q", c.name, got[0].Objects, c.want)
		}
		if !strings.Contains(got[0].Says, c.says) {
			t.Errorf("%s: says %q, want it to say %q", c.name, got[0].Says, c.says)
		}
	}
}

// A verdict does not hide a document whose terms we could not read for
// meaning: its reason says so.
func TestAIWhyNamesDocumentsNotReadForMeaning(t *testing.T) {
	s := newSite(&sites.Site{Host: "x.test", URL: "https://x.test/"})
	s.Batch, s.Robots.Outcome = "20261201T060000Z", "rules"
	s.Read = []Document{{URL: "https://x.test/cgu", Role: RolePolicy, Language: "fr", NotReadForMeaning: true}}
	u := aiUse(s)
	if u.Verdict != AINoObjection || !strings.Contains(u.Why, "not read for meaning") {
		t.Errorf("verdict %q why %q; want no objection found, saying one document was not read for meaning", u.Verdict, u.Why)
	}
}
