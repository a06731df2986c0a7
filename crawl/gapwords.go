package crawl

import (
	"fmt"
	"strings"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// mainGap says in a few words the main reason of a site's gaps, for the
// crawl's end summary: the reason of design §2.4 that most of its
// addresses not read share (ties go to the reason listed first there),
// with what decided it where a word more helps the operator ("robots.txt
// answered 503" rather than robots-unavailable). "" when there is no gap.
func mainGap(m *evidence.Manifest) string {
	count := map[string]int{}
	for _, a := range m.Addresses {
		if a.Outcome == evidence.OutcomeGap {
			count[a.Reason]++
		}
	}
	main := ""
	for _, r := range evidence.Reasons() {
		if count[r.Code] > count[main] {
			main = r.Code
		}
	}
	if main == "" {
		for r, n := range count { // a reason outside the vocabulary
			if n > count[main] || n == count[main] && r < main {
				main = r
			}
		}
	}
	if main == "" {
		return ""
	}
	switch main {
	case evidence.ReasonRobotsUnavailable:
		return robotsUnavailableWords(m)
	case evidence.ReasonStopped:
		// Stopped for this run: because the host stopped answering, or
		// asked us to wait longer than we wait.
		for _, a := range m.Addresses {
			if a.Reason == evidence.ReasonStopped && strings.Contains(a.Detail, "asked us to wait") {
				return "asked us to wait longer than we wait (Retry-After)"
			}
		}
		return "a host stopped answering"
	}
	if w, ok := gapWords[main]; ok {
		return w
	}
	return main
}

// robotsUnavailableWords says how robots.txt was unavailable, from the
// record of the host it decided (the home host's first).
func robotsUnavailableWords(m *evidence.Manifest) string {
	var rec *evidence.HostRobots
	for i, h := range m.Hosts {
		if h.Reason != evidence.ReasonRobotsUnavailable {
			continue
		}
		if rec == nil || h.Host == m.Site {
			rec = &m.Hosts[i]
		}
	}
	switch {
	case rec == nil:
		return "robots.txt unavailable"
	case strings.Contains(rec.Detail, "bot challenge"):
		return "robots.txt answered with a bot challenge"
	case rec.Status >= 200 && rec.Status < 300:
		return "robots.txt could not be read"
	case rec.Status > 0:
		return fmt.Sprintf("robots.txt answered %d", rec.Status)
	}
	return "robots.txt did not answer"
}

// gapWords are the reasons of design §2.4 in a few words each.
var gapWords = map[string]string{
	evidence.ReasonRobotsDisallowed: "robots.txt disallows us",
	evidence.ReasonRefused:          "refused (401, 403, 451 …)",
	evidence.ReasonNotFound:         "dead links (404, 410)",
	evidence.ReasonServerError:      "server errors",
	evidence.ReasonNoAnswer:         "no answer",
	evidence.ReasonAskedToWait:      "asked us to wait longer than we wait (Retry-After)",
	evidence.ReasonCrawlDelay:       "Crawl-delay longer than we wait",
	evidence.ReasonNeedsJavaScript:  "needs JavaScript",
	evidence.ReasonBotChallenge:     "a bot challenge",
	evidence.ReasonFormat:           "content types we do not read",
	evidence.ReasonTooLarge:         "larger than 10 MB",
	evidence.ReasonOffList:          "links to hosts not reviewed for it",
	evidence.ReasonTooManyRedirects: "too many redirects",
	evidence.ReasonAskedToStop:      "asked us to stop",
	evidence.ReasonOverLimit:        "over the limit of addresses",
	evidence.ReasonNoFooter:         "no footer found on the home page",
}
