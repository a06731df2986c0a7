package signals

import "slices"

// A site's history (design §4): its findings in the newest batch, with the
// changes between each batch and the one before, the crawler verdicts of
// each batch and when each curated quote last verified. It is a fold over
// the batches that hold the site, oldest first: each batch's findings
// (FromBatch) are added to the state the batches before it left. The
// state after any batch can be kept and the fold taken up from it later
// with the same result as folding every batch again (the caller keeps it:
// package derived).

// maxHistory is how many earlier batches a site's changes and crawler
// verdicts are shown for.
const maxHistory = 8

// MaxHistory is the most batches a site's shown history holds (the newest
// and maxHistory before it): a shorter history starts at the site's first
// reading. LastChanged looks back over every batch.
const MaxHistory = maxHistory + 1

// History is the state of the fold after some batches. Every field is
// what the fold needs to go on, so a state made from kept fields goes on
// as the one that was kept.
type History struct {
	Changes      []Change          // newest first, between batches of the window
	Verdicts     []BatchVerdicts   // oldest first, batches of the window
	LastVerified map[string]string // curated quote (URL NUL text) → newest date it verified
	LastChanged  string            // newest batch whose findings changed, over every batch
	// Newest is the findings of the newest batch folded, curation
	// applied; NewestTexts gives its pages' texts, which the next batch
	// is compared with.
	Newest      *Site
	NewestTexts func() map[string]PageText
}

// NewHistory is the state before the first batch.
func NewHistory() *History {
	return &History{Changes: []Change{}, Verdicts: []BatchVerdicts{}, LastVerified: map[string]string{}}
}

// Add folds one batch's findings into h: it applies the curation to cur
// (verified against the batch's own texts), compares cur with the batch
// before, and keeps the changes and verdicts of window, the newest
// MaxHistory batches up to and including this one (Window).
func (h *History) Add(batch string, window []string, cur *Site, texts func() map[string]PageText, cur0 *Curation) {
	h.Curate(cur, texts, cur0)
	changes := []Change{}
	if h.Newest != nil {
		if c := diff(h.Newest, cur, h.NewestTexts, texts); c != nil {
			changes = append(changes, *c)
			h.LastChanged = c.Batch
		}
	}
	for _, c := range h.Changes {
		if slices.Contains(window, c.Previous) {
			changes = append(changes, c)
		}
	}
	verdicts := []BatchVerdicts{}
	for _, v := range h.Verdicts {
		if slices.Contains(window, v.Batch) {
			verdicts = append(verdicts, v)
		}
	}
	if !cur.Blocked {
		verdicts = append(verdicts, batchVerdicts(batch, cur))
	}
	h.Changes, h.Verdicts = changes, verdicts
	h.Newest, h.NewestTexts = cur, texts
}

// Curate is the first step of Add: it applies the curation to a batch's
// findings cur, and dates each curated quote: the quotes that verify
// update h's dates, the others show the last date they verified.
func (h *History) Curate(cur *Site, texts func() map[string]PageText, cur0 *Curation) {
	var pages map[string]PageText
	if cur0 != nil && len(cur0.Quotes) > 0 {
		pages = texts() // only curated quotes need the pages' text
	}
	applyCuration(cur, cur0, pages)
	for j := range cur.Quotes {
		q := &cur.Quotes[j]
		if q.Source != "curated" {
			continue
		}
		if q.Verified {
			h.LastVerified[q.URL+"\x00"+q.Text] = q.ReadAt
		} else {
			q.LastVerified = h.LastVerified[q.URL+"\x00"+q.Text]
		}
	}
}

// Site is the newest batch's findings with their history.
func (h *History) Site() *Site {
	s := h.Newest
	s.Changes, s.History, s.lastChanged = h.Changes, h.Verdicts, h.LastChanged
	return s
}

// Window is the newest MaxHistory of held[:i+1], the batches a fold adds
// held[i] with.
func Window(held []string, i int) []string {
	return held[max(0, i+1-MaxHistory) : i+1]
}
