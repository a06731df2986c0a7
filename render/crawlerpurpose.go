package render

import (
	"strconv"

	"github.com/crawlsignals/crawlsignals/signals"
)

// A crawler's page gives, beside robots.txt's word to the crawler, each
// site's verdict for the crawler's purpose with every signal counted (design
// §2.8): the question "may GPTBot fetch this site" has robots.txt's answer,
// and "does this site object to AI training" all the signals'.

// purposeOfSite is one site's verdict for a crawler's purpose, with what it
// rests on, each part linked to the evidence on the site's page (relative
// to the site root).
type purposeOfSite struct {
	Code, Word string
	Because    []link // the signals that object for the crawler
	// RestsOn is what no objection found rests on: robots.txt read (its
	// link), and whether some terms were read.
	RestsOn    *link
	TermsWords string
}

// purposeShare counts a crawler's per-purpose verdicts across sites.
type purposeShare struct {
	Words                                 string // "AI training"
	Refused, Partly, NoObjection, Unknown int
}

// sitePurpose is the site's verdict for one crawler of purpose p, or nil for
// a crawler of no purpose or a site we do not have.
func sitePurpose(s *signals.Site, agent, p string) *purposeOfSite {
	if s == nil || p == "" {
		return nil
	}
	code, objections := s.AIUse.CrawlerVerdict(agent, p)
	v := &purposeOfSite{Code: code, Word: signals.AIWord(code)}
	page := "sites/" + s.Host + "/"
	for _, i := range objections {
		if i < 0 || i >= len(s.AIUse.Sources) {
			continue
		}
		if l := purposeEvidence(page, s, s.AIUse.Sources[i]); !containsLink(v.Because, l) {
			v.Because = append(v.Because, l)
		}
	}
	if code == signals.AINoObjection {
		v.RestsOn = &link{Href: page + "#robots", Text: "robots.txt read"}
		v.TermsWords = "no terms read"
		if s.AIUse.TermsRead {
			v.TermsWords = "terms read"
		}
	}
	return v
}

// purposeEvidence is an objecting signal as a crawler's page names it:
// the robots.txt line, the signal's own words where it has short ones, or
// its kind, linked to where the site's page shows it.
func purposeEvidence(page string, s *signals.Site, src signals.AISource) link {
	l := link{Href: page + "#ai-use", Text: src.Words()}
	home := src.URL == s.Robots.URL && src.Line > 0
	switch src.Kind {
	case "robots":
		l.Text = "robots.txt line " + strconv.Itoa(src.Line)
		if !home {
			l.Text = "robots.txt of " + shortURL(src.URL) + " line " + strconv.Itoa(src.Line)
		}
	case "content-signal", "content-usage", "content-signal-header", "content-usage-header", "content-usage-meta":
		l.Text = src.Says
	case "terms":
		if src.Term != "" {
			l.Text += " (" + src.Term + ")"
		}
	case "rsl":
		l.Href = page + "#rsl"
	}
	if home {
		l.Href = page + "#" + lineID("robots", src.Line)
	}
	if !src.WholeSite {
		l.Text += ", in part"
	}
	return l
}

func containsLink(ls []link, l link) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}
