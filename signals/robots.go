package signals

import (
	"fmt"
	"strings"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/robots"
)

// robotsSection reads a host's robots.txt back from evidence and says, for
// each crawler of our agents list, what it means.
func robotsSection(es *evidence.Site, hr evidence.HostRobots, addrs []evidence.Address) (Robots, error) {
	r := Robots{
		Host: hr.Host, URL: hr.URL, Status: hr.Status, Outcome: hr.Outcome, Reason: hr.Reason, Detail: hr.Detail,
		Sitemaps: []string{}, Agents: []Agent{}, CommentQuotes: []string{}, Groups: []Group{}, ContentSignals: []ContentSignal{},
	}
	if hr.CrawlDelay > 0 {
		d := hr.CrawlDelay
		r.CrawlDelaySeconds = &d
	}
	var file *robots.File
	var err error
	if hr.Outcome == string(robots.Rules) {
		file, r.SHA256, r.ContentType, err = storedRobots(es, hr.URL, addrs)
		if err != nil {
			r.Outcome, r.Meaning = "not-read", "Evidence of robots.txt could not be read back: it was fetched, but its stored copy is damaged or missing, so we do not say what it says."
			return r, err
		}
	}
	agents := robots.Agents()
	switch robots.Outcome(hr.Outcome) {
	case robots.Rules:
		r.Meaning = fmt.Sprintf("robots.txt answered HTTP %d with rules; the table shows what they say to each crawler.", hr.Status)
		for _, v := range file.Report(agents) {
			r.Agents = append(r.Agents, Agent{Agent: v.Agent, ParserToken: v.Token, Note: v.Note, Operator: v.Operator,
				Purpose: v.Purpose, Category: v.Category, Group: v.Group, RootAllowed: v.RootAllowed, Line: v.Line})
		}
		r.Sitemaps = append(r.Sitemaps, file.Sitemaps()...)
		for _, c := range file.ProhibitingComments() {
			r.CommentQuotes = append(r.CommentQuotes, c.Text)
		}
		r.Groups, r.ContentSignals = groups(file)
		r.LooksLikeHTML, r.Truncated = file.LooksLikeHTML(), file.Truncated
		r.NotTextPlain = !robots.IsTextPlain(r.ContentType)
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
			r.Agents = append(r.Agents, agentOf(a, true))
		}
	default:
		switch {
		case hr.Status >= 200 && hr.Status < 300:
			// A 2xx that is not a robots.txt we can read: a bot challenge
			// in its place, or a body that cannot be decoded.
			r.Meaning = "robots.txt answered HTTP " + fmt.Sprint(hr.Status) + " but could not be read as robots.txt (" + hr.Detail + "): everything on the host counts as disallowed, so we read nothing else there."
		case hr.Status != 0:
			r.Meaning = fmt.Sprintf("robots.txt answered HTTP %d: by RFC 9309 everything on the host counts as disallowed, so we read nothing else there.", hr.Status)
		default:
			r.Meaning = "robots.txt could not be fetched (" + hr.Detail + "): everything on the host counts as disallowed, so we read nothing else there."
		}
		for _, a := range agents {
			r.Agents = append(r.Agents, agentOf(a, false))
		}
	}
	return r, nil
}

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

// storedRobots finds the robots.txt answer in evidence and parses it.
func storedRobots(es *evidence.Site, u string, addrs []evidence.Address) (*robots.File, string, string, error) {
	for _, a := range addrs {
		if a.URL != u || a.FoundVia != "robots" || len(a.Exchanges) == 0 {
			continue
		}
		last := a.Exchanges[len(a.Exchanges)-1]
		resp, err := es.Response(last)
		if err != nil {
			return nil, "", "", err
		}
		body, err := resp.DecodedBody(MaxBody)
		if err != nil {
			return nil, "", "", err
		}
		return robots.Parse(body), last.PayloadSHA256, resp.Header.Get("Content-Type"), nil
	}
	return nil, "", "", fmt.Errorf("no stored answer for %s", u)
}

// agentOf is an agent's row when no rule decides: no file, or everything disallowed.
func agentOf(a robots.Agent, allowed bool) Agent {
	return Agent{Agent: a.Token, ParserToken: a.ParserToken(), Note: a.Note, Operator: a.Operator, Purpose: a.Purpose,
		Category: a.Category, Group: "none", RootAllowed: allowed}
}
