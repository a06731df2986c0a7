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
			[]string{"answered HTTP 503", "do not know", "RFC 9309 tells a crawler that gets a server error to assume everything", "our rule follows it"}, "our rule is stricter"},
		{evidence.HostRobots{Host: "a.test", Status: 403, Outcome: "disallow-all", Reason: "robots-unavailable"},
			[]string{"answered HTTP 403", "do not know", "RFC 9309 lets a crawler that gets a 4xx answer read everything", "our rule is stricter"}, "assume everything"},
		{evidence.HostRobots{Host: "a.test", Status: 429, Outcome: "disallow-all", Reason: "robots-unavailable"},
			[]string{"answered HTTP 429", "our rule is stricter"}, "assume everything"},
		{evidence.HostRobots{Host: "a.test", Status: 200, Outcome: "disallow-all", Reason: "bot-challenge", Detail: "a Cloudflare challenge (cf-mitigated: challenge)"},
			[]string{"a bot challenge answered in its place, with a Cloudflare challenge", "is our rule"}, "answered HTTP 200"},
		{evidence.HostRobots{Host: "a.test", Outcome: "disallow-all", Reason: "robots-unavailable", Detail: "connection refused"},
			[]string{"could not be fetched (connection refused)", "cannot reach robots.txt to assume everything", "our rule"}, ""},
		// An older batch's record, its detail saying what our crawler did as
		// if the site had said it: the export keeps the cause alone.
		{evidence.HostRobots{Host: "a.test", Status: 401, Outcome: "disallow-all", Reason: "robots-unavailable", Detail: "robots.txt answered HTTP 401: everything on the host is disallowed"},
			[]string{"it answered HTTP 401", "RFC 9309 lets a crawler that gets a 4xx answer read everything", "our rule is stricter"}, "everything on the host is disallowed"},
	}
	for _, c := range cases {
		r, err := robotsSection(nil, c.hr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]string{"none": OutcomeNone}[c.hr.Outcome]; want == "" && r.Outcome != OutcomeNotRead || want != "" && r.Outcome != want {
			t.Errorf("HTTP %d: outcome %q", c.hr.Status, r.Outcome)
		}
		if strings.Contains(r.Detail, "everything on the host is disallowed") {
			t.Errorf("HTTP %d: detail %q speaks of our rule as the site's", c.hr.Status, r.Detail)
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
