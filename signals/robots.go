package signals

import (
	"fmt"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/robots"
)

// robotsSection reads a host's robots.txt back from evidence and says, for
// each crawler of our agents list, what it means.
func robotsSection(es *evidence.Site, hr evidence.HostRobots, addrs []evidence.Address) (Robots, error) {
	r := Robots{
		Host: hr.Host, URL: hr.URL, Status: hr.Status, Outcome: hr.Outcome, Reason: hr.Reason, Detail: hr.Detail,
		Sitemaps: []string{}, Agents: []Agent{}, CommentQuotes: []string{},
	}
	if hr.CrawlDelay > 0 {
		d := hr.CrawlDelay
		r.CrawlDelaySeconds = &d
	}
	var file *robots.File
	var err error
	if hr.Outcome == string(robots.Rules) {
		file, r.SHA256, err = storedRobots(es, hr.URL, addrs)
		if err != nil {
			r.Outcome, r.Meaning = "not-read", "robots.txt was fetched but its stored copy cannot be read: "+err.Error()
			return r, err
		}
	}
	agents := robots.Agents()
	switch robots.Outcome(hr.Outcome) {
	case robots.Rules:
		r.Meaning = fmt.Sprintf("robots.txt answered HTTP %d with rules; the table shows what they say to each crawler.", hr.Status)
		for _, v := range file.Report(agents) {
			r.Agents = append(r.Agents, Agent{Agent: v.Token, Operator: v.Operator, Purpose: v.Purpose, Category: v.Category,
				Group: v.Group, RootAllowed: v.RootAllowed, Line: v.Line})
		}
		r.Sitemaps = append(r.Sitemaps, file.Sitemaps()...)
		for _, c := range file.ProhibitingComments() {
			r.CommentQuotes = append(r.CommentQuotes, c.Text)
		}
		r.LooksLikeHTML, r.Truncated = file.LooksLikeHTML(), file.Truncated
		if r.LooksLikeHTML {
			r.Meaning += " The file looks like an HTML page rather than robots.txt, so it holds no rules we can read; we do not count that as “no restrictions”."
		}
		if hr.Reason == evidence.ReasonCrawlDelay {
			r.Meaning += " " + hr.Detail + ", so we did not read the host."
		}
	case robots.None:
		r.Meaning = fmt.Sprintf("No robots.txt (HTTP %d): by RFC 9309 there are no rules, and every crawler may read everything.", hr.Status)
		for _, a := range agents {
			r.Agents = append(r.Agents, Agent{Agent: a.Token, Operator: a.Operator, Purpose: a.Purpose, Category: a.Category, Group: "none", RootAllowed: true})
		}
	default:
		if hr.Status != 0 {
			r.Meaning = fmt.Sprintf("robots.txt answered HTTP %d: by RFC 9309 everything on the host counts as disallowed, so we read nothing else there.", hr.Status)
		} else {
			r.Meaning = "robots.txt could not be fetched (" + hr.Detail + "): everything on the host counts as disallowed, so we read nothing else there."
		}
		for _, a := range agents {
			r.Agents = append(r.Agents, Agent{Agent: a.Token, Operator: a.Operator, Purpose: a.Purpose, Category: a.Category, Group: "none"})
		}
	}
	return r, nil
}

// storedRobots finds the robots.txt answer in evidence and parses it.
func storedRobots(es *evidence.Site, u string, addrs []evidence.Address) (*robots.File, string, error) {
	for _, a := range addrs {
		if a.URL != u || a.FoundVia != "robots" || len(a.Exchanges) == 0 {
			continue
		}
		last := a.Exchanges[len(a.Exchanges)-1]
		resp, err := es.Response(last)
		if err != nil {
			return nil, "", err
		}
		body, err := resp.DecodedBody(MaxBody)
		if err != nil {
			return nil, "", err
		}
		return robots.Parse(body), last.PayloadSHA256, nil
	}
	return nil, "", fmt.Errorf("no stored answer for %s", u)
}
