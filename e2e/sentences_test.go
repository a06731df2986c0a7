package e2e_test

import (
	"strings"
	"testing"
)

// TestSentencesTrueToTheirCase (issue 21, item 5): each sentence says what
// we know of its case, no more and no less. A challenge answered with 200
// is named a challenge, not "HTTP 200"; a site whose only page needs
// JavaScript does not read "nothing else we read objects"; a site read
// once says it is the first batch; the about page says the directory
// loads a script of ours and when feeds get an entry.
func TestSentencesTrueToTheirCase(t *testing.T) {
	r := crawlFixtureWeb(t)

	vakt := r.sites["vakt.test"]
	for what, text := range map[string]string{"robots meaning": vakt.Robots.Meaning, "AI use": vakt.AIUse.Why} {
		if strings.Contains(text, "HTTP 200)") || strings.Contains(text, "answered HTTP 200,") || !strings.Contains(text, "challenge") {
			t.Errorf("vakt.test %s: %q", what, text)
		}
	}
	if page := readPublic(t, r, "sites/vakt.test/index.html"); strings.Contains(page, "it answered HTTP 200)") {
		t.Error("vakt.test page: a challenge reads as an answer with HTTP 200")
	}

	app := r.sites["app.test"]
	if strings.Contains(app.AIUse.Why, "nothing else we read objects") || !strings.Contains(app.AIUse.Why, "JavaScript") ||
		!strings.Contains(app.AIUse.Why, "unknown to us") {
		t.Errorf("app.test AI use: %q", app.AIUse.Why)
	}
	if page := readPublic(t, r, "sites/app.test/index.html"); strings.Contains(page, "nothing else we read objects") {
		t.Error("app.test page: \"nothing else we read objects\" where we read no terms")
	}

	// One batch read the fixture web: every site read says so.
	page := readPublic(t, r, "sites/kommune.test/index.html")
	if !strings.Contains(page, "this is the first batch that read the site") || strings.Contains(page, "or nothing a reader would notice") {
		t.Error("kommune.test: the changes section hedges where the build knows it is the first batch")
	}

	about := readPublic(t, r, "about/index.html")
	for _, wrong := range []string{"no scripts", "an entry each time a batch reads a site"} {
		if strings.Contains(about, wrong) {
			t.Errorf("about page says %q", wrong)
		}
	}
	if !strings.Contains(about, "one small script of ours") || !strings.Contains(about, "a batch that finds nothing changed adds none") {
		t.Error("about page does not say what loads a script, or when a feed gets an entry")
	}
	if !strings.Contains(readPublic(t, r, "index.html"), "filter.js") {
		t.Error("the directory loads no script: the about page's sentence would be wrong")
	}
}
