package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/crawlsignals/crawlsignals/robots"
)

const commandUsage = `usage: crawlsignals robots [-agent NAME] [-status CODE] FILE [URL...]

Reads FILE ("-" for standard input) as the body of a robots.txt that
answered with status CODE (0: no answer), the way RFC 9309 reads it, and
prints for each URL (an absolute http or https URL) one line for the agent
named: "allowed" or "disallowed", a tab, the URL, a tab, and LINE.

  2xx: the file's rules decide; LINE is the line of the rule that decided
       (0 when no rule did).
  3xx (a redirect not followed to a file) and 4xx: RFC 9309 reads the
       robots.txt as "unavailable" (section 2.3.1.3): a crawler MAY access
       any resource, so every URL is allowed; LINE is "unavailable".
  5xx, no answer (0) and any other status: RFC 9309 reads the robots.txt as
       "unreachable" (section 2.3.1.4): a crawler MUST assume complete
       disallow, so every URL is disallowed; LINE is "unreachable".

For any status but 2xx the body is not read, and standard error says what
RFC 9309 says, then, but for 404 and 410, on a line of its own labelled as
ours and not the verdict, our crawler's rule: it reads nothing else on such
a host (for a 3xx or 4xx, stricter than RFC 9309).

Without URLs it prints the whole reading: groups, the agents table,
Sitemaps, Crawl-delay, Content-Signal and Content-Usage lines, and comments
that forbid crawling.

Exit status: 0 when the input was read, 1 when it could not be, 2 on bad
usage, a URL argument that is not an absolute http(s) URL included (no
verdict is then printed).
`

func runRobots(_ context.Context, e *env, args []string) error {
	if code := robotsCommand(args, e.stdin, e.stdout, e.stderr); code != 0 {
		return codedError{code: code, err: errSilent}
	}
	return nil
}

// robotsCommand is "crawlsignals robots": args are the arguments after the
// subcommand's name.
func robotsCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("robots", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, commandUsage, "\nflags:\n")
		fs.PrintDefaults()
	}
	agent := fs.String("agent", "crawlsignals", "the product token to read the file for")
	status := fs.Int("status", 200, "the HTTP status the robots.txt answered with (0: no answer)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	rest := fs.Args()
	if len(rest) == 0 {
		fmt.Fprintln(stderr, "robots: FILE is missing")
		fs.Usage()
		return 2
	}
	if *status < 0 || *status > 999 {
		fmt.Fprintf(stderr, "robots: -status %d is not an HTTP status\n", *status)
		return 2
	}
	// The one rule the build reads user-agent lines and our agents list
	// by: -agent AI2Bot asks what a crawler named AI2Bot is told, and RFC
	// 9309 parsers read that name as "AI", as the site's page does.
	token := robots.ProductToken(*agent)
	if token == "" {
		fmt.Fprintf(stderr, "robots: -agent %q has no product token (RFC 9309: it starts with a letter, \"_\" or \"-\")\n", *agent)
		return 2
	}
	if h := robots.HTTPToken(*agent); h != token {
		fmt.Fprintf(stderr, "robots: -agent %s is read as the product token %q: RFC 9309 allows only letters, \"_\" and \"-\" in one\n", h, token)
	}
	name, urls := rest[0], rest[1:]
	bad := false
	for _, u := range urls {
		if err := checkURL(u); err != nil {
			fmt.Fprintf(stderr, "robots: %v\n", err)
			bad = true
		}
	}
	if bad {
		fmt.Fprintln(stderr, "robots: give each URL whole, as https://HOST/PATH; no verdict printed")
		return 2
	}
	body, err := readInput(name, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "robots: %v\n", err)
		return 1
	}
	outcome, _ := robots.FromStatus(*status)
	f := robots.Parse(body)
	if outcome != robots.Rules {
		f = robots.Parse(nil) // the body does not count: only the status does
	}
	if len(urls) == 0 {
		printReading(stdout, name, *status, outcome, f, body, token)
		return 0
	}
	if outcome != robots.Rules {
		// The verdict is RFC 9309's for the agent named; our crawler's
		// stricter rule is a note of its own, never the verdict.
		r := rfcReading(*status)
		fmt.Fprintf(stderr, "robots: %s\n", r.says)
		if r.ours != "" {
			fmt.Fprintf(stderr, "robots: %s\n", r.ours)
		}
		verdict := "allowed"
		if !r.allowed {
			verdict = "disallowed"
		}
		for _, u := range urls {
			fmt.Fprintf(stdout, "%s\t%s\t%s\n", verdict, u, r.access)
		}
		return 0
	}
	code := 0
	for _, u := range urls {
		d := f.Decide(token, u)
		if d.Err != nil {
			fmt.Fprintf(stderr, "robots: %s: %v\n", u, d.Err)
			code = 1
		}
		verdict := "allowed"
		if !d.Allowed {
			verdict = "disallowed"
		}
		fmt.Fprintf(stdout, "%s\t%s\t%d\n", verdict, u, d.Line)
	}
	return code
}

