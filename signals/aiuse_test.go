package signals

import (
	"slices"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/sites"
)

// A Content-Signal line in the * group speaks for the crawlers that read
// it: a crawler with a group of its own does not read the * group at all
// (RFC 9309, 2.2.1).
func TestContentSignalInTheStarGroup(t *testing.T) {
	yes := true
	line := ContentSignal{Kind: "Content-Signal", Agents: []string{"*"}, Line: 2, Text: "ai-train=no", Values: map[string]string{"ai-train": "no"}}
	cases := []struct {
		name     string
		gptGroup string
		want     string
		verdict  string
		says     string
	}{
		{"every AI crawler reads the * group", "star", ObjectsAll, AIRefused, ""},
		{"GPTBot has a group of its own", "own", ObjectsSome, AIPartlyRefused, "not read by GPTBot"},
	}
	for _, c := range cases {
		s := newSite(&sites.Site{Host: "x.test", URL: "https://x.test/"})
		s.Batch = "20261201T060000Z"
		s.Robots = Robots{URL: "https://x.test/robots.txt", Outcome: OutcomeRules, ContentSignals: []ContentSignal{line}, Agents: []Agent{
			{Agent: "GPTBot", ParserToken: "GPTBot", Category: "ai-training", Group: c.gptGroup, RootAllowed: &yes},
			{Agent: "ClaudeBot", ParserToken: "ClaudeBot", Category: "ai-training", Group: "star", RootAllowed: &yes},
			{Agent: "Googlebot", ParserToken: "Googlebot", Category: "search", Group: "own", RootAllowed: &yes},
		}}
		u := aiUse(s)
		var got []AISource
		for _, src := range u.Sources {
			if src.Kind == "content-signal" {
				got = append(got, src)
			}
		}
		if len(got) != 1 {
			t.Fatalf("%s: %d sources", c.name, len(got))
		}
		if got[0].Objects != c.want || u.Verdict != c.verdict {
			t.Errorf("%s: objects %q, verdict %q; want %q, %q", c.name, got[0].Objects, u.Verdict, c.want, c.verdict)
		}
		if !strings.Contains(got[0].Says, c.says) {
			t.Errorf("%s: says %q, want it to say %q", c.name, got[0].Says, c.says)
		}
	}
}

// TestAIUsePerCrawler: the case of a news site whose robots.txt refuses
// GPTBot and CCBot in their own groups and says Content-Signal:
// ai-train=no in the * group. Every AI training crawler meets an
// objection, GPTBot and CCBot from their groups, the others from the line
// of the group they read: refused, with each crawler's source.
func TestAIUsePerCrawler(t *testing.T) {
	body := strings.Join([]string{
		"User-agent: GPTBot", // 1
		"Disallow: /",        // 2
		"",                   // 3
		"User-agent: CCBot",  // 4
		"Disallow: /",        // 5
		"",                   // 6
		"User-agent: *",      // 7
		"Content-Signal: search=yes, ai-train=no", // 8
		"Allow: /", // 9
	}, "\n")
	s := siteWithRobots(t, body)
	u := aiUse(s)
	if u.Verdict != AIRefused {
		t.Fatalf("verdict %q (%s), want refused", u.Verdict, u.Why)
	}
	if len(u.Crawlers) < 10 || len(u.Refused) != len(u.Crawlers) {
		t.Errorf("%d of %d crawlers refused", len(u.Refused), len(u.Crawlers))
	}
	if len(u.RobotsRefused) != 2 || !slices.Contains(u.RobotsAllowed, "ClaudeBot") {
		t.Errorf("robots.txt alone: refuses %v, allows %v", u.RobotsRefused, u.RobotsAllowed)
	}
	for _, c := range u.Crawlers {
		if !c.Refused || len(c.Objections) != 1 {
			t.Errorf("%s: refused %v by %v", c.Agent, c.Refused, c.Objections)
			continue
		}
		src := u.Sources[c.Objections[0]]
		switch c.Agent {
		case "GPTBot", "CCBot":
			if src.Kind != "robots" || c.Robots != AgentDisallowed || c.Group != "own" {
				t.Errorf("%s: objection %+v, robots %s", c.Agent, src, c.Robots)
			}
		default:
			if src.Kind != "content-signal" || src.Line != 8 || c.Robots != AgentAllowed || c.Group != "star" {
				t.Errorf("%s: objection %+v, robots %s", c.Agent, src, c.Robots)
			}
		}
	}
	if strings.Contains(u.Why, "partly") || !strings.Contains(u.Why, "every one of the") {
		t.Errorf("why: %q", u.Why)
	}

	// The same line limited to a path, and a crawler's own group that
	// allows: partly refused, the crawlers named.
	s = siteWithRobots(t, strings.Replace(body, "Content-Signal: search=yes, ai-train=no", "Content-Signal: /news/ ai-train=no", 1))
	u = aiUse(s)
	if u.Verdict != AIPartlyRefused || len(u.Refused) != 2 {
		t.Errorf("path-limited line: %q, refused %v", u.Verdict, u.Refused)
	}
	// Nothing objects but GPTBot's and CCBot's groups: partly refused.
	s = siteWithRobots(t, strings.Replace(body, "Content-Signal: search=yes, ai-train=no", "Content-Signal: search=yes", 1))
	if u = aiUse(s); u.Verdict != AIPartlyRefused || !slices.Equal(u.Refused, u.RobotsRefused) {
		t.Errorf("no line: %q, refused %v", u.Verdict, u.Refused)
	}
	// A TDMRep reservation covers every crawler: refused.
	s.Signals.TDMReservation = &TDMRep{URL: "https://x.test/.well-known/tdmrep.json", Reservation: true, Source: "tdmrep.json"}
	if u = aiUse(s); u.Verdict != AIRefused {
		t.Errorf("TDMRep: %q", u.Verdict)
	}
}

// siteWithRobots is a site read in one batch whose home robots.txt is body.
func siteWithRobots(t *testing.T, body string) *Site {
	t.Helper()
	s := newSite(&sites.Site{Host: "x.test", URL: "https://x.test/"})
	s.Batch = "20261201T060000Z"
	f := robots.Parse([]byte(body))
	s.Robots = Robots{URL: "https://x.test/robots.txt", Outcome: OutcomeRules, Status: 200}
	for _, v := range f.Report(robots.Agents()) {
		root := v.RootAllowed
		s.Robots.Agents = append(s.Robots.Agents, Agent{Agent: v.Agent, ParserToken: v.Token, Category: v.Category, Group: v.Group, RootAllowed: &root, Line: v.Line})
	}
	s.Robots.Groups, s.Robots.ContentSignals = groups(f)
	return s
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
