package signals

import (
	"fmt"
	"slices"
	"strings"
)

// AIUse answers the reader's first question, "does this site object to its
// content being used to train AI?", from every signal we read, combined per
// crawler (design §2.8).
type AIUse struct {
	Verdict string `json:"verdict"` // one of the AIVerdicts codes
	Why     string `json:"why"`
	// Refused names the AI training crawlers of our agents list that meet
	// at least one objection covering the whole site, whichever signal it
	// is (their robots.txt group, a Content-Signal line of the group they
	// read, TDMRep, noai, the terms): see Crawlers for which.
	Refused []string `json:"refused_crawlers"`
	// RobotsAllowed and RobotsRefused are robots.txt's verdicts alone: the
	// AI training crawlers the home host's robots.txt lets read "/", and
	// those it keeps from it. A crawler robots.txt allows may still be
	// refused by another signal. Not in the export: each is Crawlers'
	// robots verdict again (issue 25, a lighter site), and nothing reads
	// them after the contradictions are found.
	RobotsAllowed []string `json:"-"`
	RobotsRefused []string `json:"-"`
	// Crawlers are the AI training crawlers of our agents list, each with
	// the signals that object for it; empty when robots.txt was not read.
	Crawlers []AICrawler `json:"crawlers"`
	Sources  []AISource  `json:"sources"`
}

// AICrawler is what one AI training crawler meets on the site (design
// §2.8): robots.txt's verdict for it, the Content-Signal and Content-Usage
// lines of the group it reads, and the site-wide signals.
type AICrawler struct {
	Agent string `json:"agent"`
	// Robots is robots.txt's verdict for "/" on the home host (allowed or
	// disallowed); Group the group it reads there (own, star or none).
	Robots string `json:"robots"`
	Group  string `json:"group"`
	// Refused says an objection covering the whole site applies to it;
	// Objections are the indexes, into Sources, of every signal that
	// objects for it, for the whole site or a part.
	Refused    bool  `json:"refused"`
	Objections []int `json:"objections"`
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
	// every AI training crawler, the whole site), "some" (some crawlers,
	// paths, hosts or media), or "" (it does not object: shown as a
	// source, deciding nothing).
	Objects string `json:"objects"`
	// Crawlers are the AI training crawlers of our list it objects for;
	// WholeSite says it objects for them on the whole site, not only on
	// some paths, another host or for images.
	Crawlers  []string `json:"crawlers"`
	WholeSite bool     `json:"whole_site"`
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
	{AIRefused, "Refused", "Every AI training crawler we report on meets at least one objection covering the whole site, each by its own signals: the robots.txt group it reads keeps it from the home page, a Content-Signal or Content-Usage line of that group says no to AI training, or a site-wide signal objects (a TDMRep reservation, noai, a sentence of the terms that prohibits AI use, text and data mining, scraping or automated collection)."},
	{AIPartlyRefused, "Partly refused", "Some AI training crawlers meet such an objection and others do not, or a signal objects only for some paths, another host of the site, or images."},
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

// aiUse combines the site's signals into its AI use verdict, per crawler
// (design §2.8): each AI training crawler of our list meets robots.txt's
// verdict for it, the Content-Signal and Content-Usage lines of the group
// it reads, and the site-wide signals (TDMRep, noai, the terms). Refused
// when every one meets an objection covering the whole site; partly
// refused when some signal objects for some crawler or part. It reads only
// findings already derived (robots, signals, quotes), so it runs last.
func aiUse(s *Site) AIUse {
	u := AIUse{Refused: []string{}, RobotsAllowed: []string{}, RobotsRefused: []string{}, Crawlers: []AICrawler{}, Sources: []AISource{}}
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
			u.Why = s.Robots.NotReadLead() + " so we do not know what it says to any crawler."
		}
		return u
	}
	var crawlers []Agent // the AI training crawlers of the home host's table
	for _, a := range s.Robots.Agents {
		if a.Category == "ai-training" && a.RootAllowed != nil {
			crawlers = append(crawlers, a)
		}
	}
	all := make([]string, len(crawlers))
	for i, a := range crawlers {
		all[i] = a.Agent
	}
	u.Sources = append(u.Sources, robotsSources(s.Robots, crawlers, &u)...)
	for _, r := range s.OtherRobots {
		for _, a := range r.Agents {
			if a.Category == "ai-training" && a.RootAllowed != nil && !*a.RootAllowed {
				u.Sources = append(u.Sources, AISource{Kind: "robots", URL: r.URL, Line: a.Line, Crawlers: []string{a.Agent},
					Says: "Disallows / for " + a.Agent + " on " + r.Host})
			}
		}
	}
	u.Sources = append(u.Sources, contentSignalSources(s.Robots, true)...)
	for _, r := range s.OtherRobots {
		u.Sources = append(u.Sources, contentSignalSources(r, false)...)
	}
	u.Sources = append(u.Sources, tdmSources(s, all)...)
	u.Sources = append(u.Sources, noAISources(s.Signals.Headers, all)...)
	u.Sources = append(u.Sources, rslSources(s)...)
	// Sentences of the terms: a prohibition or reservation of scraping,
	// automated collection, AI training or text and data mining of the
	// site's content objects for every crawler (they all collect
	// automatically), naming the kind of term; any other about AI is
	// shown beside them, deciding nothing.
	for _, q := range s.Quotes {
		switch {
		case !q.Verified:
		case q.Objects != "":
			u.Sources = append(u.Sources, AISource{Kind: "terms", Term: termKind(q), Says: q.Says(), URL: q.URL, Crawlers: all, WholeSite: true})
		case speaksOfAI(q):
			u.Sources = append(u.Sources, AISource{Kind: "terms", Says: q.Says(), URL: q.URL})
		}
	}

	// Per crawler: the signals that object for it, and whether one covers
	// the whole site.
	refused, objected := 0, 0
	for _, a := range crawlers {
		c := AICrawler{Agent: a.Agent, Robots: a.Verdict(), Group: a.Group, Objections: []int{}}
		for i, src := range u.Sources {
			if slices.Contains(src.Crawlers, a.Agent) {
				c.Objections = append(c.Objections, i)
				c.Refused = c.Refused || src.WholeSite
			}
		}
		if c.Refused {
			refused++
			u.Refused = append(u.Refused, a.Agent)
		}
		if len(c.Objections) > 0 {
			objected++
		}
		u.Crawlers = append(u.Crawlers, c)
	}
	// A source's scope, for readers: for every crawler and the whole site,
	// or for some.
	for i := range u.Sources {
		src := &u.Sources[i]
		if src.Crawlers == nil {
			src.Crawlers = []string{}
		}
		switch {
		case len(src.Crawlers) == 0:
			src.Objects = ""
		case src.WholeSite && len(src.Crawlers) == len(crawlers):
			src.Objects = ObjectsAll
		default:
			src.Objects = ObjectsSome
		}
	}
	switch {
	case len(crawlers) > 0 && refused == len(crawlers):
		u.Verdict = AIRefused
	case objected > 0:
		u.Verdict = AIPartlyRefused
	default:
		u.Verdict = AINoObjection
	}
	u.Why = aiWhy(u, len(crawlers), s) + notReadForMeaning(s)
	return u
}

