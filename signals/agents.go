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
	// Source is the page the crawler's facts come from, and Checked the
	// day we last compared them with it: operators change their pages.
	Source  string `json:"source"`
	Checked string `json:"checked"`
	// RobotsMayNotApply is the operator's statement, in our words, that
	// robots.txt may not govern this crawler; empty when it makes none.
	RobotsMayNotApply string `json:"robots_may_not_apply,omitempty"`
	// Honours are the signals the operator says the crawler honours, per
	// purpose, dated and sourced; empty when we found no such statement.
	Honours []robots.Honour `json:"honours"`
	AgentHosts
	// PurposeVerdicts sorts the same sites by the verdict for the
	// crawler's purpose as every signal decides it, not robots.txt alone;
	// nil for a crawler of no purpose (ours, archives).
	PurposeVerdicts *PurposeHosts `json:"purpose_verdicts,omitempty"`
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

// PurposeHosts sorts sites (by home host) by one crawler's verdict for its
// purpose, every signal counted (AIUse.CrawlerVerdict), in each site's
// newest batch.
type PurposeHosts struct {
	Purpose       string   `json:"purpose"`
	Refused       []string `json:"refused"`
	PartlyRefused []string `json:"partly_refused"`
	NoObjection   []string `json:"no_objection_found"`
	Unknown       []string `json:"unknown"`
}

// AgentBatch is one batch's lists for a crawler.
type AgentBatch struct {
	Batch string `json:"batch"`
	AgentHosts
}

// Total is the number of sites in the lists.
func (h AgentHosts) Total() int { return len(h.Allowed) + len(h.Disallowed) + len(h.Unknown) }

// AgentsTable is what agents.json and the crawler pages are made from:
// each site's verdict for each crawler of the agents list, in its newest
// batch and in each batch that read it, a byte each. A crawler's lists of
// hosts are made from it one crawler at a time (Agent), when its page or
// its entry of agents.json is written: held for every crawler at once,
// the lists were the largest thing the views across 10,000 sites kept.
type AgentsTable struct {
	Generated string // the newest batch used, as an RFC 3339 time
	agents    []robots.Agent
	hosts     []string // home hosts, sorted
	batches   []string // batches that read sites, oldest first
	newest    [][]byte // [site][agent]: the verdict's place in verdictNames
	// purposes are the per-purpose verdicts of each site's newest batch,
	// [site][agent], as purposeCodes places them.
	purposes [][]byte
	byBatch  [][]byte // [batch*len(hosts)+site][agent], nil where the batch did not read the site
}

// verdictNames are the verdicts an AgentsTable holds, by their code.
var verdictNames = [...]string{AgentUnknown, AgentAllowed, AgentDisallowed}

// purposeCodes are the per-purpose verdicts an AgentsTable holds, by code.
var purposeCodes = [...]string{AIUnknown, AINoObjection, AIPartlyRefused, AIRefused}

func verdictCode(v string) byte {
	switch v {
	case AgentAllowed:
		return 1
	case AgentDisallowed:
		return 2
	}
	return 0 // unknown: a blocked or unread site has no agents
}

// NewAgentsTable reads every site's verdicts. generated is the newest
// batch's time (RFC 3339), as in sites.json.
func NewAgentsTable(all []*Site, generated string) *AgentsTable {
	sorted := slices.Clone(all)
	slices.SortFunc(sorted, func(a, b *Site) int { return strings.Compare(a.Host, b.Host) })
	t := &AgentsTable{Generated: generated, agents: robots.Agents(), hosts: make([]string, len(sorted))}
	for _, s := range sorted {
		for _, h := range s.History {
			if !slices.Contains(t.batches, h.Batch) {
				t.batches = append(t.batches, h.Batch)
			}
		}
	}
	slices.Sort(t.batches)
	place := map[string]int{}
	for k, a := range t.agents {
		place[a.Token] = k
	}
	t.newest = make([][]byte, len(sorted))
	t.purposes = make([][]byte, len(sorted))
	t.byBatch = make([][]byte, len(t.batches)*len(sorted))
	for i, s := range sorted {
		t.hosts[i] = s.Host
		row := make([]byte, len(t.agents)) // all unknown
		for _, a := range s.Robots.Agents {
			if k, ok := place[a.Agent]; ok {
				row[k] = verdictCode(a.Verdict())
			}
		}
		t.newest[i] = row
		prow := make([]byte, len(t.agents))
		for k, a := range t.agents {
			if p := PurposeOf(a.Category); p != "" {
				v, _ := s.AIUse.CrawlerVerdict(a.Token, p)
				prow[k] = byte(max(0, slices.Index(purposeCodes[:], v)))
			}
		}
		t.purposes[i] = prow
		for _, h := range s.History {
			b, _ := slices.BinarySearch(t.batches, h.Batch)
			row := make([]byte, len(t.agents))
			for k, a := range t.agents {
				row[k] = verdictCode(h.Verdict(a.Token))
			}
			t.byBatch[b*len(sorted)+i] = row
		}
	}
	return t
}

