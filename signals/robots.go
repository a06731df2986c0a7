package signals

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/policy"
	"github.com/crawlsignals/crawlsignals/robots"
)

// robotsSection reads a host's robots.txt back from evidence and says, for
// each crawler of our agents list, what it means.
func robotsSection(es *evidence.Site, hr evidence.HostRobots, addrs []evidence.Address) (Robots, error) {
	r := Robots{
		Host: hr.Host, URL: hr.URL, Status: hr.Status, Outcome: hr.Outcome, Reason: hr.Reason, Detail: hr.Detail,
		Sitemaps: []string{}, LicenseLines: []RobotsLicense{}, Agents: []Agent{}, CommentQuotes: []string{}, Groups: []Group{}, ContentSignals: []ContentSignal{},
	}
	if hr.CrawlDelay > 0 {
		d := hr.CrawlDelay
		r.CrawlDelaySeconds = &d
	}
	var file *robots.File
	var whole []string // every line of the file, past the 500 KiB read for rules
	var err error
	if hr.Outcome == string(robots.Rules) {
		file, whole, r.SHA256, r.ContentType, err = storedRobots(es, hr.URL, addrs)
		if err != nil {
			r.Outcome, r.Meaning = "not-read", "Evidence of robots.txt could not be read back: it was fetched, but its stored copy is damaged or missing, so we do not say what it says."
			return r, err
		}
	}
	agents := robots.Agents()
	switch robots.Outcome(hr.Outcome) {
	case robots.Rules:
		r.Meaning = fmt.Sprintf("robots.txt answered HTTP %d with rules; the table shows what they say to each crawler.", hr.Status)
		report := file.Report(agents)
		r.Agents = make([]Agent, 0, len(report)) // a site's findings are kept for the whole build: no spare room
		for _, v := range report {
			// A pointer to a copy: one into v would keep the whole
			// report entry alive as long as the findings.
			root := v.RootAllowed
			allowed := &root
			if v.Err != nil {
				allowed = nil // the matcher failed: we do not know
			}
			r.Agents = append(r.Agents, Agent{Agent: v.Agent, ParserToken: v.Token, Note: v.Note, Operator: v.Operator,
				Purpose: v.Purpose, Category: v.Category, Group: v.Group, RootAllowed: allowed, Line: v.Line})
		}
		r.Sitemaps = append(r.Sitemaps, file.Sitemaps()...)
		for _, l := range file.Licenses() {
			r.LicenseLines = append(r.LicenseLines, RobotsLicense{Line: l.Line, URL: l.URL})
		}
		for _, c := range file.ProhibitingComments() {
			r.CommentQuotes = append(r.CommentQuotes, c.Text)
		}
		r.Groups, r.ContentSignals = groups(file)
		r.LooksLikeHTML, r.Truncated = file.LooksLikeHTML(), file.Truncated
		r.NotTextPlain = !robots.IsTextPlain(r.ContentType)
		r.LineCount = file.Lines()
		for r.LineCount > 0 && strings.TrimSpace(file.Line(r.LineCount)) == "" {
			r.LineCount-- // the newline that ends the file is not a line to show
		}
		// The page shows the first MaxRobotsLines; a diff between batches
		// reads the whole file (wholeLines), never the shown part alone,
		// and past the 500 KiB its rules are read from when it is longer.
		r.wholeLines = make([]string, r.LineCount)
		for n := 1; n <= r.LineCount; n++ {
			r.wholeLines[n-1] = file.Line(n)
		}
		if file.Truncated {
			r.wholeLines = whole
			for len(r.wholeLines) > 0 && strings.TrimSpace(r.wholeLines[len(r.wholeLines)-1]) == "" {
				r.wholeLines = r.wholeLines[:len(r.wholeLines)-1]
			}
		}
		r.Lines = slices.Clone(r.wholeLines[:min(r.LineCount, MaxRobotsLines)])
		if r.Truncated {
			r.Meaning += " The file is longer than 500 KiB; like other RFC 9309 readers we read only the first 500 KiB."
		}
		if r.NotTextPlain && !r.LooksLikeHTML {
			r.Meaning += " It was served as " + orUnknown(r.ContentType) + ", not text/plain."
		}
		if r.LooksLikeHTML {
			r.Meaning += " The file looks like an HTML page rather than robots.txt, so it holds no rules we can read; we do not count that as “no restrictions”."
		}
		if hr.Reason == evidence.ReasonCrawlDelay {
			r.Meaning += " " + hr.Detail + ", so we did not read the host."
		}
	case robots.None:
		r.Meaning = fmt.Sprintf("No robots.txt (HTTP %d): by RFC 9309 there are no rules, and every crawler may read everything.", hr.Status)
		for _, a := range agents {
			r.Agents = append(r.Agents, agentOf(a, "none", boolPtr(true)))
		}
	default:
		// Whatever our crawler then did (read nothing else there), the file
		// itself was not read: the export says so (design §6).
		r.Outcome = OutcomeNotRead
		r.Reason, r.Detail = notReadWhy(hr, addrs)
		r.Meaning = notReadMeaning(r)
		for _, a := range agents {
			r.Agents = append(r.Agents, agentOf(a, "unknown", nil))
		}
	}
	return r, nil
}

