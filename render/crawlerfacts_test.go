package render

import (
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/signals"
)

// TestCrawlerPagesSayWhatOperatorsSay: a crawler's page gives what its
// operator says it honours, per signal and purpose, with the source and
// its date (a month where the source names only the month), and where
// the operator says robots.txt may not apply, it says so above the
// counts; the list of crawlers marks those too.
func TestCrawlerPagesSayWhatOperatorsSay(t *testing.T) {
	out := build(t, Input{Sites: directorySites(), Content: testContent})
	page := func(rel string) string { return string(read(t, out, rel)) }
	cases := []struct {
		rel     string
		want    []string
		wantNot []string
	}{
		{"crawlers/amazonbot/index.html", []string{
			`<h2 id="operator-says">What Amazon says it honours</h2>`,
			`<code>noarchive</code>, for AI training:</span> Amazon says a robots meta tag with noarchive`,
			`Source: <a href="https://developer.amazon.com/amazonbot" rel="nofollow"><bdi>developer.amazon.com</bdi></a>`,
			`read <time datetime="2026-12-05">5 December 2026</time>`, `AI training`,
		}, []string{`id="may-not-apply"`}},
		{"crawlers/bingbot/index.html", []string{
			`<code>noarchive</code>, for AI training:`, `<code>nocache</code>, for AI answers:`,
			`dated <time datetime="2023-09">September 2023</time>`,
		}, []string{`id="may-not-apply"`}},
		{"crawlers/chatgpt-user/index.html", []string{
			`<p class="mayignore" id="may-not-apply"><strong>robots.txt may not apply.</strong> OpenAI says robots.txt may not govern these fetches`,
			`OpenAI does not promise that it will stay away.`,
			`“Disallow” is what robots.txt asks; its operator says robots.txt may not apply to this crawler.`,
			`Beyond what it says of robots.txt above, we found no statement by OpenAI on which signals <code>ChatGPT-User</code> honours.`,
		}, []string{`<ul class="sources honours">`}},
		{"crawlers/gptbot/index.html", []string{
			`<code>robots.txt</code>, for AI training:`, `href="https://developers.openai.com/api/docs/bots"`,
		}, []string{`id="may-not-apply"`, `noarchive`}},
		{"crawlers/index.html", []string{
			`<code>Perplexity-User</code></a> <span class="note">(robots.txt may not apply, its operator says)</span>`,
			`<code>Google-Agent</code></a> <span class="note">(robots.txt may not apply`,
		}, []string{`<code>GPTBot</code></a> <span class="note">(robots.txt may not apply`}},
	}
	for _, c := range cases {
		p := page(c.rel)
		for _, w := range c.want {
			if !strings.Contains(p, w) {
				t.Errorf("%s lacks %q", c.rel, w)
			}
		}
		for _, w := range c.wantNot {
			if strings.Contains(p, w) {
				t.Errorf("%s has %q", c.rel, w)
			}
		}
	}
}

// TestSitePageFlagsFetchersThatMayIgnoreRobots: where robots.txt
// disallows a crawler whose operator says robots.txt may not apply to it,
// the site's agents table does not let the "no" read as a promise.
func TestSitePageFlagsFetchersThatMayIgnoreRobots(t *testing.T) {
	in := directorySites()
	for _, s := range in {
		if s.Host == "kommune.test" {
			s.Robots.Agents = append(s.Robots.Agents,
				signals.Agent{Agent: "ChatGPT-User", ParserToken: "ChatGPT-User", Category: "ai-assistant", Group: "star", RootAllowed: ptr(false), Line: 9},
				signals.Agent{Agent: "Perplexity-User", ParserToken: "Perplexity-User", Category: "ai-assistant", Group: "star", RootAllowed: ptr(true)},
				signals.Agent{Agent: "OAI-SearchBot", ParserToken: "OAI-SearchBot", Category: "ai-assistant", Group: "star", RootAllowed: ptr(false), Line: 9})
		}
	}
	out := build(t, Input{Sites: in, Content: testContent})
	page := string(read(t, out, "sites/kommune.test/index.html"))
	for _, w := range []string{
		`<a href="../../crawlers/chatgpt-user/">ChatGPT-User</a> <span class="note">(robots.txt may not apply, its operator says)</span>`,
		`<p class="mayignore"><a href="../../crawlers/chatgpt-user/">ChatGPT-User</a>: its operator says robots.txt may not apply to it, so “no” here is what this robots.txt asks, not a promise that it stays away.`,
	} {
		if !strings.Contains(page, w) {
			t.Errorf("the site page lacks %q", w)
		}
	}
	// Allowed, it needs no warning; a crawler whose operator promises to
	// follow robots.txt gets none either.
	for _, w := range []string{`Perplexity-User</a> <span class="note">`, `OAI-SearchBot</a> <span class="note">`, `OAI-SearchBot</a>: its operator`} {
		if strings.Contains(page, w) {
			t.Errorf("the site page has %q", w)
		}
	}
	// Nothing disallowed that may ignore it: no note at all.
	plain := string(read(t, build(t, Input{Sites: directorySites(), Content: testContent}), "sites/kommune.test/index.html"))
	if strings.Contains(plain, `class="mayignore"`) {
		t.Error("a page with no such crawler disallowed carries the note")
	}
}
