package render

import (
	"slices"

	"github.com/crawlsignals/crawlsignals/robots"
	"github.com/crawlsignals/crawlsignals/signals"
)

// The AI use matrix of a site page (design §2.8): operator families as rows,
// the three purposes as columns, each cell the verdict for that operator's
// crawlers of that purpose with the evidence that decided it.

// purposeView is one purpose's verdict, for the answer first.
type purposeView struct {
	Purpose, Words, Code string
}

// matrixRow is one operator with a cell per purpose.
type matrixRow struct {
	Operator string
	Cells    []matrixCell
}

// matrixCell is what one operator's crawlers of one purpose meet. Code is
// "" when the operator has no crawler of that purpose on our list: the
// page says unknown, as no signal of ours speaks for it.
type matrixCell struct {
	Purpose, Words string
	Code           string
	Crawlers       []string
	Evidence       []link // the objections, or robots.txt when none
	// Statement is the operator when the cell rests on its own statement
	// that a crawler of another purpose honours a signal for this one.
	Statement string
}

// purposesOf lists the verdict per purpose, training first.
func purposesOf(u signals.AIUse) []purposeView {
	var out []purposeView
	for _, ap := range u.Purposes {
		out = append(out, purposeView{Purpose: ap.Purpose, Words: signals.PurposeWords(ap.Purpose), Code: ap.Verdict})
	}
	return out
}

// matrixOf arranges the per-purpose verdicts by operator, in the order of
// the agents list. robotsLink is the page's robots.txt section, what a
// cell with no objection rests on.
func matrixOf(u signals.AIUse, sources []aiSourceView, robotsLink link) []matrixRow {
	if len(u.Purposes) == 0 {
		return nil
	}
	// Operators in the order of the purposes, then of the agents list:
	// those that train first, as training is the headline.
	operator := map[string]string{}
	var order []string
	for _, p := range signals.Purposes {
		for _, a := range robots.Agents() {
			if signals.PurposeOf(a.Category) != p {
				continue
			}
			operator[a.Token] = a.Operator
			if !slices.Contains(order, a.Operator) {
				order = append(order, a.Operator)
			}
		}
	}
	var rows []matrixRow
	for _, op := range order {
		row := matrixRow{Operator: op}
		any := false
		for _, ap := range u.Purposes {
			cell := matrixCell{Purpose: ap.Purpose, Words: signals.PurposeWords(ap.Purpose)}
			refused, objected, n := 0, 0, 0
			for _, c := range ap.Crawlers {
				if operator[c.Agent] != op {
					continue
				}
				n++
				cell.Crawlers = append(cell.Crawlers, c.Agent)
				if c.Refused {
					refused++
				}
				if len(c.Objections) > 0 {
					objected++
				}
				for _, i := range c.Objections {
					if i < 0 || i >= len(sources) {
						continue
					}
					if l := objectionLink(sources[i]); !slices.Contains(cell.Evidence, l) {
						cell.Evidence = append(cell.Evidence, l)
					}
				}
			}
			// An operator's word that it honours a signal for this
			// purpose, with no crawler of its here for it (Microsoft,
			// noarchive, training): the cell says so, for its crawler.
			for i, sv := range sources {
				for _, h := range sv.Honoured {
					if h.Purpose != ap.Purpose || operator[h.Agent] != op {
						continue
					}
					if n == 0 {
						cell.Statement = op
						cell.Code = signals.AIPartlyRefused
						if sv.WholeSite {
							cell.Code = signals.AIRefused
						}
					}
					if !slices.Contains(cell.Crawlers, h.Agent) {
						cell.Crawlers = append(cell.Crawlers, h.Agent)
					}
					if l := objectionLink(sources[i]); !slices.Contains(cell.Evidence, l) {
						cell.Evidence = append(cell.Evidence, l)
					}
					objected++
				}
			}
			switch {
			case n == 0:
			case refused == n:
				cell.Code = signals.AIRefused
			case objected > 0:
				cell.Code = signals.AIPartlyRefused
			default:
				cell.Code = signals.AINoObjection
				cell.Evidence = []link{robotsLink}
			}
			any = any || cell.Code != ""
			row.Cells = append(row.Cells, cell)
		}
		if any {
			rows = append(rows, row)
		}
	}
	return rows
}

// objectionLink is an objecting source as a cell or a crawler's row links
// to it: the robots.txt line, or the kind of signal (and of term).
func objectionLink(sv aiSourceView) link {
	text := sv.KindWords
	if sv.Kind == "robots" || sv.Kind == "content-signal" || sv.Kind == "content-usage" {
		text = sv.Evidence.Text // "robots.txt line 12"
		if sv.Kind != "robots" {
			text = sv.KindWords + ", " + text
		}
	} else if sv.Term != "" {
		text += " (" + sv.Term + ")"
	}
	if !sv.WholeSite {
		text += ", in part"
	}
	return link{Href: sv.Evidence.Href, Text: text}
}
