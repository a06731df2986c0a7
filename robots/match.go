package robots

import (
	"fmt"
	"net/url"

	"github.com/jimsmart/grobotstxt"
)

// matchHost stands in for the site's host in the URL the matcher is given:
// rules only ever see the path, so which host it is does not matter.
const matchHost = "http://robots.invalid"

// noAgent stands in for an empty token: the library would match "" with a
// user-agent line whose value has no token characters ("User-agent: 42");
// a digit matches no line, as no line's value keeps digits (ProductToken).
const noAgent = "0"

// Decision is how the file reads for one agent and URL.
type Decision struct {
	Allowed bool
	// Line is the 1-based line of the rule that decided, 0 when no rule did
	// (nothing matched, an empty Disallow matched, or /robots.txt itself).
	Line int
	// Group is "own", "star" or "none" (see GroupFor).
	Group string
	// Implicit says the URL is /robots.txt, which is always allowed.
	Implicit bool
	// Path is the URL's path and query as matched (normalised).
	Path string
	// Err is set when the matcher failed (it panicked, or could not read
	// the URL); the URL then counts as disallowed.
	Err error
}

// Allowed reports whether the agent may fetch rawURL, and the 1-based line
// of the rule that decided (0 when none did). token is a bare product token
// ("crawlsignals", "GPTBot"); a full User-Agent string is cut to its product
// token first. /robots.txt is always allowed. It never panics: if the
// matcher fails the answer is "disallowed" (see Decide for the error).
func (f *File) Allowed(token, rawURL string) (allowed bool, line int) {
	d := f.Decide(token, rawURL)
	return d.Allowed, d.Line
}

// Decide is Allowed with the reasons.
func (f *File) Decide(token, rawURL string) (d Decision) {
	return f.decide(token, rawURL, nil)
}

// decide matches with the library's default strategy, or with strategy
// when one is given (tests give one that fails).
func (f *File) decide(token, rawURL string, strategy grobotstxt.MatchStrategy) (d Decision) {
	defer func() {
		if r := recover(); r != nil {
			d = Decision{Group: "none", Err: fmt.Errorf("robots: reading %q failed: %v", rawURL, r)}
		}
	}()
	if f == nil {
		f = Parse(nil)
	}
	t := ProductToken(token)
	d.Group, _ = f.GroupFor(t)
	d.Path = normalise(pathOf(rawURL), false)
	if d.Path == "/robots.txt" {
		d.Allowed, d.Implicit = true, true
		return d
	}
	target := matchHost + d.Path
	if _, err := url.Parse(target); err != nil {
		d.Err = fmt.Errorf("robots: cannot read %q as a URL: %w", rawURL, err)
		return d
	}
	if t == "" {
		t = noAgent
	}
	allowed, line, err := guardedMatch(strategy, f.recording(), t, target)
	if err != nil {
		d.Err = err
		return d
	}
	d.Allowed = allowed
	if r, ok := f.RuleAt(line); ok && r.Pattern == "" {
		line = 0 // "Disallow:" with no path disallows nothing; it decides nothing
	}
	d.Line = line
	return d
}

// guardedMatch calls the library, turning a panic into an error (and a
// "disallowed" answer). The matcher is given the parse of the body rec
// holds, as the library's parser would hand it over.
func guardedMatch(strategy grobotstxt.MatchStrategy, rec recording, token, target string) (allowed bool, line int, err error) {
	defer func() {
		if r := recover(); r != nil {
			allowed, line, err = false, 0, fmt.Errorf("robots: matcher failed: %v", r)
		}
	}()
	if rec.panicked != nil {
		panic(rec.panicked) // the parser failed on this body: it would for every question
	}
	m := grobotstxt.NewRobotsMatcher()
	if strategy != nil {
		m.MatchStrategy = strategy
	}
	// AgentAllowed on an empty body sets the agent and the path the rules
	// are matched against, as it does before parsing a body, and refuses
	// only a URL it cannot read (then before reading any line, as with
	// the body); the body's parse is then played to the matcher.
	if !m.AgentAllowed("", token, target) {
		return false, m.MatchingLine(), nil
	}
	rec.playTo(m)
	return !m.Disallowed(), m.MatchingLine(), nil
}