// policyRead says whether some terms, privacy, licence or other policy
// page was read with text: without one, "nothing else we read objects"
// would claim more than we read.
func policyRead(s *Site) bool {
	for _, d := range s.Read {
		if d.Role == RolePolicy && d.Chars > 0 {
			return true
		}
	}
	return false
}

// noPolicyWords says why no policy page was read, from the gaps: "the
// home page needs JavaScript", or how many addresses were not read and
// the main reason.
func noPolicyWords(s *Site) string {
	counts := map[string]int{}
	main := ""
	for _, g := range s.NotRead {
		counts[g.Reason]++
		if main == "" || counts[g.Reason] > counts[main] {
			main = g.Reason
		}
	}
	all := len(s.NotRead) > 0 && counts[main] == len(s.NotRead)
	switch {
	case len(s.NotRead) == 0:
		return "we found no terms, privacy or licence page to read"
	case main == "needs-javascript" && all:
		if len(s.NotRead) == 1 && s.NotRead[0].FoundVia == "home" {
			return "the home page needs JavaScript (it has no text without scripts), so we found no link to a terms, privacy or licence page to read"
		}
		return fmt.Sprintf("all %d pages we planned need JavaScript, so we read no terms, privacy or licence page", len(s.NotRead))
	}
	return fmt.Sprintf("we read no terms, privacy or licence page (%d addresses not read, mostly %s)", len(s.NotRead), main)
}

