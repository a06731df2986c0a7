package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/signals"
)

// The statements of issue 11 ("say only what the evidence shows"), each on
// a fixture site that shows it, judged from the published JSON and pages.

// A robots.txt we could not read says nothing we know to any crawler: every
// verdict is unknown (null), never "disallowed", and so is AI use and Open
// by design. What RFC 9309 says is stated for the status class it names.
func TestRobotsNotReadIsUnknownForEveryone(t *testing.T) {
	r := crawlFixtureWeb(t)
	cases := []struct {
		host, rfc string
	}{
		{"nede.test", "RFC 9309 tells a crawler that gets a server error to assume everything"}, // 503
		{"stengt.test", "RFC 9309 lets a crawler that gets a 4xx answer read everything"},       // 403
		{"travelt.test", "RFC 9309 lets a crawler that gets a 4xx answer read everything"},      // 429
		{"laast.test", "RFC 9309 lets a crawler that gets a 4xx answer read everything"},        // 401
		{"vakt.test", "is our rule"}, // a challenge in its place
	}
	for _, c := range cases {
		s := r.sites[c.host]
		if s == nil {
			t.Fatalf("%s: no signals.json", c.host)
		}
		if s.Robots.Outcome == "rules" || s.Robots.Outcome == "none" {
			t.Fatalf("%s: robots.txt outcome %q: the fixture should not be readable", c.host, s.Robots.Outcome)
		}
		if !strings.Contains(s.Robots.Meaning, c.rfc) || !strings.Contains(s.Robots.Meaning, "do not know what it says to any crawler") {
			t.Errorf("%s: meaning %q, want %q", c.host, s.Robots.Meaning, c.rfc)
		}
		if len(s.Robots.Agents) < 30 {
			t.Errorf("%s: %d agents", c.host, len(s.Robots.Agents))
		}
		for _, a := range s.Robots.Agents {
			if a.RootAllowed != nil || a.Verdict() != signals.AgentUnknown {
				t.Errorf("%s: %s root_allowed = %v, want null", c.host, a.Agent, *a.RootAllowed)
			}
		}
		if s.AIUse.Verdict != signals.AIUnknown {
			t.Errorf("%s: ai_use %q, want unknown", c.host, s.AIUse.Verdict)
		}
		if s.OpenByDesign.Verdict != nil {
			t.Errorf("%s: open_by_design %v, want null (not determined)", c.host, *s.OpenByDesign.Verdict)
		}
		raw := readPublic(t, r, "sites/"+c.host+"/signals.json")
		if strings.Contains(raw, `"root_allowed":false`) || !strings.Contains(raw, `"root_allowed":null`) {
			t.Errorf("%s: signals.json gives a crawler a verdict", c.host)
		}
		page := readPublic(t, r, "sites/"+c.host+"/index.html")
		if strings.Contains(page, "counts as disallowed") || !strings.Contains(page, "Unknown") {
			t.Errorf("%s: the page states a policy for other crawlers", c.host)
		}
		// It was attempted, not read: the page never says "Read <date>".
		if strings.Contains(page, `<p class="meta">Read `) || !strings.Contains(page, `<p class="meta">Attempted `) || !strings.Contains(page, "robots.txt was not read, so nothing else was.") {
			t.Errorf("%s: the page does not say the batch only attempted it", c.host)
		}
	}
	// The directory says so too, where it gives the date.
	dir := readPublic(t, r, "index.html")
	for _, host := range []string{"nede.test", "stengt.test"} {
		i := strings.Index(dir, `href="./sites/`+host+`/"`)
		if i < 0 {
			t.Fatalf("%s: not in the directory", host)
		}
		rowEnd := strings.Index(dir[i:], "</tr>")
		if row := dir[i : i+rowEnd]; !strings.Contains(row, "attempted <time") {
			t.Errorf("%s: the directory's date is not marked as an attempt: %s", host, row)
		}
	}
	if i := strings.Index(dir, `href="./sites/kommune.test/"`); i < 0 || strings.Contains(dir[i:i+strings.Index(dir[i:], "</tr>")], "attempted") {
		t.Error("kommune.test: a site whose robots.txt was read is marked as only attempted")
	}
	// sites.json: each AI training crawler under "agents", unknown here.
	var idx struct {
		Sites []struct {
			Host         string            `json:"host"`
			AIUse        string            `json:"ai_use"`
			RobotsAgents map[string]string `json:"robots_agents"`
			OpenByDesign *bool             `json:"open_by_design"`
			ReadAt       *string           `json:"read_at"`
		} `json:"sites"`
	}
	if err := json.Unmarshal([]byte(readPublic(t, r, "sites.json")), &idx); err != nil {
		t.Fatal(err)
	}
	byHost := map[string]int{}
	for i, e := range idx.Sites {
		byHost[e.Host] = i
	}
	for _, c := range cases {
		e := idx.Sites[byHost[c.host]]
		if e.AIUse != "unknown" || e.RobotsAgents["GPTBot"] != "unknown" || e.RobotsAgents["CCBot"] != "unknown" || e.OpenByDesign != nil {
			t.Errorf("sites.json %s: %+v", c.host, e)
		}
	}
	if e := idx.Sites[byHost["avis.test"]]; e.RobotsAgents["GPTBot"] != "disallowed" || e.RobotsAgents["ClaudeBot"] != "allowed" || len(e.RobotsAgents) < 15 {
		t.Errorf("sites.json avis.test agents: %v", e.RobotsAgents)
	}
	if e := idx.Sites[byHost["stopp.test"]]; e.ReadAt != nil || e.AIUse != "unknown" || e.OpenByDesign != nil {
		t.Errorf("sites.json stopp.test: %+v", e)
	}
}

