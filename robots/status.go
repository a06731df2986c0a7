package robots

import (
	"fmt"
	"mime"
	"strings"
)

// Outcome of a robots.txt answer, by status (design §2.3).
type Outcome string

const (
	Rules       Outcome = "rules"        // 2xx: parse the body
	None        Outcome = "none"         // 404/410: no robots.txt, no rules
	DisallowAll Outcome = "disallow-all" // other 4xx, 5xx, challenge, no answer
)

// ReasonUnavailable is the design §2.4 gap reason for a host whose
// robots.txt could not be had: everything on it is disallowed.
const ReasonUnavailable = "robots-unavailable"

// FromStatus maps the HTTP status of the robots.txt answer (after
// redirects; 0 when there was no answer) to its outcome, and for
// DisallowAll the §2.4 gap reason. Only 2xx gives rules and only 404 and
// 410 mean "no robots.txt"; every other status, including a 3xx left
// unresolved and a 1xx, disallows everything: when in doubt, we do not
// fetch. A bot challenge is DisallowAll whatever its status; the caller,
// who sees the body, decides that (use Challenged).
func FromStatus(status int) (Outcome, string) {
	switch {
	case status >= 200 && status <= 299:
		return Rules, ""
	case status == 404 || status == 410:
		return None, ""
	}
	return DisallowAll, ReasonUnavailable
}

// Challenged is the outcome of an answer that is a bot challenge or block
// page: whatever its status, everything is disallowed.
func Challenged() (Outcome, string) { return DisallowAll, ReasonUnavailable }

// StatusMeaning says in a sentence what a robots.txt status means for the
// host (the robots command prints it beside the status). What RFC 9309
// tells crawlers and what our crawler does are kept apart: reading nothing
// else where RFC 9309 would let a crawler read everything is our rule, and
// the sentence says so.
func StatusMeaning(status int) string {
	const ours = "; our crawler's rule is stricter: it reads nothing else on the host"
	switch {
	case status == 0:
		return "robots.txt did not answer: RFC 9309 tells a crawler to assume everything is disallowed, and our crawler reads nothing else on the host"
	case status >= 200 && status <= 299:
		return "robots.txt was read: its rules apply"
	case status == 404 || status == 410:
		return fmt.Sprintf("robots.txt answered %d: the host has none, so no rules apply", status)
	case status >= 300 && status <= 399:
		return fmt.Sprintf("robots.txt answered %d and did not lead to a file: RFC 9309 lets a crawler treat it as unavailable and read everything", status) + ours
	case status >= 400 && status <= 499:
		return fmt.Sprintf("robots.txt answered %d, a refusal: RFC 9309 lets a crawler then read everything", status) + ours
	case status >= 500 && status <= 599:
		return fmt.Sprintf("robots.txt answered %d, a server error: RFC 9309 tells a crawler to assume everything is disallowed, and our crawler reads nothing else on the host", status)
	}
	return fmt.Sprintf("robots.txt answered %d, which is not a usable answer: our crawler's rule is to read nothing else on the host", status)
}

// IsTextPlain says the Content-Type is text/plain, as RFC 9309 §2.3 asks
// robots.txt to be. Any other type is still parsed (RFC 9309 says to use
// whatever rules parse), but the page should say so.
func IsTextPlain(contentType string) bool {
	if strings.TrimSpace(contentType) == "" {
		return false
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "text/plain"
}
