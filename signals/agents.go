package signals

import (
	"slices"
	"strings"

	"github.com/crawlsignals/crawlsignals/robots"
)

// AgentsIndex is public/agents.json: for each crawler of the agents list,
// which sites' robots.txt allow it, disallow it, or are unknown, in the
// newest batch of each site and in each batch that read sites (the trend).
type AgentsIndex struct {
	Generated string       `json:"generated"` // the newest batch used, as an RFC 3339 time
	Agents    []AgentIndex `json:"agents"`
}

// AgentIndex is one crawler across sites.
type AgentIndex struct {
	Agent string `json:"agent"`
	// ParserToken is the token as RFC 9309 parsers read it (AI2Bot reads
	// as AI): what a group must name for the crawler to follow it.
	ParserToken string `json:"parser_token"`
	Operator    string `json:"operator"`
	Purpose     string `json:"purpose"`
	Category    string `json:"category"`
	Note        string `json:"note,omitempty"`
	AgentHosts
	// Batches are the same lists for each batch that read sites, oldest
	// first; a batch lists only the sites it read.
	Batches []AgentBatch `json:"batches"`
}

// AgentHosts sorts sites (by home host) by what robots.txt says to one
// crawler. Unknown holds sites whose robots.txt was not read, sites not
// read yet, and sites that asked us to stop.
type AgentHosts struct {
	Allowed    []string `json:"allowed"`
	Disallowed []string `json:"disallowed"`
	Unknown    []string `json:"unknown"`
}

// AgentBatch is one batch's lists for a crawler.
type AgentBatch struct {
	Batch string `json:"batch"`
	AgentHosts
}

// add files host under verdict.
func (h *AgentHosts) add(host, verdict string) {
	switch verdict {
	case AgentAllowed:
		h.Allowed = append(h.Allowed, host)
	case AgentDisallowed:
		h.Disallowed = append(h.Disallowed, host)
	default:
		h.Unknown = append(h.Unknown, host)
	}
}

// Total is the number of sites in the lists.
func (h AgentHosts) Total() int { return len(h.Allowed) + len(h.Disallowed) + len(h.Unknown) }

// NewAgentsIndex builds agents.json from every site's findings. generated
// is the newest batch's time (RFC 3339), as in sites.json.
func NewAgentsIndex(all []*Site, generated string) AgentsIndex {
	sorted := slices.Clone(all)
	slices.SortFunc(sorted, func(a, b *Site) int { return strings.Compare(a.Host, b.Host) })
	var batches []string
	for _, s := range sorted {
		for _, h := range s.History {
			if !slices.Contains(batches, h.Batch) {
				batches = append(batches, h.Batch)
			}
		}
	}
	slices.Sort(batches)
	idx := AgentsIndex{Generated: generated, Agents: []AgentIndex{}}
	// Each site's verdict for each agent, by the agent's place in the list
	// (agentVerdicts' answers, in a slice a site rather than a map: the
	// maps were a tenth of what the views across 10,000 sites held).
	agents := robots.Agents()
	place := map[string]int{}
	for k, a := range agents {
		place[a.Token] = k
	}
	verdicts := make([][]string, len(sorted))
	byBatch := make([]map[string]BatchVerdicts, len(sorted)) // each site's history by batch
	for i, s := range sorted {
		v := make([]string, len(agents))
		for k := range v {
			v[k] = AgentUnknown // a blocked or unread site has no agents: unknown
		}
		for _, a := range s.Robots.Agents {
			if k, ok := place[a.Agent]; ok {
				v[k] = a.Verdict()
			}
		}
		verdicts[i] = v
		byBatch[i] = map[string]BatchVerdicts{}
		for _, h := range s.History {
			byBatch[i][h.Batch] = h
		}
	}
	for k, a := range agents {
		ai := AgentIndex{Agent: a.Token, ParserToken: a.ParserToken(), Operator: a.Operator, Purpose: a.Purpose, Category: a.Category, Note: a.Note,
			AgentHosts: emptyHosts(), Batches: []AgentBatch{}}
		for i, s := range sorted {
			ai.add(s.Host, verdicts[i][k])
		}
		for _, b := range batches {
			ab := AgentBatch{Batch: b, AgentHosts: emptyHosts()}
			for i, s := range sorted {
				if h, ok := byBatch[i][b]; ok {
					ab.add(s.Host, h.Verdict(a.Token))
				}
			}
			ai.Batches = append(ai.Batches, ab)
		}
		idx.Agents = append(idx.Agents, ai)
	}
	return idx
}

func emptyHosts() AgentHosts {
	return AgentHosts{Allowed: []string{}, Disallowed: []string{}, Unknown: []string{}}
}