// Nothing read (an app shell in place of the home page) is not a "no".
func TestNothingReadIsNotDetermined(t *testing.T) {
	r := crawlFixtureWeb(t)
	s := r.sites["app.test"]
	if s.Documents() != 0 || len(s.NotRead) == 0 {
		t.Fatalf("app.test: %d documents, %d gaps: the fixture should read nothing", s.Documents(), len(s.NotRead))
	}
	if s.OpenByDesign.Verdict != nil || s.OpenByDesign.Word() != "Not determined" {
		t.Errorf("app.test open by design: %+v", s.OpenByDesign)
	}
	// Where pages were read and show neither, the verdict is a real no.
	if v := r.sites["avis.test"].OpenByDesign.Verdict; v == nil || *v {
		t.Errorf("avis.test open by design: %+v", r.sites["avis.test"].OpenByDesign)
	}
}

// A site that asked us to stop: no read_at (no request was sent), and its
// page offers neither a re-check nor a stop it already has.
func TestBlockedSiteIsNotReadAndNotOffered(t *testing.T) {
	r := crawlFixtureWeb(t)
	s := r.sites["stopp.test"]
	if s.ReadAt != nil {
		t.Errorf("stopp.test read_at %q, want null", *s.ReadAt)
	}
	if !strings.Contains(readPublic(t, r, "sites/stopp.test/signals.json"), `"read_at":null`) {
		t.Error("stopp.test signals.json: read_at is not null")
	}
	page := readPublic(t, r, "sites/stopp.test/index.html")
	for _, unwanted := range []string{"Request a re-check", "subject=Re-check", "subject=Stop", "ask us to stop</a>", "Last batch"} {
		if strings.Contains(page, unwanted) {
			t.Errorf("stopp.test page offers %q", unwanted)
		}
	}
	if !strings.Contains(page, "asked us to stop") {
		t.Error("stopp.test page does not say it asked us to stop")
	}
}