// robotsSources are the home robots.txt's verdicts for the AI training
// crawlers: one source per deciding line that keeps some from "/" (each
// covers the whole site for those crawlers), or one saying it lets them
// all in. It fills the robots-only lists of u.
func robotsSources(r Robots, crawlers []Agent, u *AIUse) []AISource {
	byLine := map[int][]string{}
	var lines []int
	for _, a := range crawlers {
		if *a.RootAllowed {
			u.RobotsAllowed = append(u.RobotsAllowed, a.Agent)
			continue
		}
		u.RobotsRefused = append(u.RobotsRefused, a.Agent)
		if _, ok := byLine[a.Line]; !ok {
			lines = append(lines, a.Line)
		}
		byLine[a.Line] = append(byLine[a.Line], a.Agent)
	}
	var out []AISource
	for _, l := range lines {
		out = append(out, AISource{Kind: "robots", URL: r.URL, Line: l, Crawlers: byLine[l], WholeSite: true,
			Says: "Disallows / for " + strings.Join(byLine[l], ", ")})
	}
	if len(u.RobotsRefused) == 0 && len(crawlers) > 0 {
		out = append(out, AISource{Kind: "robots", URL: r.URL,
			Says: fmt.Sprintf("Lets all %d AI training crawlers we report on read /", len(crawlers))})
	}
	return out
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

// aiWhy says in one sentence what decided the verdict: how many crawlers
// meet an objection, and which kinds of signal object.
func aiWhy(u AIUse, total int, s *Site) string {
	var parts []string
	switch n := len(u.RobotsRefused); {
	case total > 0 && n == total:
		parts = append(parts, fmt.Sprintf("robots.txt disallows all %d AI training crawlers we report on", total))
	case n > 0:
		parts = append(parts, fmt.Sprintf("robots.txt disallows %d of %d AI training crawlers (%s)", n, total, strings.Join(u.RobotsRefused, ", ")))
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
	switch {
	case u.Verdict == AINoObjection && !policyRead(s):
		return parts[0] + ", and no other signal we read objects; but " + noPolicyWords(s) + ": what the terms say about AI is unknown to us."
	case u.Verdict == AINoObjection:
		return parts[0] + ", and nothing else we read objects to AI training."
	case u.Verdict == AIRefused && len(u.RobotsRefused) < total:
		return strings.Join(parts, "; ") + fmt.Sprintf("; together, every one of the %d meets an objection.", total)
	case u.Verdict == AIPartlyRefused && len(u.Refused) > 0:
		return strings.Join(parts, "; ") + fmt.Sprintf("; together, %d of %d meet an objection covering the whole site.", len(u.Refused), total)
	}
	return strings.Join(parts, "; ") + "."
}

// sourceWords name a kind of AI signal for readers.
var sourceWords = map[string]string{
	"robots": "robots.txt", "content-signal": "a Content-Signal line", "content-usage": "a Content-Usage line",
	"tdmrep": "a TDMRep reservation", "x-robots-tag": "an X-Robots-Tag header", "meta": "a robots meta tag",
	"terms": "a sentence of the terms", "rsl": "an RSL licence file",
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
// lines. A line objects for the AI training crawlers that read its group:
// a crawler with a group of its own reads only that (RFC 9309, 2.2.1), any
// other the * group; a line outside any group speaks for the whole host.
// It covers the whole site when it is on the home host and not limited to
// a path.
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
		objects := false
		for _, k := range trainKeys {
			if v, ok := c.Values[k]; ok && objectsNo(v) {
				objects = true
			}
		}
		if objects {
			src.Crawlers = readersOf(r, c)
			src.WholeSite = home && (c.Path == "" || c.Path == "/")
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

// readersOf lists the AI training crawlers of r's agents table that read
// the group line c stands in (all of them for a line outside any group).
func readersOf(r Robots, c ContentSignal) []string {
	var out []string
	for _, a := range r.Agents {
		if a.Category != "ai-training" {
			continue
		}
		reads := len(c.Agents) == 0
		for _, g := range c.Agents {
			switch {
			case g == "*":
				reads = reads || a.Group == "star"
			case a.Group == "own" && strings.EqualFold(g, a.ParserToken):
				reads = true
			}
		}
		if reads {
			out = append(out, a.Agent)
		}
	}
	return out
}

// tdmSources: the TDMRep statement that applies to the home page (a
// reservation covers the whole site for every crawler), and reservations
// stated in headers or meta of other pages (a part of the site).
func tdmSources(s *Site, crawlers []string) []AISource {
	var out []AISource
	if t := s.Signals.TDMReservation; t != nil {
		src := AISource{Kind: "tdmrep", URL: t.URL, Record: t.Record, Says: "Text and data mining rights not reserved (" + t.Source + ")"}
		if t.Reservation {
			src.Crawlers, src.WholeSite, src.Says = crawlers, true, "Text and data mining rights reserved ("+t.Source+")"
		}
		out = append(out, src)
	}
	for _, h := range s.Signals.Headers {
		if h.Name == "tdm-reservation" && strings.TrimSpace(h.Value) == "1" && !samePage(h.URL, s.URL) {
			out = append(out, AISource{Kind: "tdmrep", URL: h.URL, Record: h.Record, Crawlers: crawlers,
				Says: "Text and data mining rights reserved for this page (" + h.Source + " tdm-reservation: 1)"})
		}
	}
	return out
}

func samePage(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// noAISources finds noai and noimageai in X-Robots-Tag headers and robots
// meta tags. "noai" for every crawler objects for all of them; for one
// named crawler ("GPTBot: noai") for that one; "noimageai" only for
// images, a part.
func noAISources(hs []HeaderSignal, crawlers []string) []AISource {
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
		agent, directives, named := strings.Cut(h.Value, ":")
		if !named || strings.ContainsAny(agent, ", ") {
			directives, named = h.Value, false
		}
		for_ := crawlers
		if named {
			for_ = nil
			for _, c := range crawlers {
				if strings.EqualFold(c, strings.TrimSpace(agent)) {
					for_ = append(for_, c)
				}
			}
		}
		noai, noimage := false, false
		for _, d := range strings.FieldsFunc(strings.ToLower(directives), func(r rune) bool { return r == ',' || r == ' ' }) {
			noai = noai || d == "noai"
			noimage = noimage || d == "noimageai"
		}
		if !noai && !noimage {
			continue
		}
		src := AISource{Kind: kind, URL: h.URL, Record: h.Record, Says: h.Name + ": " + h.Value, Crawlers: for_, WholeSite: noai}
		if named && len(for_) == 0 {
			src.Crawlers = nil // a crawler not on our list: shown, deciding nothing for ours
		}
		out = append(out, src)
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
