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
	// Purposes are the verdicts per purpose (training, answers, search),
	// each combined per crawler of that purpose; the training one is the
	// verdict above. Empty when robots.txt was not read.
	Purposes []AIPurpose `json:"purposes"`
	// RestsOn says in a few words what the verdict rests on: the kinds of
	// objection and their strength, or for no objection found what was
	// read ("robots.txt: no objection; no terms read").
	RestsOn string `json:"rests_on"`
	// TermsRead says whether some terms, privacy, licence or other policy
	// page was read with text in a language we read for meaning: without
	// one, no objection found rests on robots.txt and headers alone.
	TermsRead bool `json:"terms_read"`
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
	// Purposes are the purposes it speaks to (training, answers, search),
	// saying yes or no; ObjectsFor those it objects for. Objects above is
	// about training alone, as the headline is.
	Purposes   []string `json:"purposes"`
	ObjectsFor []string `json:"objects_for"`
	// Honoured are crawlers whose operator says it honours this signal
	// for a purpose that is not the crawler's own (bingbot's operator:
	// noarchive, no training): it objects for that operator's use.
	Honoured []AIHonour `json:"honoured,omitempty"`
	// Strength is "machine-readable" (robots.txt, Content-Signal,
	// Content-Usage, TDMRep, meta or header) or "natural-language" (a
	// sentence of the terms).
	Strength string `json:"strength"`
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
	u := AIUse{Refused: []string{}, RobotsAllowed: []string{}, RobotsRefused: []string{}, Crawlers: []AICrawler{}, Sources: []AISource{}, Purposes: []AIPurpose{}}
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
		u.RestsOn = "robots.txt not read"
		if s.Blocked {
			u.RestsOn = "the site asked us to stop"
		}
		return u
	}
	// The crawlers of the home host's table, by purpose; those of
	// training are the headline's.
	byPurpose := map[string][]Agent{}
	for _, a := range s.Robots.Agents {
		if p := PurposeOf(a.Category); p != "" && a.RootAllowed != nil {
			byPurpose[p] = append(byPurpose[p], a)
		}
	}
	crawlers := byPurpose[PurposeTraining]
	all := make([]string, len(crawlers))
	for i, a := range crawlers {
		all[i] = a.Agent
	}
	u.Sources = append(u.Sources, robotsSources(s.Robots, crawlers, &u)...)
	for _, p := range Purposes[1:] {
		u.Sources = append(u.Sources, robotsLines(s.Robots, byPurpose[p], p)...)
	}
	for _, r := range s.OtherRobots {
		for _, a := range r.Agents {
			if p := PurposeOf(a.Category); p != "" && a.RootAllowed != nil && !*a.RootAllowed {
				u.Sources = append(u.Sources, AISource{Kind: "robots", URL: r.URL, Line: a.Line, Crawlers: []string{a.Agent},
					Purposes: []string{p}, ObjectsFor: []string{p}, Says: "Disallows / for " + a.Agent + " on " + r.Host})
			}
		}
	}
	u.Sources = append(u.Sources, contentSignalSources(s.Robots, true)...)
	for _, r := range s.OtherRobots {
		u.Sources = append(u.Sources, contentSignalSources(r, false)...)
	}
	u.Sources = append(u.Sources, headerUseSources(s, byPurpose)...)
	u.Sources = append(u.Sources, tdmSources(s, all)...)
	u.Sources = append(u.Sources, noAISources(s.Signals.Headers, all)...)
	u.Sources = append(u.Sources, noArchiveSources(s, byPurpose)...)
	u.Sources = append(u.Sources, rslSources(s, byPurpose)...)
	// Sentences of the terms: a prohibition or reservation of scraping,
	// automated collection, AI training or text and data mining of the
	// site's content objects for every training crawler (they all collect
	// automatically), naming the kind of term; any other about AI is
	// shown beside them, deciding nothing. They speak of training: what
	// one says of AI answers or search is not read from it.
	for _, q := range s.Quotes {
		switch {
		case !q.Verified:
		case q.Objects != "":
			u.Sources = append(u.Sources, AISource{Kind: "terms", Term: termKind(q), Says: q.Says(), URL: q.URL, Crawlers: all, WholeSite: true,
				Purposes: []string{PurposeTraining}, ObjectsFor: []string{PurposeTraining}})
		case speaksOfAI(q):
			u.Sources = append(u.Sources, AISource{Kind: "terms", Says: q.Says(), URL: q.URL})
		}
	}

	// Per purpose, per crawler: the signals that object for it, and
	// whether one covers the whole site. Training's is the headline.
	for _, p := range Purposes {
		u.Purposes = append(u.Purposes, purposeVerdict(p, byPurpose[p], u.Sources))
	}
	train := u.Purposes[0]
	u.Crawlers = train.Crawlers
	for _, c := range train.Crawlers {
		if c.Refused {
			u.Refused = append(u.Refused, c.Agent)
		}
	}
	// A source's scope, for readers: for every training crawler and the
	// whole site, or for some; and its strength.
	for i := range u.Sources {
		src := &u.Sources[i]
		if src.Crawlers == nil {
			src.Crawlers = []string{}
		}
		if src.Purposes == nil {
			src.Purposes = []string{}
		}
		if src.ObjectsFor == nil {
			src.ObjectsFor = []string{}
		}
		src.Strength = "machine-readable"
		if src.Kind == "terms" {
			src.Strength = "natural-language"
		}
		n := 0
		for _, c := range src.Crawlers {
			if slices.Contains(all, c) {
				n++
			}
		}
		switch {
		case n == 0:
			src.Objects = ""
		case src.WholeSite && n == len(crawlers):
			src.Objects = ObjectsAll
		default:
			src.Objects = ObjectsSome
		}
	}
	u.Verdict = train.Verdict
	u.TermsRead = termsRead(s)
	u.Why = aiWhy(u, len(crawlers), s) + notReadForMeaning(s)
	u.RestsOn = restsOn(u, len(crawlers))
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
// crawlers (robotsLines), and fill the robots-only lists of u.
func robotsSources(r Robots, crawlers []Agent, u *AIUse) []AISource {
	for _, a := range crawlers {
		if *a.RootAllowed {
			u.RobotsAllowed = append(u.RobotsAllowed, a.Agent)
		} else {
			u.RobotsRefused = append(u.RobotsRefused, a.Agent)
		}
	}
	return robotsLines(r, crawlers, PurposeTraining)
}

