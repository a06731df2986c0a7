package signals

import (
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// The meaning of each robots.txt outcome that needs no stored body.
func TestRobotsMeaningWithoutRules(t *testing.T) {
	cases := []struct {
		hr   evidence.HostRobots
		want string
	}{
		{evidence.HostRobots{Host: "a.test", Status: 404, Outcome: "none"}, "No robots.txt (HTTP 404)"},
		{evidence.HostRobots{Host: "a.test", Status: 503, Outcome: "disallow-all", Reason: "robots-unavailable"}, "answered HTTP 503"},
		{evidence.HostRobots{Host: "a.test", Status: 200, Outcome: "disallow-all", Reason: "robots-unavailable", Detail: "a Cloudflare challenge (cf-mitigated: challenge)"}, "could not be read as robots.txt (a Cloudflare challenge"},
		{evidence.HostRobots{Host: "a.test", Outcome: "disallow-all", Reason: "robots-unavailable", Detail: "connection refused"}, "could not be fetched (connection refused)"},
	}
	for _, c := range cases {
		r, err := robotsSection(nil, c.hr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Meaning, c.want) {
			t.Errorf("%+v: meaning %q, want %q", c.hr, r.Meaning, c.want)
		}
		allowed := c.hr.Outcome == "none"
		for _, a := range r.Agents {
			if a.RootAllowed != allowed {
				t.Errorf("%+v: %s root allowed = %v", c.hr, a.Agent, a.RootAllowed)
			}
		}
		if len(r.Agents) < 30 {
			t.Errorf("%d agents reported", len(r.Agents))
		}
	}
}
