package signals

import "sort"

// AITraining sums up in one word what robots.txt says to the AI training
// crawlers of our agents list: allowed (all may read /), disallowed (none
// may), partly (some may), or unknown (robots.txt not read).
func (s *Site) AITraining() string {
	if s.Robots.Outcome == "not-read" {
		return "unknown"
	}
	allowed, total := 0, 0
	for _, a := range s.Robots.Agents {
		if a.Category != "ai-training" {
			continue
		}
		total++
		if a.RootAllowed {
			allowed++
		}
	}
	switch {
	case total == 0:
		return "unknown"
	case allowed == total:
		return "allowed"
	case allowed == 0:
		return "disallowed"
	}
	return "partly"
}

// NewIndex lists the sites for sites.json, sorted by name.
func NewIndex(all []*Site) Index {
	idx := Index{Sites: []IndexEntry{}}
	for _, s := range all {
		if s.Batch > idx.Generated {
			idx.Generated = s.Batch
		}
		idx.Sites = append(idx.Sites, IndexEntry{
			Host: s.Host, Name: s.Name, Category: s.Category, Batch: s.Batch, ReadAt: s.ReadAt,
			RobotsOutcome: s.Robots.Outcome, AITraining: s.AITraining(),
			Read: len(s.Read), NotRead: len(s.NotRead), OpenByDesign: s.OpenByDesign.Verdict,
			Blocked: s.Blocked, Signals: "sites/" + s.Host + "/signals.json",
		})
	}
	sort.SliceStable(idx.Sites, func(i, j int) bool { return idx.Sites[i].Name < idx.Sites[j].Name })
	return idx
}