// checkURL accepts an absolute http or https URL with a host, the only
// kind of URL argument the command answers for: anything else (a bare
// host, a path, another scheme) would be read as some path and answered
// for, which is no answer.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("URL argument %q is not a URL: %v", raw, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Opaque != "" || u.Hostname() == "" {
		return fmt.Errorf("URL argument %q is not an absolute http or https URL", raw)
	}
	return nil
}

// statusReading is how RFC 9309 §2.3.1 reads a robots.txt status other
// than 2xx, the same for every crawler whatever the body says.
type statusReading struct {
	// access is RFC 9309's word for the robots.txt, the LINE field of the
	// command's answer: "unavailable" or "unreachable".
	access string
	// allowed is RFC 9309's answer for every URL on the host.
	allowed bool
	// says is what RFC 9309 says about the status, a sentence.
	says string
	// ours is our crawler's rule, labelled as ours, when it is stricter
	// than RFC 9309's ("" when it is not).
	ours string
}

// rfcReading reads a status other than 2xx as RFC 9309 does. 4xx is
// "unavailable" (§2.3.1.3): a crawler MAY access any resource; the RFC
// makes no exception for 429. A 3xx that did not lead to a file is read
// as unavailable too, as §2.3.1.2 allows after more than five redirects.
// 5xx and no answer are "unreachable" (§2.3.1.4): a crawler MUST assume
// complete disallow. A status that is no HTTP answer at all (1xx as a
// final answer, 600 and up) is read as unreachable: there was no usable
// answer, as with a network error, and when in doubt nothing is allowed.
func rfcReading(status int) statusReading {
	answered := fmt.Sprintf("answered %d", status)
	if status == 0 {
		answered = "did not answer"
	}
	const (
		unavailable = `RFC 9309 §2.3.1.3 reads the robots.txt as "unavailable": a crawler MAY access any resource on the host, whatever the body says`
		unreachable = `RFC 9309 §2.3.1.4 reads the robots.txt as "unreachable": a crawler MUST assume complete disallow (only when it stays unreachable for a reasonably long time, for example 30 days, MAY a crawler treat it as unavailable or keep using a cached copy)`
	)
	var r statusReading
	switch {
	case status >= 300 && status <= 499:
		r = statusReading{access: "unavailable", allowed: true,
			ours: fmt.Sprintf("note, our crawler's rule (stricter than RFC 9309's, and not the verdict): crawlsignals reads nothing else on a host whose robots.txt %s", answered)}
	default:
		// Where RFC 9309 disallows everything, our crawler does the same.
		r = statusReading{access: "unreachable",
			ours: fmt.Sprintf("note, our crawler's rule (not the verdict): crawlsignals too reads nothing else on a host whose robots.txt %s", answered)}
	}
	switch {
	case status == 404 || status == 410:
		r.ours = "" // no robots.txt: our crawler reads no rules either
		r.says = fmt.Sprintf("robots.txt %s, there is none: %s", answered, unavailable)
	case status == 429:
		r.says = fmt.Sprintf("robots.txt %s (Too Many Requests): %s; it makes no exception for 429", answered, unavailable)
	case status >= 400 && status <= 499:
		r.says = fmt.Sprintf("robots.txt %s: %s", answered, unavailable)
	case status >= 300 && status <= 399:
		r.says = fmt.Sprintf("robots.txt %s, a redirect that did not lead to a file: RFC 9309 §2.3.1.2 lets a crawler then assume it \"unavailable\", and for an unavailable robots.txt (§2.3.1.3) a crawler MAY access any resource on the host, whatever the body says", answered)
	case status == 0 || (status >= 500 && status <= 599):
		r.says = fmt.Sprintf("robots.txt %s: %s", answered, unreachable)
	default:
		r.says = fmt.Sprintf("robots.txt %s, which is no usable HTTP answer, read as a network error is: %s", answered, unreachable)
	}
	return r
}