// Len is the number of crawlers in the agents list.
func (t *AgentsTable) Len() int { return len(t.agents) }

// Agent is the k-th crawler of the agents list across sites, as
// agents.json lists it.
func (t *AgentsTable) Agent(k int) AgentIndex {
	ai := t.Newest(k)
	ai.Batches = make([]AgentBatch, 0, len(t.batches))
	for b, batch := range t.batches {
		rows := t.byBatch[b*len(t.hosts) : (b+1)*len(t.hosts)]
		ai.Batches = append(ai.Batches, AgentBatch{Batch: batch, AgentHosts: t.hostsBy(func(i int) []byte { return rows[i] }, k)})
	}
	return ai
}

// Newest is Agent without its Batches (nil): the crawler's facts and the
// lists of the newest batch of each site. A crawler's page lists those,
// and of each batch only how many (Trend); the lists of every batch were
// most of what its page cost to make.
func (t *AgentsTable) Newest(k int) AgentIndex {
	a := t.agents[k]
	honours := a.Honours
	if honours == nil {
		honours = []robots.Honour{} // an empty list, not null: nothing found
	}
	return AgentIndex{Agent: a.Token, ParserToken: a.ParserToken(), Operator: a.Operator, Purpose: a.Purpose, Category: a.Category, Note: a.Note,
		Source: a.Source, Checked: a.Checked, RobotsMayNotApply: a.RobotsMayNotApply, Honours: honours,
		AgentHosts: t.hostsBy(func(i int) []byte { return t.newest[i] }, k), PurposeVerdicts: t.purposeHosts(k)}
}

// purposeHosts sorts the hosts by crawler k's verdict for its purpose.
func (t *AgentsTable) purposeHosts(k int) *PurposeHosts {
	p := PurposeOf(t.agents[k].Category)
	if p == "" {
		return nil
	}
	var lists [len(purposeCodes)][]string
	for c := range lists {
		lists[c] = []string{}
	}
	for i, h := range t.hosts {
		c := t.purposes[i][k]
		lists[c] = append(lists[c], h)
	}
	return &PurposeHosts{Purpose: p, Unknown: lists[0], NoObjection: lists[1], PartlyRefused: lists[2], Refused: lists[3]}
}

// BatchCount is how many of the sites a batch read allow a crawler,
// disallow it, or are unknown.
type BatchCount struct {
	Batch                        string
	Allowed, Disallowed, Unknown int
}

// Trend is, for each batch that read sites (oldest first), the number of
// sites in each of Agent's lists for the k-th crawler.
func (t *AgentsTable) Trend(k int) []BatchCount {
	out := make([]BatchCount, 0, len(t.batches))
	for b, batch := range t.batches {
		var n [len(verdictNames)]int
		for _, r := range t.byBatch[b*len(t.hosts) : (b+1)*len(t.hosts)] {
			if r != nil {
				n[r[k]]++
			}
		}
		out = append(out, BatchCount{Batch: batch, Unknown: n[0], Allowed: n[1], Disallowed: n[2]})
	}
	return out
}

// hostsBy sorts the hosts by their verdict for crawler k in the rows row
// gives, leaving out a host whose row is nil; each list is made at its
// size.
func (t *AgentsTable) hostsBy(row func(i int) []byte, k int) AgentHosts {
	var n [len(verdictNames)]int
	for i := range t.hosts {
		if r := row(i); r != nil {
			n[r[k]]++
		}
	}
	lists := [len(verdictNames)][]string{}
	for c := range lists {
		lists[c] = make([]string, 0, n[c])
	}
	for i, h := range t.hosts {
		if r := row(i); r != nil {
			lists[r[k]] = append(lists[r[k]], h)
		}
	}
	return AgentHosts{Unknown: lists[0], Allowed: lists[1], Disallowed: lists[2]}
}

// Index is the whole of agents.json at once (for tests and the Hugo
// project of the bench; the build writes it one crawler at a time).
func (t *AgentsTable) Index() AgentsIndex {
	idx := AgentsIndex{Generated: t.Generated, Agents: make([]AgentIndex, 0, t.Len())}
	for k := range t.agents {
		idx.Agents = append(idx.Agents, t.Agent(k))
	}
	return idx
}

// NewAgentsIndex builds agents.json from every site's findings. generated
// is the newest batch's time (RFC 3339), as in sites.json.
func NewAgentsIndex(all []*Site, generated string) AgentsIndex {
	return NewAgentsTable(all, generated).Index()
}
