package render

import (
	"strings"
	"testing"
)

// TestChangesPagePurposes: a per-purpose verdict that changed stands among
// what changed, not only in the plain words below it.
func TestChangesPagePurposes(t *testing.T) {
	all := changedSites()
	avis := all[0]
	avis.Changes[0].Items = append(avis.Changes[0].Items, "AI answers: No objection found → Refused (Content-Signal: ai-input=no (for *))",
		"Search: Refused → No objection found (no longer: Content-Signal: search=no (for *))")
	out := build(t, Input{Sites: all})
	page := string(read(t, out, "changes/index.html"))
	i := strings.Index(page, `id="c-20261129T060000Z-avis.test"`)
	if i < 0 {
		t.Fatal("avis.test is not on changes/")
	}
	what := page[i:]
	what = what[:strings.Index(what, `<details class="items">`)]
	for _, want := range []string{
		"<li><strong>AI answers:</strong> <bdi>No objection found → Refused (Content-Signal: ai-input=no (for *))</bdi></li>",
		"<li><strong>Search:</strong> <bdi>Refused → No objection found (no longer: Content-Signal: search=no (for *))</bdi></li>",
	} {
		if !strings.Contains(what, want) {
			t.Errorf("changes/ lacks %q among what changed:\n%s", want, what)
		}
	}
}