// readInput reads at most one byte more than robots.MaxBytes, enough to know the
// file was longer.
func readInput(name string, stdin io.Reader) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		if stdin == nil {
			return nil, errors.New("no standard input")
		}
		r = stdin
	} else {
		fh, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer fh.Close()
		r = fh
	}
	b, err := io.ReadAll(io.LimitReader(r, robots.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}

// printReading writes the whole reading in plain text.
func printReading(w io.Writer, name string, status int, outcome robots.Outcome, f *robots.File, body []byte, token string) {
	// The file is named by what it is, as the export names it (rules,
	// none, not-read), not by what our crawler does about it.
	what := string(outcome)
	if outcome == robots.DisallowAll {
		what = "not-read"
	}
	fmt.Fprintf(w, "robots.txt %s, status %d (%s): %s\n", name, status, what, robots.StatusMeaning(status))
	if outcome != robots.Rules {
		fmt.Fprintln(w, "The body is not read: the status alone decides.")
		r := rfcReading(status)
		verdict := "allowed everywhere"
		if !r.allowed {
			verdict = "disallowed everywhere"
		}
		fmt.Fprintf(w, "%s, as RFC 9309 reads status %d (%s): %s.\n", token, status, r.access, verdict)
		return
	}
	size := fmt.Sprintf("%d bytes", len(body))
	if f.Truncated {
		size = "more than " + strconv.Itoa(robots.MaxBytes) + " bytes: read up to the last whole line within " + strconv.Itoa(robots.MaxBytes>>10) + " KiB"
	}
	fmt.Fprintf(w, "%s, %d lines, %d groups\n", size, f.Lines(), len(f.Groups()))
	if f.LooksLikeHTML() {
		fmt.Fprintln(w, "Note: the body looks like an HTML page, not a robots.txt; it has no rules that apply.")
	}

	fmt.Fprintln(w, "\nGroups (the paths are only examples)")
	if len(f.Groups()) == 0 {
		fmt.Fprintln(w, "  none: no rules apply to anyone")
	}
	for i, g := range f.Groups() {
		allow, disallow := 0, 0
		for _, r := range g.Rules {
			if r.Allow {
				allow++
			} else if r.Path != "" {
				disallow++
			}
		}
		fmt.Fprintf(w, "  %d. lines %d-%d: %s\n", i+1, g.FirstLine, g.LastLine, strings.Join(g.AgentNames(), ", "))
		fmt.Fprintf(w, "     %d disallow, %d allow", disallow, allow)
		if ex := g.Disallowed(3); len(ex) > 0 {
			fmt.Fprintf(w, "; disallowed, for example: %s", strings.Join(ex, "  "))
		}
		fmt.Fprintln(w)
		for _, d := range g.Delays {
			if d.OK {
				fmt.Fprintf(w, "     Crawl-delay: %g s (line %d)\n", d.Seconds, d.Line)
			} else {
				fmt.Fprintf(w, "     Crawl-delay: %q is not a number of seconds (line %d)\n", d.Value, d.Line)
			}
		}
		for _, e := range g.ContentSignals {
			fmt.Fprintf(w, "     %s: %s (line %d)\n", e.Key, e.Value, e.Line)
		}
		for _, e := range g.ContentUsage {
			fmt.Fprintf(w, "     %s: %s (line %d)\n", e.Key, e.Value, e.Line)
		}
	}
	for _, e := range f.Outside() {
		fmt.Fprintf(w, "  outside any group, not applied: %s: %s (line %d)\n", e.Key, e.Value, e.Line)
	}

	fmt.Fprintln(w, "\nAgents")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  agent\tread as\toperator\tcategory\tgroup\t/\tline")
	agents := robots.Agents()
	if !hasToken(agents, token) {
		agents = append([]robots.Agent{{Token: token, Operator: "-", Category: "-"}}, agents...)
	}
	for _, v := range f.Report(agents) {
		root := "allowed"
		if !v.RootAllowed {
			root = "disallowed"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%d\n", v.Agent, v.Token, v.Operator, v.Category, v.Group, root, v.Line)
	}
	tw.Flush()

	kind, groups := f.GroupFor(token)
	nums := make([]string, len(groups))
	for i, g := range groups {
		nums[i] = strconv.Itoa(g + 1)
	}
	fmt.Fprintf(w, "\n%s follows: %s", token, kind)
	if len(nums) > 0 {
		fmt.Fprintf(w, " (group %s)", strings.Join(nums, ", "))
	}
	if d, ok := f.CrawlDelayLine(token); ok {
		fmt.Fprintf(w, "; Crawl-delay %g s (line %d)", d.Seconds, d.Line)
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "\nSitemaps")
	if len(f.Sitemaps()) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, s := range f.Sitemaps() {
		fmt.Fprintf(w, "  %s\n", s)
	}

	fmt.Fprintln(w, "\nComments that forbid crawling, scraping or AI use")
	pc := f.ProhibitingComments()
	if len(pc) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, c := range pc {
		fmt.Fprintf(w, "  line %d: %s\n", c.Line, c.Text)
	}
}

func hasToken(agents []robots.Agent, token string) bool {
	for _, a := range agents {
		if strings.EqualFold(a.ParserToken(), token) || strings.EqualFold(a.Token, token) {
			return true
		}
	}
	return false
}
