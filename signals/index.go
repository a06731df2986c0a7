package signals

import (
	"slices"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/robots"
)

// AgentVerdicts maps each AI training crawler of the agents list to what
// the home host's robots.txt says to it: allowed, disallowed or unknown
// (robots.txt not read, or the site not read at all).
func (s *Site) AgentVerdicts() map[string]string {
	return s.agentVerdicts("ai-training")
}

// agentVerdicts is AgentVerdicts for the crawlers of one category, or of
// every category when category is "".
func (s *Site) agentVerdicts(category string) map[string]string {
	out := map[string]string{}
	for _, a := range robots.Agents() {
		if category == "" || a.Category == category {
			out[a.Token] = AgentUnknown
		}
	}
	for _, a := range s.Robots.Agents {
		if _, ok := out[a.Agent]; ok {
			out[a.Agent] = a.Verdict()
		}
	}
	return out
}

// Documents counts the policy documents read (not the home page, sitemaps
// or files for programs).
func (s *Site) Documents() int {
	n := 0
	for _, d := range s.Read {
		if d.Role == RolePolicy {
			n++
		}
	}
	return n
}

// Generated is when the newest batch of the directory started, as an RFC
// 3339 time ("" before any batch): the build never reads the clock, so the
// same evidence gives the same files.
func Generated(all []*Site) string {
	newest := ""
	for _, s := range all {
		newest = max(newest, s.Batch)
	}
	if t, err := evidence.ParseBatchName(newest); err == nil {
		return t.UTC().Format(time.RFC3339)
	}
	return ""
}

// NewIndex lists the sites for sites.json, sorted by name.
func NewIndex(all []*Site) Index {
	idx, sorted := IndexHead(all)
	for _, s := range sorted {
		idx.Sites = append(idx.Sites, EntryOf(s))
	}
	return idx
}

// IndexHead is sites.json without its sites (an empty list), and the
// sites in the order it lists them, by name: the build writes sites.json
// one entry at a time (EntryOf), so that 10,000 entries are never held.
func IndexHead(all []*Site) (Index, []*Site) {
	idx := Index{Sites: []IndexEntry{}, Generated: Generated(all)}
	for _, s := range all {
		if s.Batch > idx.Batch {
			idx.Batch = s.Batch
		}
	}
	sorted := slices.Clone(all)
	slices.SortStableFunc(sorted, func(a, b *Site) int { return strings.Compare(a.Name, b.Name) })
	return idx, sorted
}

// EntryOf is a site's entry of sites.json.
func EntryOf(s *Site) IndexEntry {
	return IndexEntry{
		Host: s.Host, URL: s.URL, Name: s.Name, Category: s.Category, Batch: s.Batch, ReadAt: s.ReadAt,
		RobotsOutcome: s.Robots.Outcome, AIUse: s.AIUse.Verdict, AIRestsOn: s.AIUse.RestsOn, AIPurposes: s.AIUse.PurposeVerdicts(),
		TermsRead: s.AIUse.TermsRead, RobotsAgents: s.AgentVerdicts(),
		Read: len(s.Read), Documents: s.Documents(), NotRead: len(s.NotRead), OpenByDesign: s.OpenByDesign.Verdict,
		LookTwice: len(s.Contradictions), LastChanged: s.LastChanged(), Blocked: s.Blocked, Signals: "sites/" + s.Host + "/signals.json",
	}
}