// MaxRobotsLines is how many lines of a robots.txt a page shows; longer
// files are rare, and the page links the whole file. It limits what is
// shown, never what is compared.
const MaxRobotsLines = 1000

// robotsTextKey is where a robots.txt's whole lines are kept among a
// batch's page texts (and so in its derived texts file), for diffs: a key
// no address can be, so no curated quote is checked against it.
func robotsTextKey(url string) string { return "robots.txt lines " + url }

// The values of robots.outcome (design §6): what the file is, never what
// our crawler did about it.
const (
	OutcomeRules   = "rules"    // 2xx, parsed
	OutcomeNone    = "none"     // 404/410: no robots.txt
	OutcomeNotRead = "not-read" // any other answer, a challenge, or none
)

// notReadWhy is the reason and detail of a robots.txt that was not read,
// taken from the address of robots.txt itself: its gap says "HTTP 403" or
// names the challenge, where the host's record adds what our crawler did
// about it (older batches wrote "everything on the host is disallowed",
// which reads as if the site had said it).
func notReadWhy(hr evidence.HostRobots, addrs []evidence.Address) (reason, detail string) {
	for _, a := range addrs {
		if a.URL == hr.URL && a.FoundVia == "robots" && a.Outcome == evidence.OutcomeGap {
			return a.Reason, a.Detail
		}
	}
	d, _, _ := strings.Cut(hr.Detail, ": everything on the host is disallowed")
	return hr.Reason, d
}

// NotReadCause says in a phrase why robots.txt was not read ("it answered
// HTTP 403", "a bot challenge answered in its place (…)"), for the
// sentences that say so.
func (r Robots) NotReadCause() string {
	s := r.Status
	switch {
	case r.Reason == evidence.ReasonBotChallenge && r.Detail != "":
		return "a bot challenge answered in its place, with " + r.Detail
	case r.Reason == evidence.ReasonBotChallenge:
		return "a bot challenge answered in its place"
	case s >= 200 && s < 300:
		return fmt.Sprintf("it answered HTTP %d with something we could not read as robots.txt (%s)", s, r.Detail)
	case s >= 300 && s < 400:
		return fmt.Sprintf("it answered HTTP %d and did not lead to a file within 5 redirects", s)
	case s != 0:
		return fmt.Sprintf("it answered HTTP %d", s)
	case r.Detail != "":
		return "it could not be fetched (" + r.Detail + ")"
	}
	return "it could not be fetched"
}

// NotReadLead opens a sentence about a robots.txt that was not read, up to
// the comma or semicolon after which the sentence goes on: "robots.txt was
// not read (it answered HTTP 403)," or, when the cause holds parentheses
// of its own, "robots.txt was not read: CAUSE;".
func (r Robots) NotReadLead() string {
	c := r.NotReadCause()
	if strings.ContainsAny(c, "()") {
		return "robots.txt was not read: " + c + ";"
	}
	return "robots.txt was not read (" + c + "),"
}

// notReadMeaning explains a robots.txt we could not read. What RFC 9309
// tells other crawlers and what our crawler does are different questions
// (design §2.3): we never know what such a file says to anyone, and that
// we read nothing else on the host is our rule, said as ours.
func notReadMeaning(r Robots) string {
	const unknown = " so we do not know what it says to any crawler."
	const another = " Another crawler, at another time, may get another answer."
	lead := r.NotReadLead()
	switch s := r.Status; {
	case r.Reason == evidence.ReasonBotChallenge:
		return lead + unknown + " A challenge is not robots.txt; counting it as no answer, and so reading nothing else on the host, is our rule." + another
	case s >= 200 && s < 300:
		return lead + unknown + " Counting that as no answer, and so reading nothing else on the host, is our rule." + another
	case s >= 300 && s < 400:
		return lead + unknown +
			" RFC 9309 lets a crawler then treat the file as unavailable and read everything; our rule is stricter: we read nothing else on the host." + another
	case s >= 400 && s < 500:
		return lead + unknown +
			" RFC 9309 lets a crawler that gets a 4xx answer read everything; our rule is stricter: we read nothing else on a host that will not show us its robots.txt." + another
	case s >= 500:
		return lead + unknown +
			" RFC 9309 tells a crawler that gets a server error to assume everything on the host is disallowed; our rule follows it, and we read nothing else there." + another
	}
	return lead + unknown +
		" RFC 9309 tells a crawler that cannot reach robots.txt to assume everything on the host is disallowed; our rule follows it, and we read nothing else there." + another
}

