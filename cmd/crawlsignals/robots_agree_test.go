package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/robots"
)

// digitGroups are groups for the crawlers of our list whose tokens hold a
// digit, added to each real file: RFC 9309 parsers read "AI2Bot" as "AI",
// and the command must read the name the way the build reads the line.
const digitGroups = "\nUser-agent: AI2Bot\nUser-agent: img2dataset\nDisallow: /\n\nUser-agent: Ai2Bot-Dolma\nDisallow: /private/\n"

// TestCommandAgreesWithBuild: for every file of ../shared/realweb/robots/,
// as it is and with groups for AI2Bot, Ai2Bot-Dolma and img2dataset added
// before and after its own, `crawlsignals robots -agent NAME FILE URL` gives
// each crawler of the agents list the verdict and deciding line that the
// build's reading (Report, which the site pages show) gives it, and the
// command's own agents table says the same as its answer.
func TestCommandAgreesWithBuild(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "realweb", "robots")
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(files) == 0 {
		t.Skipf("no real robots.txt files in %s (a clone outside the project's environment): skipping", dir)
	}
	sort.Strings(files)
	agents := robots.Agents()
	urls := []string{"https://e.test/", "https://e.test/private/x"}
	checked := 0
	for _, path := range files {
		real, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for variant, body := range map[string]string{"as served": string(real), "digit groups first": digitGroups + "\n" + string(real), "digit groups last": string(real) + "\n" + digitGroups} {
			tmp := filepath.Join(t.TempDir(), "robots.txt")
			if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			f := robots.Parse([]byte(body))
			for _, u := range urls {
				want := map[string]string{}
				for _, a := range agents {
					d := f.Decide(a.ParserToken(), u)
					verdict := "allowed"
					if !d.Allowed {
						verdict = "disallowed"
					}
					want[a.Token] = fmt.Sprintf("%s\t%s\t%d\n", verdict, u, d.Line)
				}
				if u == "https://e.test/" {
					for _, v := range f.Report(agents) {
						root := "allowed"
						if !v.RootAllowed {
							root = "disallowed"
						}
						if w := fmt.Sprintf("%s\t%s\t%d\n", root, u, v.Line); w != want[v.Agent] {
							t.Fatalf("%s (%s): Report says %q for %s, Decide %q", filepath.Base(path), variant, w, v.Agent, want[v.Agent])
						}
					}
				}
				for _, a := range agents {
					code, out, _ := runRobotsCmd(t, "", "-agent", a.Token, tmp, u)
					if code != 0 || out != want[a.Token] {
						t.Errorf("%s (%s): robots -agent %s %s = %q, the build reads %q", filepath.Base(path), variant, a.Token, u, out, want[a.Token])
					}
					checked++
				}
			}
			// The whole reading for AI2Bot: its "follows" line agrees with
			// the group the table gives the crawler.
			code, out, _ := runRobotsCmd(t, "", "-agent", "AI2Bot", tmp)
			kind, _ := f.GroupFor("AI2Bot")
			if code != 0 || !strings.Contains(out, "\nAI follows: "+kind) {
				t.Errorf("%s (%s): reading for AI2Bot does not say it follows %s:\n%s", filepath.Base(path), variant, kind, out)
			}
			if variant != "as served" && kind != "own" {
				t.Errorf("%s (%s): AI2Bot's own group not found", filepath.Base(path), variant)
			}
		}
	}
	t.Logf("%d answers of the command checked against the build's reading on %d files", checked, len(files))
}

// TestCommandSaysHowItReadsTheName: a name RFC 9309 reads shorter than it
// is written is answered for the token it reads as, and the command says so.
func TestCommandSaysHowItReadsTheName(t *testing.T) {
	file := "User-agent: *\nAllow: /\n\nUser-agent: AI2Bot\nDisallow: /\n"
	code, out, errs := runRobotsCmd(t, file, "-agent", "AI2Bot", "-", "https://e.test/")
	if code != 0 || out != "disallowed\thttps://e.test/\t5\n" {
		t.Errorf("AI2Bot: %d %q", code, out)
	}
	if !strings.Contains(errs, `read as the product token "AI"`) {
		t.Errorf("stderr does not say how AI2Bot is read: %q", errs)
	}
	_, _, errs = runRobotsCmd(t, file, "-agent", "GPTBot/1.2 (+https://openai.com/gptbot)", "-", "https://e.test/")
	if errs != "" {
		t.Errorf("a version after the token is no news: %q", errs)
	}
}

// TestCommandNamesOurRule: for a robots.txt that was not read, the
// command's verdict is RFC 9309's, and our crawler's rule is a note that
// says it is ours.
func TestCommandNamesOurRule(t *testing.T) {
	for status, c := range map[string]struct{ out, rfc string }{
		"403": {"allowed\thttps://e.test/\tunavailable\n", "a crawler MAY access any resource"},
		"503": {"disallowed\thttps://e.test/\tunreachable\n", "a crawler MUST assume complete disallow"},
	} {
		code, out, errs := runRobotsCmd(t, "User-agent: *\nAllow: /\n", "-status", status, "-", "https://e.test/")
		if code != 0 || out != c.out || !strings.Contains(errs, "our crawler's rule") || !strings.Contains(errs, c.rfc) {
			t.Errorf("status %s: %q, stderr %q", status, out, errs)
		}
		_, out, _ = runRobotsCmd(t, "User-agent: *\nAllow: /\n", "-status", status, "-")
		if !strings.Contains(out, "(not-read)") || strings.Contains(out, "disallow-all") {
			t.Errorf("status %s reading: %s", status, out)
		}
	}
}
