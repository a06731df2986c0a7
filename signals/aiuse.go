package signals

import (
	"fmt"
	"slices"
	"strings"
)

// AIUse answers the reader's first question, "does this site object to its
// content being used to train AI?", from every signal we read (design §2.8).
type AIUse struct {
	Verdict string `json:"verdict"` // one of the AIVerdicts codes
	Why     string `json:"why"`
	// Refused names the AI training crawlers of our agents list that the
	// home host's robots.txt keeps from "/"; Allowed those it lets in.
	Refused []string   `json:"refused_crawlers"`
	Allowed []string   `json:"allowed_crawlers"`
	Sources []AISource `json:"sources"`
}

// AISource is one signal about AI use, pointing at its evidence.
type AISource struct {
	Kind string `json:"kind"` // robots | content-signal | content-usage | tdmrep | x-robots-tag | meta | terms
	Says string `json:"says"` // what it says, in its own words where it has them
	URL  string `json:"url"`
	Line int    `json:"line,omitempty"` // robots.txt line
	// Record is the WARC-Record-ID of the response it came from, when known.
	Record string `json:"record,omitempty"`
	// Term names the kind of objecting term of the terms: "scraping ban"
	// or "AI/TDM reservation" ("curated" when a person marked it).
	Term string `json:"term,omitempty"`
	// Objects says whether the signal objects to AI training: "all" (for
	// every AI training crawler), "some" (some crawlers, paths or media),
	// or "" (it does not object: shown as a source, deciding nothing).
	Objects string `json:"objects"`
}

// The AI use verdicts.
const (
	AIRefused       = "refused"
	AIPartlyRefused = "partly-refused"
	AINoObjection   = "no-objection-found"
	AIUnknown       = "unknown"
)

// Objection scopes of an AISource.
const (
	ObjectsAll  = "all"
	ObjectsSome = "some"
)

// Verdict is one verdict word with what it means; the about page prints
// these, so the words readers see are explained from the code that decides.
type Verdict struct {
	Code, Word, Meaning string
}

// AIVerdicts are the AI use verdicts in the order a reader meets them.
var AIVerdicts = []Verdict{
	{AIRefused, "Refused", "robots.txt keeps every AI training crawler we report on from the home page, or a signal (Content-Signal, Content-Usage, a TDMRep reservation, noai) or a prohibiting sentence of the terms objects to AI training for all."},
	{AIPartlyRefused, "Partly refused", "Some of the AI training crawlers are kept out by robots.txt, or some signal objects for some crawlers, paths or media only."},
	{AINoObjection, "No objection found", "robots.txt was read and nothing we read objects to AI training. This is not permission: silence is not consent, and pages we could not read may say otherwise."},
	{AIUnknown, "Unknown", "robots.txt was not read (a server error, a refusal, a challenge, no answer, or the site asked us to stop), so we do not know what it says to any crawler."},
}

// AIWord is the reader's word for an AI use verdict code.
func AIWord(code string) string {
	for _, v := range AIVerdicts {
		if v.Code == code {
			return v.Word
		}
	}
	return code
}