// notReadGapDetail is the detail of a gap on a host whose robots.txt was
// not read: the cause is said once, in the robots.txt section and on the
// robots.txt address itself, not again for every planned address.
func notReadGapDetail(host string) string {
	return "our rule: nothing on " + host + " is read when its robots.txt was not"
}

func boolPtr(b bool) *bool { return &b }

// exampleLimit is how many disallowed paths a group's summary shows.
const exampleLimit = 5

// groups sums up each group and collects its content signals.
func groups(f *robots.File) ([]Group, []ContentSignal) {
	gs, cs := []Group{}, []ContentSignal{}
	add := func(kind string, agents []string, extras []robots.Extra) {
		for _, e := range extras {
			vals := map[string]string{}
			for _, p := range e.Pairs {
				vals[p.Key] = p.Value
			}
			cs = append(cs, ContentSignal{Kind: kind, Agents: agents, Line: e.Line, Text: e.Value, Values: vals, Path: e.Path})
		}
	}
	for _, g := range f.Groups() {
		sum := Group{Agents: g.AgentNames(), FirstLine: g.FirstLine, LastLine: g.LastLine,
			ExampleDisallowed: g.Disallowed(exampleLimit)}
		if sum.ExampleDisallowed == nil {
			sum.ExampleDisallowed = []string{}
		}
		for _, rule := range g.Rules {
			if rule.Allow {
				sum.Allows++
			} else if rule.Path != "" {
				sum.Disallows++
				if rule.Path == "/" {
					sum.DisallowsRoot = true
				}
			}
		}
		if g.CrawlDelay != nil && g.CrawlDelay.OK {
			d := g.CrawlDelay.Seconds
			sum.CrawlDelay = &d
		}
		gs = append(gs, sum)
		add("Content-Signal", sum.Agents, g.ContentSignals)
		add("Content-Usage", sum.Agents, g.ContentUsage)
	}
	for _, e := range f.Outside() {
		switch strings.ToLower(e.Key) {
		case "content-signal":
			add("Content-Signal", []string{}, []robots.Extra{e})
		case "content-usage":
			add("Content-Usage", []string{}, []robots.Extra{e})
		}
	}
	return gs, cs
}

func orUnknown(s string) string {
	if s == "" {
		return "no content type"
	}
	return s
}

// storedRobots finds the robots.txt answer in evidence and parses it; whole
// are the lines of all of it that was kept, for diffs.
func storedRobots(es *evidence.Site, u string, addrs []evidence.Address) (file *robots.File, whole []string, sha, ctype string, err error) {
	for _, a := range addrs {
		if a.URL != u || a.FoundVia != "robots" || len(a.Exchanges) == 0 {
			continue
		}
		last := a.Exchanges[len(a.Exchanges)-1]
		resp, err := es.Response(last)
		if err != nil {
			return nil, nil, "", "", err
		}
		// Read as the crawler read it (evidence.DecodePrefix): the rules
		// from the first robots.MaxBytes, whatever the file's length
		// decoded, and what came before a break in a compressed stream;
		// the lines for diffs from all that was kept.
		body, more, err := resp.DecodedPrefix(policy.MaxBody)
		if err != nil && len(body) == 0 {
			return nil, nil, "", "", fmt.Errorf("evidence: record %s: %w", resp.RecordID, err)
		}
		file = robots.Parse(body)
		if file.Truncated {
			whole = robots.WholeLines(body, more || err != nil || resp.Truncated)
		}
		return file, whole, last.PayloadSHA256, resp.Header.Get("Content-Type"), nil
	}
	return nil, nil, "", "", fmt.Errorf("no stored answer for %s", u)
}

// agentOf is an agent's row when no rule decides: no file (allowed), or a
// file we could not read (unknown).
func agentOf(a robots.Agent, group string, allowed *bool) Agent {
	return Agent{Agent: a.Token, ParserToken: a.ParserToken(), Note: a.Note, Operator: a.Operator, Purpose: a.Purpose,
		Category: a.Category, Group: group, RootAllowed: allowed}
}