// Silence is not permission: robots.txt lets every AI crawler in, but
// Content-Signal says ai-train=no, so the verdict is not "no objection
// found" and the page says to look twice. A TDMRep reservation counts.
func TestAIUseFromEverySignal(t *testing.T) {
	r := crawlFixtureWeb(t)
	feed := r.sites["feed.test"]
	// robots.txt refuses none; the * group's ai-train=no, which every
	// crawler reads, refuses them all (combined per crawler, design §2.8).
	if feed.AIUse.Verdict != signals.AIRefused || len(robotsRefused(feed)) != 0 || len(feed.AIUse.Refused) != len(feed.AIUse.Crawlers) {
		t.Errorf("feed.test ai_use %+v", feed.AIUse)
	}
	if !hasSource(feed, "content-signal", signals.ObjectsAll) {
		t.Errorf("feed.test: Content-Signal not among the objecting sources: %+v", feed.AIUse.Sources)
	}
	if !hasContradiction(feed, "robots-allows-content-signal-objects") {
		t.Errorf("feed.test: look twice missing: %+v", feed.Contradictions)
	}
	page := readPublic(t, r, "sites/feed.test/index.html")
	if !strings.Contains(page, "Look twice") || !strings.Contains(page, "ai-train=no") {
		t.Error("feed.test page: no look-twice entry naming ai-train=no")
	}
	for _, host := range []string{"kart.test", "buss.test"} {
		s := r.sites[host]
		if !hasSource(s, "tdmrep", signals.ObjectsAll) || s.AIUse.Verdict != signals.AIRefused {
			t.Errorf("%s: TDMRep reservation not counted: %+v", host, s.AIUse)
		}
		if !hasContradiction(s, "robots-allows-tdmrep-objects") {
			t.Errorf("%s: look twice missing: %+v", host, s.Contradictions)
		}
	}
	// robots.txt alone refusing one crawler names it; the terms of
	// avis.test prohibit scraping for AI, which objects for all.
	avis := r.sites["avis.test"]
	if rr := robotsRefused(avis); len(rr) != 1 || rr[0] != "GPTBot" || !hasSource(avis, "terms", signals.ObjectsAll) {
		t.Errorf("avis.test ai_use: %+v", avis.AIUse)
	}
	// An AI sentence that prohibits nothing is shown, deciding nothing.
	if !hasSource(avis, "terms", "") {
		t.Errorf("avis.test: the sentence on language models is not among the sources: %+v", avis.AIUse.Sources)
	}
	// A site where nothing objects: no objection found, never "allowed".
	if v := r.sites["register.test"].AIUse.Verdict; v != signals.AINoObjection && v != signals.AIPartlyRefused {
		t.Errorf("register.test ai_use %q", v)
	}
	if strings.Contains(readPublic(t, r, "index.html"), ">allowed<") {
		t.Error("the directory calls a site's AI use allowed")
	}
}

// A licensing page a robots.txt comment points to is read and quoted like
// a footer page; a sitemap stays a listing.
func TestRobotsNamedDocumentIsQuoted(t *testing.T) {
	r := crawlFixtureWeb(t)
	const u = "https://avis.test/lisensiering"
	d := docFor(r.sites["avis.test"], u)
	if d == nil || d.Role != signals.RolePolicy {
		t.Fatalf("%s: %+v, want a policy document", u, d)
	}
	quoted := false
	for _, q := range r.sites["avis.test"].Quotes {
		quoted = quoted || (q.URL == u && q.Verified)
	}
	if !quoted {
		t.Errorf("%s: read but not quoted", u)
	}
	for _, d := range r.sites["kommune.test"].Read {
		if strings.HasSuffix(d.URL, "sitemap.xml") && d.Role != signals.RoleListing {
			t.Errorf("%s: role %q, want listing", d.URL, d.Role)
		}
		if d.FoundVia == "home" && d.Role != signals.RoleHome {
			t.Errorf("%s: role %q, want home", d.URL, d.Role)
		}
	}
}

func hasSource(s *signals.Site, kind, objects string) bool {
	for _, src := range s.AIUse.Sources {
		if src.Kind == kind && src.Objects == objects {
			return true
		}
	}
	return false
}

func readPublic(t *testing.T, r *demoRun, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(r.public, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// robotsRefused is robots.txt's verdict alone, as signals.json gives it:
// the AI training crawlers whose robots.txt verdict is disallowed.
func robotsRefused(s *signals.Site) []string {
	var out []string
	for _, c := range s.AIUse.Crawlers {
		if c.Robots == signals.AgentDisallowed {
			out = append(out, c.Agent)
		}
	}
	return out
}