// aiUse combines the site's signals into its AI use verdict. It reads only
// findings already derived (robots, signals, quotes), so it runs last.
func aiUse(s *Site) AIUse {
	u := AIUse{Refused: []string{}, Allowed: []string{}, Sources: []AISource{}}
	if s.Blocked || s.Batch == "" || !robotsRead(s.Robots) {
		u.Verdict = AIUnknown
		switch {
		case s.Blocked:
			u.Why = "The site asked us to stop, so we sent no request and do not know what its robots.txt says."
		case s.Batch == "":
			u.Why = "Not read yet."
		case s.Robots.URL == "":
			u.Why = "robots.txt was not read, so we do not know what it says to any crawler."
		default:
			u.Why = "robots.txt was not read (" + s.Robots.NotReadCause() + "), so we do not know what it says to any crawler."
		}
		return u
	}
	byLine := map[int][]string{}
	var lines []int
	for _, a := range s.Robots.Agents {
		if a.Category != "ai-training" || a.RootAllowed == nil {
			continue
		}
		if *a.RootAllowed {
			u.Allowed = append(u.Allowed, a.Agent)
			continue
		}
		u.Refused = append(u.Refused, a.Agent)
		if _, ok := byLine[a.Line]; !ok {
			lines = append(lines, a.Line)
		}
		byLine[a.Line] = append(byLine[a.Line], a.Agent)
	}
	total := len(u.Allowed) + len(u.Refused)
	robotsScope := ""
	switch {
	case total > 0 && len(u.Refused) == total:
		robotsScope = ObjectsAll
	case len(u.Refused) > 0:
		robotsScope = ObjectsSome
	}
	for _, l := range lines {
		u.Sources = append(u.Sources, AISource{Kind: "robots", URL: s.Robots.URL, Line: l, Objects: robotsScope,
			Says: "Disallows / for " + strings.Join(byLine[l], ", ")})
	}
	if len(u.Refused) == 0 && total > 0 {
		u.Sources = append(u.Sources, AISource{Kind: "robots", URL: s.Robots.URL,
			Says: fmt.Sprintf("Lets all %d AI training crawlers we report on read /", total)})
	}
	for _, r := range s.OtherRobots {
		for _, a := range r.Agents {
			if a.Category == "ai-training" && a.RootAllowed != nil && !*a.RootAllowed {
				u.Sources = append(u.Sources, AISource{Kind: "robots", URL: r.URL, Line: a.Line, Objects: ObjectsSome,
					Says: "Disallows / for " + a.Agent + " on " + r.Host})
			}
		}
	}
	u.Sources = append(u.Sources, contentSignalSources(s.Robots, true)...)
	for _, r := range s.OtherRobots {
		u.Sources = append(u.Sources, contentSignalSources(r, false)...)
	}
	u.Sources = append(u.Sources, tdmSources(s)...)
	u.Sources = append(u.Sources, noAISources(s.Signals.Headers)...)
	// Sentences of the terms: a prohibition or reservation of scraping,
	// automated collection, AI training or text and data mining of the
	// site's content objects for every crawler (they all collect
	// automatically), naming the kind of term; any other about AI is
	// shown beside them, deciding nothing.
	for _, q := range s.Quotes {
		switch {
		case !q.Verified:
		case q.Objects != "":
			u.Sources = append(u.Sources, AISource{Kind: "terms", Term: termKind(q), Says: q.Says(), URL: q.URL, Objects: ObjectsAll})
		case speaksOfAI(q):
			u.Sources = append(u.Sources, AISource{Kind: "terms", Says: q.Says(), URL: q.URL})
		}
	}

	all, some := false, false
	for _, src := range u.Sources {
		all = all || src.Objects == ObjectsAll
		some = some || src.Objects == ObjectsSome
	}
	switch {
	case all:
		u.Verdict = AIRefused
	case some:
		u.Verdict = AIPartlyRefused
	default:
		u.Verdict = AINoObjection
	}
	u.Why = aiWhy(u, total) + notReadForMeaning(s)
	return u
}

// notReadForMeaning says, after a verdict's reason, how many of the
// documents read are in a language whose terms we do not read: what they
// say about AI is unknown to us, which the verdict must not hide.
func notReadForMeaning(s *Site) string {
	n := 0
	for _, d := range s.Read {
		if d.Role == RolePolicy && d.NotReadForMeaning {
			n++
		}
	}
	switch n {
	case 0:
		return ""
	case 1:
		return " One document we read is in a language whose terms we do not read for meaning: what it says is not counted."
	}
	return fmt.Sprintf(" %d documents we read are in a language whose terms we do not read for meaning: what they say is not counted.", n)
}

// aiWhy says in one sentence what decided the verdict.
func aiWhy(u AIUse, total int) string {
	var parts []string
	switch {
	case total > 0 && len(u.Refused) == total:
		parts = append(parts, fmt.Sprintf("robots.txt disallows all %d AI training crawlers we report on", total))
	case len(u.Refused) > 0:
		parts = append(parts, fmt.Sprintf("robots.txt disallows %d of %d AI training crawlers (%s)", len(u.Refused), total, strings.Join(u.Refused, ", ")))
	default:
		parts = append(parts, "robots.txt lets every AI training crawler we report on read the home page")
	}
	kinds := map[string]bool{}
	for _, src := range u.Sources {
		if src.Kind != "robots" && src.Objects != "" && !kinds[src.Kind] {
			kinds[src.Kind] = true
			parts = append(parts, sourceWords[src.Kind]+" objects")
		}
	}
	if u.Verdict == AINoObjection {
		return parts[0] + ", and nothing else we read objects to AI training."
	}
	return strings.Join(parts, "; ") + "."
}

// sourceWords name a kind of AI signal for readers.
var sourceWords = map[string]string{
	"robots": "robots.txt", "content-signal": "a Content-Signal line", "content-usage": "a Content-Usage line",
	"tdmrep": "a TDMRep reservation", "x-robots-tag": "an X-Robots-Tag header", "meta": "a robots meta tag",
	"terms": "a sentence of the terms",
}

// SourceWords is the reader's name for a kind of AI signal.
func SourceWords(kind string) string {
	if w, ok := sourceWords[kind]; ok {
		return w
	}
	return kind
}

// robotsRead says whether robots.txt was read: rules or no file. Anything
// else means we do not know what it says to anyone (design §2.3).
func robotsRead(r Robots) bool {
	return r.Outcome == "rules" || r.Outcome == "none"
}

