package robots

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jimsmart/grobotstxt"
)

// TestRecordingAnswersAsParsing: the matcher given a file's recorded parse
// answers every question (agent, URL) with the verdict and the deciding
// line it gives when it parses the body itself, on every real robots.txt
// of ../shared/realweb/robots/ and on files made to be hard (comments,
// wildcards, typos, a BOM, CR line ends, an empty body).
func TestRecordingAnswersAsParsing(t *testing.T) {
	bodies := map[string]string{
		"typical": string(typicalFile()),
		"big":     string(bigFile()),
		"empty":   "",
		"hard": "\xef\xbb\xbfUser-agent: GPTBot\r\nDisalow: /private\r\nAllow: /private/ok$\r\n\r\n" +
			"useragent: *\nDisallow: /*.pdf$\nAllow: /\nSitemap: https://e.test/s.xml\nCrawl-delay: 3\n" +
			"User-agent: CCBot # comment\nUser-agent: AI2Bot\nDisallow: /\nFoo: bar\n",
	}
	files, _ := filepath.Glob(filepath.Join(sharedDir(), "realweb", "robots", "*.txt"))
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		bodies[filepath.Base(path)] = string(b)
	}
	urls := []string{"/", "/private/x", "/private/ok", "/a/b.pdf", "/search?q=1", "/%7Euser/", "/robots.txt.bak"}
	asked := 0
	for name, body := range bodies {
		f := Parse([]byte(body))
		for _, a := range Agents() {
			tok := a.ParserToken()
			for _, u := range urls {
				target := matchHost + u
				m := grobotstxt.NewRobotsMatcher()
				want := m.AgentAllowed(f.matcher, tok, target)
				wantLine := m.MatchingLine()
				got, gotLine, err := guardedMatch(nil, f.recording(), tok, target)
				if err != nil || got != want || gotLine != wantLine {
					t.Errorf("%s: %s %s: recorded parse gives %v line %d (%v), parsing gives %v line %d", name, tok, u, got, gotLine, err, want, wantLine)
				}
				asked++
			}
		}
	}
	if len(files) == 0 {
		t.Logf("no real robots.txt files in %s: checked the made-up ones only", filepath.Join(sharedDir(), "realweb", "robots"))
	}
	t.Logf("%d questions on %d files", asked, len(bodies))
}
