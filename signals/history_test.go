package signals

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/crawlsignals/crawlsignals/sites"
)

// foldSite is a batch's findings of a site whose robots.txt has lines, as
// FromBatch gives them (no disk: the fold needs none).
func foldSite(batch string, lines []string) (*Site, func() map[string]PageText) {
	const u = "https://fold.test/robots.txt"
	s := newSite(&sites.Site{Host: "fold.test", Name: "Fold", URL: "https://fold.test/", Hosts: []string{"fold.test"}})
	s.Batch = batch
	s.Robots.URL, s.Robots.Outcome, s.Robots.Status, s.Robots.LineCount = u, OutcomeRules, 200, len(lines)
	s.Robots.SHA256 = fmt.Sprintf("%d-%v", len(lines), lines)
	s.Robots.Lines = lines
	texts := map[string]PageText{robotsTextKey(u): {Sentences: lines}}
	return s, func() map[string]PageText { return texts }
}

// TestHistoryFold: the fold keeps the changes and verdicts of the newest
// MaxHistory batches, LastChanged looks back over every batch, and a fold
// taken up from the state kept after any batch (the fields of History, as
// a record keeps them) gives the same site as folding every batch.
func TestHistoryFold(t *testing.T) {
	n := MaxHistory + 3
	var held []string
	for i := range n {
		held = append(held, fmt.Sprintf("202612%02dT060000Z", i+1))
	}
	// robots.txt changes once, in the second batch: far outside the window
	// of the newest batch.
	linesOf := func(i int) []string {
		if i == 0 {
			return []string{"User-agent: *", "Allow: /"}
		}
		return []string{"User-agent: *", "Disallow: /"}
	}
	fold := func(h *History, from, to int) *History {
		for i := from; i < to; i++ {
			s, texts := foldSite(held[i], linesOf(i))
			h.Add(held[i], Window(held, i), s, texts, nil)
		}
		return h
	}
	whole := fold(NewHistory(), 0, n).Site()
	if len(whole.History) != MaxHistory || whole.History[0].Batch != held[n-MaxHistory] {
		t.Errorf("verdicts of %d batches from %s, want %d from %s", len(whole.History), whole.History[0].Batch, MaxHistory, held[n-MaxHistory])
	}
	if len(whole.Changes) != 0 {
		t.Errorf("%d changes in the window, want none (the only one was in %s)", len(whole.Changes), held[1])
	}
	if c := whole.LastChanged(); c == nil || *c != held[1] {
		t.Errorf("LastChanged = %v, want %s", c, held[1])
	}
	if early := fold(NewHistory(), 0, 2).Site(); len(early.Changes) != 1 || early.Changes[0].Batch != held[1] {
		t.Errorf("after two batches: changes %+v, want one in %s", early.Changes, held[1])
	}
	want, _ := json.Marshal(whole)
	for k := 1; k < n; k++ {
		h := fold(NewHistory(), 0, k)
		kept := &History{Changes: h.Changes, Verdicts: h.Verdicts, LastVerified: h.LastVerified,
			LastChanged: h.LastChanged, Newest: h.Newest, NewestTexts: h.NewestTexts}
		got := fold(kept, k, n).Site()
		if data, _ := json.Marshal(got); string(data) != string(want) {
			t.Errorf("taken up after %d batches: the site differs", k)
		}
		if c := got.LastChanged(); c == nil || *c != held[1] {
			t.Errorf("taken up after %d batches: LastChanged = %v, want %s", k, c, held[1])
		}
	}
}
