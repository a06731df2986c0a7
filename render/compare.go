package render

import (
	"github.com/crawlsignals/crawlsignals/signals"
)

// compareCrawlers are the AI training crawlers the comparison table shows
// as columns: those of the largest operators. Every crawler has its own
// page, and sites.csv a column for each.
var compareCrawlers = []string{"GPTBot", "ClaudeBot", "Google-Extended", "CCBot", "Applebot-Extended", "meta-externalagent", "Bytespider"}

// compareView is the table of sites × the main AI crawlers and signals.
type compareView struct {
	page
	Crawlers []string
	Rows     []compareRow
}

type compareRow struct {
	Host, Name     string
	Verdicts       []compareCell // one per compareCrawlers
	ContentSignal  []string      // ai-train, ai-input and search as the home host's robots.txt says them
	TDM            string        // reserved | not reserved | ""
	AI             string
	Purposes       []string // the verdicts for AI answers and search (training's is AI)
	Open, OpenWord string
	LookTwice      int
}

type compareCell struct {
	Crawler, Verdict string
}

func comparePage(sorted []*signals.Site) compareView {
	v := compareView{page: page{Title: "Compare sites", Root: "../", Section: "compare",
		Description: "Each reviewed site against the main AI training crawlers and signals: robots.txt, Content-Signal, TDMRep, AI use per purpose, Open by design."},
		Crawlers: compareCrawlers}
	for _, s := range sorted {
		verdicts := s.AgentVerdicts()
		r := compareRow{Host: s.Host, Name: cleanText(s.Name), AI: s.AIUse.Verdict,
			Open: s.OpenByDesign.Code(), OpenWord: s.OpenByDesign.Word(), LookTwice: len(s.Contradictions)}
		for _, c := range compareCrawlers {
			r.Verdicts = append(r.Verdicts, compareCell{Crawler: c, Verdict: verdicts[c]})
		}
		for _, p := range signals.Purposes[1:] {
			r.Purposes = append(r.Purposes, s.AIUse.PurposeVerdict(p))
		}
		var train []string
		for _, c := range s.Robots.ContentSignals {
			for _, k := range []string{"ai-train", "ai-input", "search"} {
				if v, ok := c.Values[k]; ok && c.Kind == "Content-Signal" {
					train = append(train, k+"="+v)
				}
			}
		}
		for _, p := range train {
			r.ContentSignal = append(r.ContentSignal, cleanText(p))
		}
		if t := s.Signals.TDMReservation; t != nil {
			r.TDM = "not reserved"
			if t.Reservation {
				r.TDM = "reserved"
			}
		}
		v.Rows = append(v.Rows, r)
	}
	return v
}
