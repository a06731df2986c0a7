package signals

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Change is what differs in a site's findings between two batches.
type Change struct {
	Batch    string   `json:"batch"`    // the newer batch
	Previous string   `json:"previous"` // the batch it is compared with
	ReadAt   string   `json:"read_at"`
	Items    []string `json:"items"` // each change in plain words
	// Kinds names the kinds of change, for filters and feeds.
	Kinds []string `json:"kinds"`
	// Diffs are the lines of robots.txt and the sentences of each document
	// that appeared or disappeared, quoted from each batch's text.
	Diffs []Diff `json:"diffs"`
}

// Diff is what changed in one file between two batches. Only files read
// in both are compared, and only so many sentences are listed, so a diff
// never republishes a whole page.
type Diff struct {
	URL         string   `json:"url"`
	What        string   `json:"what"` // robots | document
	Added       []string `json:"added"`
	Removed     []string `json:"removed"`
	MoreAdded   int      `json:"more_added,omitempty"` // added beyond those listed
	MoreRemoved int      `json:"more_removed,omitempty"`
}

// LastChanged is the newest batch in which the site's findings changed,
// looking back over every batch that read the site (its history record
// keeps it), or nil when none changed them.
func (s *Site) LastChanged() *string {
	if s.lastChanged != "" {
		b := s.lastChanged
		return &b
	}
	if len(s.Changes) == 0 {
		return nil
	}
	b := s.Changes[0].Batch // Changes are newest first
	return &b
}

// Change kinds.
const (
	ChangeRobots    = "robots"
	ChangeAgents    = "agents"
	ChangeDocuments = "documents"
	ChangeSignals   = "signals"
	ChangeVerdict   = "verdict"
	ChangeGaps      = "gaps"
)

// diff compares two builds of one site, older first. It returns nil when
// nothing a reader would care about changed.
func diff(old, cur *Site, oldTexts, curTexts func() map[string]PageText) *Change {
	c := &Change{Batch: cur.Batch, Previous: old.Batch, Items: []string{}, Kinds: []string{}, Diffs: []Diff{}}
	if cur.ReadAt != nil {
		c.ReadAt = *cur.ReadAt
	}
	kinds := map[string]bool{}
	add := func(kind, format string, args ...any) {
		c.Items = append(c.Items, fmt.Sprintf(format, args...))
		kinds[kind] = true
	}

	if old.Robots.Outcome != cur.Robots.Outcome || old.Robots.Status != cur.Robots.Status {
		add(ChangeRobots, "robots.txt: %s (HTTP %d) → %s (HTTP %d)", old.Robots.Outcome, old.Robots.Status, cur.Robots.Outcome, cur.Robots.Status)
	} else if old.Robots.SHA256 != cur.Robots.SHA256 {
		add(ChangeRobots, "robots.txt changed")
	}
	before := map[string]Agent{}
	for _, a := range old.Robots.Agents {
		before[a.Agent] = a
	}
	for _, a := range cur.Robots.Agents {
		if b, ok := before[a.Agent]; ok && b.Verdict() != a.Verdict() {
			add(ChangeAgents, "%s: %s → %s", a.Agent, b.Verdict(), a.Verdict())
		}
	}

	oldDocs := map[string]Document{}
	for _, d := range old.Read {
		oldDocs[d.URL] = d
	}
	curDocs := map[string]bool{}
	for _, d := range cur.Read {
		curDocs[d.URL] = true
		o, ok := oldDocs[d.URL]
		switch {
		case !ok:
			add(ChangeDocuments, "new document read: %s", d.URL)
		case o.TextSHA256 != d.TextSHA256:
			add(ChangeDocuments, "text changed: %s", d.URL)
		}
	}
	var gone []string
	for u := range oldDocs {
		if !curDocs[u] {
			gone = append(gone, u)
		}
	}
	sort.Strings(gone)
	for _, u := range gone {
		add(ChangeDocuments, "no longer read: %s", u)
	}

	oldGaps := map[string]string{}
	for _, g := range old.NotRead {
		oldGaps[g.URL] = g.Reason
	}
	for _, g := range cur.NotRead {
		if r, ok := oldGaps[g.URL]; !ok || r != g.Reason {
			add(ChangeGaps, "not read: %s (%s)", g.URL, g.Reason)
		}
	}

	for _, line := range signalLines(old.Signals, cur.Signals) {
		add(ChangeSignals, "%s", line)
	}
	if old.OpenByDesign.Word() != cur.OpenByDesign.Word() {
		add(ChangeVerdict, "Open by design: %s → %s", old.OpenByDesign.Word(), cur.OpenByDesign.Word())
	}
	if old.AIUse.Verdict != cur.AIUse.Verdict {
		add(ChangeVerdict, "AI use: %s → %s", AIWord(old.AIUse.Verdict), AIWord(cur.AIUse.Verdict))
	}
	for _, line := range purposeLines(old.AIUse, cur.AIUse) {
		add(ChangeVerdict, "%s", line)
	}
	rd, moved := robotsDiffs(old, cur, oldTexts, curTexts)
	c.Diffs = append(c.Diffs, rd...) // an array, never null, when nothing but items changed
	for _, u := range moved {
		add(ChangeRobots, "%s changed, but no line was added or removed: lines moved, or only blank lines or spacing changed", u)
	}
	c.Diffs = append(c.Diffs, documentDiffs(old, cur, oldTexts, curTexts)...)
	if len(c.Items) == 0 {
		return nil
	}
	for _, k := range []string{ChangeRobots, ChangeAgents, ChangeDocuments, ChangeGaps, ChangeSignals, ChangeVerdict} {
		if kinds[k] {
			c.Kinds = append(c.Kinds, k)
		}
	}
	return c
}