// robotsLines are the home robots.txt's verdicts for the crawlers of one
// purpose: one source per deciding line that keeps some from "/" (each
// covers the whole site for those crawlers), or one saying it lets them
// all in.
func robotsLines(r Robots, crawlers []Agent, purpose string) []AISource {
	byLine := map[int][]string{}
	var lines []int
	for _, a := range crawlers {
		if *a.RootAllowed {
			continue
		}
		if _, ok := byLine[a.Line]; !ok {
			lines = append(lines, a.Line)
		}
		byLine[a.Line] = append(byLine[a.Line], a.Agent)
	}
	var out []AISource
	for _, l := range lines {
		out = append(out, AISource{Kind: "robots", URL: r.URL, Line: l, Crawlers: byLine[l], WholeSite: true,
			Purposes: []string{purpose}, ObjectsFor: []string{purpose},
			Says: "Disallows / for " + strings.Join(byLine[l], ", ")})
	}
	if len(lines) == 0 && len(crawlers) > 0 {
		out = append(out, AISource{Kind: "robots", URL: r.URL, Purposes: []string{purpose},
			Says: fmt.Sprintf("Lets all %d %s we report on read /", len(crawlers), purposeCrawlers[purpose])})
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
	for _, w := range objectionKinds(u) {
		parts = append(parts, w+" objects")
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

// objectionKinds are the words for each kind of signal that objects to AI
// training, other than robots.txt, each once, in the order of the sources;
// a sentence of the terms is named by its kind, as a general ban on
// scraping is weaker than a reservation that names AI (design §2.8).
func objectionKinds(u AIUse) []string {
	var out []string
	for _, src := range u.Sources {
		if src.Kind == "robots" || !objectsToTraining(src) {
			continue
		}
		w := sourceWords[src.Kind]
		switch {
		case src.Kind == "terms":
			w = termWords(src.Term)
		case isNoArchive(src):
			w = noArchiveWords(src)
		}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// objectsToTraining says whether a source objects to AI training for a
// crawler of ours, or for an operator that honours it for training.
func objectsToTraining(src AISource) bool {
	return src.Objects != "" || slices.ContainsFunc(src.Honoured, func(h AIHonour) bool { return h.Purpose == PurposeTraining })
}

// termWords name an objecting sentence of the terms by its kind.
func termWords(term string) string {
	switch term {
	case "scraping ban":
		return "a general ban on scraping or automated collection in the terms, naming no AI,"
	case "AI/TDM reservation":
		return "a sentence of the terms naming AI or text and data mining"
	}
	return "a sentence of the terms marked by a curator"
}

// termsRead says whether some policy page was read with text in a language
// whose terms we read for meaning: what "no objection found" can rest on
// beyond robots.txt and headers.
func termsRead(s *Site) bool {
	for _, d := range s.Read {
		if d.Role == RolePolicy && d.Chars > 0 && !d.NotReadForMeaning {
			return true
		}
	}
	return false
}

// restsOn says in a few words what the verdict rests on, for the headline
// and the directory row: the kinds of objection with their strength, and
// whether robots.txt objects at all; for no objection found, what was read
// (design §2.8: "no terms read" beside it where none was).
func restsOn(u AIUse, total int) string {
	switch u.Verdict {
	case AINoObjection:
		if u.TermsRead {
			return "robots.txt: no objection; terms read: no objection"
		}
		return "robots.txt: no objection; no terms read"
	case AIUnknown:
		return "robots.txt not read"
	}
	var kinds []string
	terms, bans := 0, 0
	for _, src := range u.Sources {
		if !objectsToTraining(src) {
			continue
		}
		w := sourceWords[src.Kind]
		if isNoArchive(src) {
			w = noArchiveWords(src)
		}
		switch src.Kind {
		case "robots":
			if n := len(u.RobotsRefused); n < total {
				w = fmt.Sprintf("robots.txt (%d of %d AI training crawlers)", n, total)
			}
		case "terms":
			terms++
			switch src.Term {
			case "scraping ban":
				bans++
				w = "a general scraping ban in the terms (no AI named)"
			case "AI/TDM reservation":
				w = "an AI/TDM reservation in the terms"
			default:
				w = "a sentence of the terms marked by a curator"
			}
		}
		if !slices.Contains(kinds, w) {
			kinds = append(kinds, w)
		}
	}
	if len(kinds) == 0 { // cannot be: a verdict that objects has a source
		return ""
	}
	out := "by " + kinds[0]
	if n := len(kinds); n > 1 {
		out = "by " + strings.Join(kinds[:n-1], ", ") + " and " + kinds[n-1]
	}
	if len(u.RobotsRefused) == 0 && total > 0 {
		out += "; robots.txt lets every AI training crawler in"
	}
	if terms > 0 && bans == terms && len(kinds) == 1 {
		out = "only " + out
	}
	return out
}

// sourceWords name a kind of AI signal for readers.
var sourceWords = map[string]string{
	"robots": "robots.txt", "content-signal": "a Content-Signal line", "content-usage": "a Content-Usage line",
	"tdmrep": "a TDMRep reservation", "x-robots-tag": "an X-Robots-Tag header", "meta": "a robots meta tag",
	"terms": "a sentence of the terms", "content-signal-header": "a Content-Signal header",
	"content-usage-header": "a Content-Usage header", "content-usage-meta": "a content-usage meta tag",
	"rsl": "an RSL licence file",
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

// objectsNo says whether a Content-Signal or Content-Usage value says no:
// no, n, disallow or false.
func objectsNo(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "no", "n", "disallow", "false", "0":
		return true
	}
	return false
}

// contentSignalSources lists a host's Content-Signal and Content-Usage
// lines. Each key speaks to a purpose (keyPurposes); a no objects for the
// crawlers of that purpose that read the line's group: a crawler with a
// group of its own reads only that (RFC 9309, 2.2.1), any other the *
// group; a line outside any group speaks for the whole host. It covers the
// whole site when it is on the home host and not limited to a path.
func contentSignalSources(r Robots, home bool) []AISource {
	var out []AISource
	for _, c := range r.ContentSignals {
		speaks, objects := keysSay(strings.ToLower(c.Kind), c.Values)
		src := AISource{Kind: strings.ToLower(c.Kind), URL: r.URL, Line: c.Line, Says: c.Kind + ": " + c.Text,
			Purposes: speaks, ObjectsFor: objects}
		for _, p := range objects {
			src.Crawlers = append(src.Crawlers, readersOf(r, c, p)...)
		}
		if len(src.Crawlers) > 0 {
			src.WholeSite = home && (c.Path == "" || c.Path == "/")
		}
		var own []string // crawlers it speaks to that do not read the * group
		for _, a := range r.Agents {
			if p := PurposeOf(a.Category); a.Group == "own" && slices.Contains(speaks, p) {
				own = append(own, a.Agent)
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

// readersOf lists the crawlers of one purpose in r's agents table that
// read the group line c stands in (all of them for a line outside any
// group).
func readersOf(r Robots, c ContentSignal, purpose string) []string {
	var out []string
	for _, a := range r.Agents {
		if PurposeOf(a.Category) != purpose || a.RootAllowed == nil {
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
