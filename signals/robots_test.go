package signals

import (
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// The meaning of each robots.txt outcome that needs no stored body, and
// what it makes of every other crawler: allowed when there is no file,
// unknown (nil, never "disallowed") when the file was not read.
func TestRobotsMeaningWithoutRules(t *testing.T) {
	cases := []struct {
		hr       evidence.HostRobots
		want     []string
		unwanted string
	}{
		{evidence.HostRobots{Host: "a.test", Status: 404, Outcome: "none"}, []string{"No robots.txt (HTTP 404)"}, ""},
		{evidence.HostRobots{Host: "a.test", Status: 503, Outcome: "disallow-all", Reason: "robots-unavailable"},
			[]string{"answered HTTP 503", "do not know", "RFC 9309 tells a crawler that gets a server error to assume everything"}, "our rule"},
		{evidence.HostRobots{Host: "a.test", Status: 403, Outcome: "disallow-all", Reason: "robots-unavailable"},
			[]string{"answered HTTP 403", "do not know", "RFC 9309 lets a crawler that gets a 4xx answer read everything", "our rule is stricter"}, "assume everything"},
		{evidence.HostRobots{Host: "a.test", Status: 429, Outcome: "disallow-all", Reason: "robots-unavailable"},
			[]string{"answered HTTP 429", "our rule is stricter"}, "assume everything"},
		{evidence.HostRobots{Host: "a.test", Status: 200, Outcome: "disallow-all", Reason: "bot-challenge", Detail: "a Cloudflare challenge (cf-mitigated: challenge)"},
			[]string{"something other than robots.txt in its place (a Cloudflare challenge", "is our rule"}, ""},
		{evidence.HostRobots{Host: "a.test", Outcome: "disallow-all", Reason: "robots-unavailable", Detail: "connection refused"},
			[]string{"could not be fetched (connection refused)", "cannot reach robots.txt to assume everything"}, ""},
	}
	for _, c := range cases {
		r, err := robotsSection(nil, c.hr, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(r.Meaning, w) {
				t.Errorf("HTTP %d: meaning %q, want %q", c.hr.Status, r.Meaning, w)
			}
		}
		if c.unwanted != "" && strings.Contains(r.Meaning, c.unwanted) {
			t.Errorf("HTTP %d: meaning %q says %q", c.hr.Status, r.Meaning, c.unwanted)
		}
		for _, a := range r.Agents {
			switch {
			case c.hr.Outcome == "none" && (a.RootAllowed == nil || !*a.RootAllowed):
				t.Errorf("no file: %s root allowed = %v, want true", a.Agent, a.RootAllowed)
			case c.hr.Outcome != "none" && (a.RootAllowed != nil || a.Verdict() != AgentUnknown):
				t.Errorf("HTTP %d: %s root allowed = %v, want unknown", c.hr.Status, a.Agent, *a.RootAllowed)
			}
		}
		if len(r.Agents) < 30 {
			t.Errorf("%d agents reported", len(r.Agents))
		}
	}
}
