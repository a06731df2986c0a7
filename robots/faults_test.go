package robots

import (
	"testing"

	"github.com/jimsmart/grobotstxt"
)

// Each test here shows one of grobotstxt's known faults twice: first that
// the bare library gives the wrong answer, then that our wrapper gives the
// right one. If a new release of the library fixes a fault, the first half
// fails, which is the signal to look again at our guard.

func bareAllowed(t *testing.T, body, agent, url string) bool {
	t.Helper()
	return grobotstxt.AgentAllowed(body, agent, url)
}

// Fault 1: grobotstxt upper-cases percent escapes with a bit mask that also
// changes digits, so "%2f" becomes "%\x12F"; it does so whenever a rule has
// a lower-case escape or a non-ASCII byte, so such rules never match.
func TestFaultEscapesInRules(t *testing.T) {
	cases := []struct {
		name, rule, url string
	}{
		{"lower-case escape", "/a%2fb", "https://e.test/a%2Fb"},
		{"lower-case escape, lower-case URL", "/a%2fb", "https://e.test/a%2fb"},
		{"lower-case multibyte escape", "/%c3%a5", "https://e.test/%C3%A5"},
		{"non-ASCII with an escape", "/å%20", "https://e.test/å%20"},
		{"non-ASCII with an escape, URL encoded", "/ø%2Fx", "https://e.test/%C3%B8%2Fx"},
	}
	for _, c := range cases {
		body := "User-agent: *\nDisallow: " + c.rule + "\n"
		if !bareAllowed(t, body, "crawlsignals", c.url) {
			t.Errorf("%s: the bare library now disallows %s under %q: fault fixed upstream?", c.name, c.url, c.rule)
		}
		f := Parse([]byte(body))
		if ok, line := f.Allowed("crawlsignals", c.url); ok || line != 2 {
			t.Errorf("%s: we allow %s under Disallow: %s (line %d)", c.name, c.url, c.rule, line)
		}
	}
	// The URL side is normalised the same way: a lower-case escape in the
	// URL meets an upper-case one in the rule.
	body := "User-agent: *\nDisallow: /a%2Fb\n"
	if !bareAllowed(t, body, "x", "https://e.test/a%2fb") {
		t.Error("the bare library now normalises the URL's escapes")
	}
	if ok, _ := Parse([]byte(body)).Allowed("x", "https://e.test/a%2fb"); ok {
		t.Error("a lower-case escape in the URL escapes the rule")
	}
}

// Fault 2: the library applies the rules to /robots.txt itself; RFC 9309
// §2.2.2 says it is always allowed.
func TestFaultRobotsTxtImplicit(t *testing.T) {
	body := "User-agent: *\nDisallow: /\n"
	if bareAllowed(t, body, "crawlsignals", "https://e.test/robots.txt") {
		t.Error("the bare library now allows /robots.txt by itself")
	}
	d := Parse([]byte(body)).Decide("crawlsignals", "https://e.test/robots.txt")
	if !d.Allowed || !d.Implicit || d.Line != 0 {
		t.Errorf("/robots.txt: %+v, want allowed implicitly", d)
	}
	// Only that exact path: not /robots.txt.bak, not /robots.txt?x.
	for _, u := range []string{"https://e.test/robots.txt.bak", "https://e.test/robots.txt?x=1", "https://e.test/a/robots.txt"} {
		if ok, _ := Parse([]byte(body)).Allowed("crawlsignals", u); ok {
			t.Errorf("%s is allowed", u)
		}
	}
}

// Fault 3: the library compares the agent it is given with each
// user-agent line as a whole, so a full User-Agent string never finds the
// agent's own group and silently follows "*".
func TestFaultFullUserAgent(t *testing.T) {
	body := "User-agent: *\nAllow: /\n\nUser-agent: crawlsignals\nDisallow: /\n"
	ua := "crawlsignals/0.1 (+https://crawlsignals.com)"
	if !bareAllowed(t, body, ua, "https://e.test/page") {
		t.Error("the bare library now finds the group for a full User-Agent string")
	}
	if bareAllowed(t, body, ProductToken(ua), "https://e.test/page") {
		t.Error("the bare library does not find the group for the bare token")
	}
	f := Parse([]byte(body))
	if ok, line := f.Allowed(ua, "https://e.test/page"); ok || line != 5 {
		t.Errorf("full User-Agent: allowed=%v line=%d, want disallowed by line 5", ok, line)
	}
	if kind, _ := f.GroupFor(ua); kind != "own" {
		t.Errorf("full User-Agent follows %s, want own", kind)
	}
}

// Fault 3b: the library reads a user-agent line's value with every HTTP
// token character, digits included, where RFC 9309 parsers (Google's
// among them) stop at the first character that is not a letter, "_" or
// "-": "User-agent: AI2Bot" names the agent "AI". We hand it both sides
// cut.
func TestFaultAgentTokenCut(t *testing.T) {
	body := "User-agent: *\nAllow: /\n\nUser-agent: AI2Bot\nDisallow: /\n"
	if !bareAllowed(t, body, "AI", "https://e.test/page") {
		t.Error("the bare library now cuts AI2Bot to AI")
	}
	if bareAllowed(t, body, "AI2Bot", "https://e.test/page") {
		t.Error("the bare library no longer matches AI2Bot whole")
	}
	f := Parse([]byte(body))
	if ok, _ := f.Allowed("AI", "https://e.test/page"); ok {
		t.Error(`"AI" does not follow the group written for AI2Bot`)
	}
	// The caller's name is cut by the same rule (ProductToken): AI2Bot
	// finds the group its site wrote for it, as the site page says.
	if ok, line := f.Allowed("AI2Bot", "https://e.test/page"); ok || line != 5 {
		t.Errorf(`"AI2Bot" as a caller's name: allowed=%v line %d, want disallowed by line 5`, ok, line)
	}
}

// Fault 4: a panic inside the library would take the crawler down. We
// recover, and the URL counts as disallowed.
func TestFaultPanicRecovered(t *testing.T) {
	body := "User-agent: *\nAllow: /\n"
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the bare library did not panic when its strategy did")
			}
		}()
		m := grobotstxt.NewRobotsMatcher()
		m.MatchStrategy = panicking{}
		m.AgentAllowed(body, "x", "https://e.test/")
	}()
	d := Parse([]byte(body)).decide("x", "https://e.test/", panicking{})
	if d.Allowed || d.Err == nil {
		t.Errorf("after a panic: %+v, want disallowed with an error", d)
	}
	// A nil File reads as an empty one, and never panics either.
	var nilFile *File
	if ok, line := nilFile.Allowed("x", "https://e.test/"); !ok || line != 0 {
		t.Errorf("nil File: %v %d", ok, line)
	}
}

type panicking struct{}

func (panicking) MatchAllow(path, pattern string) int    { panic("strategy failed") }
func (panicking) MatchDisallow(path, pattern string) int { panic("strategy failed") }