// trainKeys are the keys of Content-Signal and Content-Usage lines that
// speak of AI training; no, n, disallow or false object to it.
var trainKeys = []string{"ai-train", "train-ai", "train-genai"}

func objectsNo(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "no", "n", "disallow", "false", "0":
		return true
	}
	return false
}

// contentSignalSources lists a host's Content-Signal and Content-Usage
// lines. A line objects for all when it stands in the * group or outside
// any group and covers the whole host; otherwise for some. A crawler with
// a group of its own does not read the * group (RFC 9309, 2.2.1), so a line
// there objects for all only when no AI training crawler of our list has
// one.
func contentSignalSources(r Robots, home bool) []AISource {
	var own []string // AI training crawlers that do not read the * group
	for _, a := range r.Agents {
		if a.Category == "ai-training" && a.Group == "own" {
			own = append(own, a.Agent)
		}
	}
	var out []AISource
	for _, c := range r.ContentSignals {
		src := AISource{Kind: strings.ToLower(c.Kind), URL: r.URL, Line: c.Line, Says: c.Kind + ": " + c.Text}
		for _, k := range trainKeys {
			v, ok := c.Values[k]
			if !ok || !objectsNo(v) {
				continue
			}
			src.Objects = ObjectsSome
			star := len(c.Agents) == 0
			for _, a := range c.Agents {
				star = star || a == "*"
			}
			if home && star && (c.Path == "" || c.Path == "/") && (len(c.Agents) == 0 || len(own) == 0) {
				src.Objects = ObjectsAll
			}
		}
		if len(c.Agents) > 0 {
			src.Says += " (for " + strings.Join(c.Agents, ", ") + ")"
			if slices.Contains(c.Agents, "*") && len(own) > 0 {
				src.Says += "; not read by " + strings.Join(own, ", ") + ", which follow a group of their own"
			}
		}
		out = append(out, src)
	}
	return out
}

// tdmSources: the TDMRep statement that applies to the home page, and
// reservations stated in headers or meta of other pages.
func tdmSources(s *Site) []AISource {
	var out []AISource
	if t := s.Signals.TDMReservation; t != nil {
		src := AISource{Kind: "tdmrep", URL: t.URL, Record: t.Record, Says: "Text and data mining rights not reserved (" + t.Source + ")"}
		if t.Reservation {
			src.Objects, src.Says = ObjectsAll, "Text and data mining rights reserved ("+t.Source+")"
		}
		out = append(out, src)
	}
	for _, h := range s.Signals.Headers {
		if h.Name == "tdm-reservation" && strings.TrimSpace(h.Value) == "1" && !samePage(h.URL, s.URL) {
			out = append(out, AISource{Kind: "tdmrep", URL: h.URL, Record: h.Record, Objects: ObjectsSome,
				Says: "Text and data mining rights reserved for this page (" + h.Source + " tdm-reservation: 1)"})
		}
	}
	return out
}

func samePage(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// noAISources finds noai and noimageai in X-Robots-Tag headers and robots
// meta tags. "noai" for every crawler objects for all; for one named
// crawler ("GPTBot: noai"), or for images only, for some.
func noAISources(hs []HeaderSignal) []AISource {
	var out []AISource
	for _, h := range hs {
		kind := ""
		switch {
		case h.Source == "header" && h.Name == "x-robots-tag":
			kind = "x-robots-tag"
		case h.Source == "meta" && h.Name == "robots":
			kind = "meta"
		default:
			continue
		}
		scope := ""
		agent, directives, named := strings.Cut(h.Value, ":")
		if !named || strings.ContainsAny(agent, ", ") {
			directives, named = h.Value, false
		}
		for _, d := range strings.FieldsFunc(strings.ToLower(directives), func(r rune) bool { return r == ',' || r == ' ' }) {
			switch d {
			case "noai":
				if !named {
					scope = ObjectsAll
				} else if scope == "" {
					scope = ObjectsSome
				}
			case "noimageai":
				if scope == "" {
					scope = ObjectsSome
				}
			}
		}
		if scope != "" {
			out = append(out, AISource{Kind: kind, URL: h.URL, Record: h.Record, Objects: scope, Says: h.Name + ": " + h.Value})
		}
	}
	return out
}

// termKind names the kind of an objecting quote.
func termKind(q Quote) string {
	if q.Kind != "" {
		return q.Kind
	}
	return "marked by a curator"
}

// Says is a quote as an AI source repeats it: with its lead-in, and "…"
// where a long sentence was cut. The page finds a source's quote by it.
func (q Quote) Says() string {
	t := q.Text
	if q.CutBefore {
		t = "… " + t
	}
	if q.CutAfter {
		t += " …"
	}
	if q.LeadIn != "" {
		t = q.LeadIn + " … " + t
	}
	return t
}
