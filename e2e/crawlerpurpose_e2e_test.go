package e2e_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/signals"
)

// TestCrawlerPagesPerPurpose: a crawler's page and its entry in agents.json
// give, beside robots.txt's word to the crawler, each site's verdict for
// the crawler's purpose with every signal counted and what it rests on.
// svar.test's robots.txt lets every crawler in, and its Content-Signal line
// says ai-input=no: OAI-SearchBot (AI answers) is refused there, GPTBot
// (training) meets no objection.
func TestCrawlerPagesPerPurpose(t *testing.T) {
	r := crawlPurposeHosts(t)
	agent := func(token string) signals.AgentIndex {
		for _, a := range r.agents.Agents {
			if a.Agent == token {
				return a
			}
		}
		t.Fatalf("agents.json lacks %s", token)
		return signals.AgentIndex{}
	}
	cases := []struct {
		token, slug, purpose string
		refused, clear       []string // hosts refused, hosts with no objection found
	}{
		{"OAI-SearchBot", "oai-searchbot", signals.PurposeAnswers, []string{"svar.test"}, []string{"app.test"}},
		{"GPTBot", "gptbot", signals.PurposeTraining, []string{"bruk.test"}, []string{"svar.test", "app.test"}},
	}
	for _, c := range cases {
		a := agent(c.token)
		pv := a.PurposeVerdicts
		if pv == nil || pv.Purpose != c.purpose {
			t.Fatalf("%s: purpose_verdicts %+v, want purpose %s", c.token, pv, c.purpose)
		}
		for _, h := range c.refused {
			if !slices.Contains(pv.Refused, h) {
				t.Errorf("%s: %s not among the refused %v", c.token, h, pv.Refused)
			}
		}
		for _, h := range c.clear {
			if !slices.Contains(pv.NoObjection, h) {
				t.Errorf("%s: %s not among no objection found %v", c.token, h, pv.NoObjection)
			}
		}
		// The same sites robots.txt alone allows: robots.txt's own lists stay.
		if !slices.Contains(a.Allowed, "svar.test") {
			t.Errorf("%s: robots.txt's allowed list %v lacks svar.test", c.token, a.Allowed)
		}
		page := r.crawlers[c.slug]
		allowed := between(page, `id="allowed"`, "</ul>")
		want := "AI answers by <code>OAI-SearchBot</code>, every signal counted"
		if c.purpose == signals.PurposeTraining {
			want = "AI training by <code>GPTBot</code>, every signal counted"
		}
		if !strings.Contains(page, want) {
			t.Errorf("%s page lacks %q", c.slug, want)
		}
		for _, h := range c.refused {
			item := between(allowed, `sites/`+h+`/">`, "</li>")
			if !strings.Contains(item, "Refused") {
				t.Errorf("%s page: %s's entry %q says no refusal", c.slug, h, item)
			}
		}
		for _, h := range c.clear {
			item := between(allowed, `sites/`+h+`/">`, "</li>")
			if !strings.Contains(item, "No objection found") || !strings.Contains(item, `sites/`+h+`/#robots">robots.txt read`) || strings.Contains(strings.ToLower(item), "allowed") {
				t.Errorf("%s page: %s's entry %q", c.slug, h, item)
			}
		}
	}
	// svar.test's refusal of AI answers names its line, linked to it.
	item := between(r.crawlers["oai-searchbot"], `sites/svar.test/">`, "</li>")
	if !strings.Contains(item, `href="../../sites/svar.test/#L2">Content-Signal: search=yes, ai-input=no`) {
		t.Errorf("oai-searchbot page: svar.test's entry %q does not link the Content-Signal line", item)
	}
	// A site with no terms read says so; one with terms says that.
	if item := between(r.crawlers["gptbot"], `sites/app.test/">`, "</li>"); !strings.Contains(item, "no terms read") {
		t.Errorf("gptbot page: app.test's entry %q", item)
	}
}