// signalLines says which machine-readable signals appeared, went or changed.
func signalLines(old, cur Signals) []string {
	var out []string
	pair := func(name string, was, is bool, wasV, isV string) {
		switch {
		case !was && is:
			out = append(out, name+" appeared")
		case was && !is:
			out = append(out, name+" is gone")
		case was && is && wasV != isV:
			out = append(out, name+" changed: "+wasV+" → "+isV)
		}
	}
	pair("security.txt", old.SecurityTxt != nil, cur.SecurityTxt != nil, securitySummary(old.SecurityTxt), securitySummary(cur.SecurityTxt))
	pair("llms.txt", old.LLMsTxt != nil, cur.LLMsTxt != nil, "", "")
	pair("api-catalog", old.APICatalog != nil, cur.APICatalog != nil, "", "")
	pair("gpc.json", old.GPC != nil, cur.GPC != nil, "", "")
	pair("TDM reservation", old.TDMReservation != nil, cur.TDMReservation != nil, tdmSummary(old.TDMReservation), tdmSummary(cur.TDMReservation))
	return out
}

func securitySummary(s *SecurityTxt) string {
	if s == nil {
		return ""
	}
	if s.Expired {
		return "expired"
	}
	return "valid"
}

func tdmSummary(t *TDMRep) string {
	if t == nil {
		return ""
	}
	if t.Reservation {
		return "reserved"
	}
	return "not reserved"
}

// purposeLines says which per-purpose verdicts (design §2.8) changed, with
// the signals that decide the new one ("AI answers: No objection found →
// Refused (Content-Signal: ai-input=no …)"), or, when nothing objects any
// more, those that did. Training is the headline, said as "AI use" above,
// so it is not said twice. Where a verdict rests on robots.txt alone it
// names none: robots.txt's own changes are listed per crawler.
func purposeLines(old, cur AIUse) []string {
	var out []string
	for _, p := range Purposes {
		if p == PurposeTraining {
			continue
		}
		was, is := old.PurposeVerdict(p), cur.PurposeVerdict(p)
		if was == is {
			continue
		}
		line := PurposeWords(p) + ": " + AIWord(was) + " → " + AIWord(is)
		switch {
		case objecting(is):
			if says := decidedBy(cur, p); says != "" {
				line += " (" + says + ")"
			}
		case objecting(was):
			if says := decidedBy(old, p); says != "" {
				line += " (no longer: " + says + ")"
			}
		}
		out = append(out, line)
	}
	return out
}

// objecting says whether a verdict rests on some objection.
func objecting(v string) bool { return v == AIRefused || v == AIPartlyRefused }

// decidedBy is what the signals that decided a purpose's verdict say, in
// their own words where they have them.
func decidedBy(u AIUse, p string) string {
	ap := u.Purpose(p)
	if ap == nil {
		return ""
	}
	var says []string
	for _, i := range ap.Sources {
		if i >= 0 && i < len(u.Sources) && !slices.Contains(says, u.Sources[i].Says) {
			says = append(says, u.Sources[i].Says)
		}
	}
	return strings.Join(says, "; ")
}
