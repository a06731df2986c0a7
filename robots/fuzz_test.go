package robots

import (
	"net/url"
	"strings"
	"testing"

	"github.com/jimsmart/grobotstxt"
)

var fuzzSeeds = []string{
	"",
	"User-agent: *\nDisallow: /\n",
	"User-agent: *\nDisallow: /a%2fb\nAllow: /å%20\n",
	"user-agent FooBot\ndisalow /x\nSitemap: https://e.test/s.xml\nCrawl-delay: 1,5\n",
	"\xEF\xBB\xBFUser-agent: AI2Bot\r\nDisallow: /*.gif$\r\nAllow: /index.html\r\n",
	"# Scraping is prohibited\nUser-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow:\n",
	"<!DOCTYPE html><html><p>User-agent: *</p>",
	"User-agent: * bot\nDisallow: /$x$\nAllow: /%\nAllow: /%G1\n",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p := Parse(body)
		n := p.Lines()
		for _, g := range p.Groups() {
			if g.FirstLine < 1 || g.LastLine < g.FirstLine || g.LastLine > n || len(g.Agents) == 0 {
				t.Fatalf("group lines %d-%d of %d, %d agents", g.FirstLine, g.LastLine, n, len(g.Agents))
			}
			for _, r := range g.Rules {
				if !isNormal(r.Pattern, true) || normalise(r.Pattern, true) != r.Pattern {
					t.Fatalf("line %d: pattern %q is not in normal form", r.Line, r.Pattern)
				}
			}
		}
		// The body the matcher reads keeps the file's line count.
		if got := len(splitLines(p.matcher)); got != n {
			t.Fatalf("matcher body has %d lines, the file %d", got, n)
		}
		p.Sitemaps()
		p.ProhibitingComments()
		p.CommentURLs()
		p.CrawlDelay("crawlsignals")
		p.Report(Agents()[:3])
	})
}

func FuzzAllowed(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "crawlsignals", "https://e.test/a%2Fb")
		f.Add(s, "AI2Bot/1.0", "/å?q=%e3%83%84#x")
	}
	f.Fuzz(func(t *testing.T, body, token, rawURL string) {
		p := Parse([]byte(body))
		d := p.Decide(token, rawURL)
		if d.Err != nil {
			t.Fatalf("matcher failed: %v", d.Err)
		}
		// The URL handed to the library survives its url.Parse/String round
		// trip unchanged: it matches the path we normalised.
		target := matchHost + d.Path
		u, err := url.Parse(target)
		if err != nil || u.String() != target {
			t.Fatalf("path %q does not survive url.Parse: %v %q", d.Path, err, u)
		}
		if normalise(d.Path, false) != d.Path || !strings.HasPrefix(d.Path, "/") {
			t.Fatalf("path %q not normal", d.Path)
		}
		if d.Line != 0 {
			if r, ok := p.RuleAt(d.Line); !ok || r.Pattern == "" {
				t.Fatalf("deciding line %d is not a rule of the file: %q", d.Line, p.Line(d.Line))
			}
		}
		if kind, _ := p.GroupFor(token); kind != d.Group {
			t.Fatalf("group %s vs %s", kind, d.Group)
		}
		// Our groups are the library's: it finds an own group exactly when
		// we do.
		if !d.Implicit {
			tok := ProductToken(token)
			if tok == "" {
				tok = noAgent
			}
			m := grobotstxt.NewRobotsMatcher()
			m.AgentAllowed(p.matcher, tok, target)
			if m.EverSeenSpecificAgent() != (d.Group == "own") {
				t.Fatalf("library own group %v, ours %s", m.EverSeenSpecificAgent(), d.Group)
			}
		}
		if d.Implicit && !d.Allowed {
			t.Fatal("/robots.txt disallowed")
		}
	})
}
