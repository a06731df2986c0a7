package render

import (
	"strings"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/signals"
)

// rslView is an RSL licence file as the site page shows it: what became of
// it, and for a file read each statement beside the file's line that
// makes it (design §2.8).
type rslView struct {
	signals.RSLFile
	File, Robots link
	ReadAt       *date
	// NotRead says, for a file we did not read, why, in a sentence.
	NotRead  string
	Contents []rslContentView
}

type rslContentView struct {
	signals.RSLContent
	Licences [][]rslItem // per <license>, its statements in file order
}

// rslItem is one statement of a licence: what it says and its line.
type rslItem struct {
	Word   string // Prohibits, Permits, Payment, Standard
	Strong bool   // a prohibition: marked for readers
	What   string
	Line   int
	Text   string // the file's line, as written
}

func rslOf(files []signals.RSLFile) []rslView {
	var out []rslView
	for _, f := range files {
		v := rslView{RSLFile: f, File: linkTo(f.URL, ""), Robots: linkTo(f.RobotsURL, shortURL(f.RobotsURL)), ReadAt: newDate(f.ReadAt)}
		switch f.State {
		case signals.RSLNotRead:
			v.NotRead = f.Detail
			if f.Reason == evidence.ReasonOffList {
				v.NotRead += ", so we sent it no request: not on the reviewed list"
			}
		case signals.RSLNotAsked:
			v.NotRead = f.Detail
		}
		for _, c := range f.Contents {
			cv := rslContentView{RSLContent: c}
			for _, l := range c.Licenses {
				var items []rslItem
				for _, p := range l.Prohibits {
					items = append(items, rslItem{Word: "Prohibits", Strong: true, What: p.Type + ": " + strings.Join(p.Values, ", "), Line: p.Line, Text: p.Text})
				}
				for _, p := range l.Permits {
					items = append(items, rslItem{Word: "Permits", What: p.Type + ": " + strings.Join(p.Values, ", "), Line: p.Line, Text: p.Text})
				}
				if p := l.Payment; p != nil {
					what := p.Type
					if what == "" {
						what = "type not given"
					}
					if len(p.Amounts) > 0 {
						what += ", " + strings.Join(p.Amounts, ", ")
					}
					items = append(items, rslItem{Word: "Payment", What: what, Line: p.Line, Text: p.Text})
					for _, s := range p.Standard {
						what := "terms at their address"
						if s.Licence != "" {
							what = s.Licence
						}
						items = append(items, rslItem{Word: "Standard", What: what, Line: s.Line, Text: s.Text})
					}
				} else {
					items = append(items, rslItem{Word: "Payment", What: "none stated"})
				}
				cv.Licences = append(cv.Licences, items)
			}
			v.Contents = append(v.Contents, cv)
		}
		out = append(out, v)
	}
	return out
}
