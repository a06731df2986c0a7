package robots

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
)

const commandUsage = `usage: crawlsignals robots [-agent NAME] [-status CODE] FILE [URL...]

Reads FILE ("-" for standard input) as the body of a robots.txt that
answered with status CODE, the way RFC 9309 reads it, and prints for each
URL one line: "allowed" or "disallowed", a tab, the URL, a tab, and the line
of the rule that decided (0 when no rule did). Without URLs it prints the
whole reading: groups, the agents table, Sitemaps, Crawl-delay,
Content-Signal and Content-Usage lines, and comments that forbid crawling.

Exit status: 0 when the input was read, 1 when it could not be, 2 on bad usage.
`

// RunCommand is "crawlsignals robots": args are the arguments after the
// subcommand's name.
func RunCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
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
	token := ProductToken(*agent)
	if token == "" {
		fmt.Fprintf(stderr, "robots: -agent %q has no product token (RFC 9309: it starts with a letter, \"_\" or \"-\")\n", *agent)
		return 2
	}
	if h := httpToken(*agent); h != token {
		fmt.Fprintf(stderr, "robots: -agent %s is read as the product token %q: RFC 9309 allows only letters, \"_\" and \"-\" in one\n", h, token)
	}
	name, urls := rest[0], rest[1:]
	body, err := readInput(name, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "robots: %v\n", err)
		return 1
	}
	outcome, _ := FromStatus(*status)
	f := Parse(body)
	if outcome != Rules {
		f = Parse(nil) // the body does not count: only the status does
	}
	if len(urls) == 0 {
		printReading(stdout, name, *status, outcome, f, body, token)
		return 0
	}
	if outcome == DisallowAll {
		// "disallowed" is then our crawler's rule, not the file's word:
		// say so, with what RFC 9309 says.
		fmt.Fprintf(stderr, "robots: the file was not read; %s\n", StatusMeaning(*status))
	}
	code := 0
	for _, u := range urls {
		allowed, line := true, 0
		if outcome == DisallowAll {
			allowed = false
		} else if outcome == Rules {
			d := f.Decide(token, u)
			allowed, line = d.Allowed, d.Line
			if d.Err != nil {
				fmt.Fprintf(stderr, "robots: %s: %v\n", u, d.Err)
				code = 1
			}
		}
		verdict := "allowed"
		if !allowed {
			verdict = "disallowed"
		}
		fmt.Fprintf(stdout, "%s\t%s\t%d\n", verdict, u, line)
	}
	return code
}

// readInput reads at most one byte more than MaxBytes, enough to know the
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
	b, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}

// printReading writes the whole reading in plain text.
func printReading(w io.Writer, name string, status int, outcome Outcome, f *File, body []byte, token string) {
	// The file is named by what it is, as the export names it (rules,
	// none, not-read), not by what our crawler does about it.
	what := string(outcome)
	if outcome == DisallowAll {
		what = "not-read"
	}
	fmt.Fprintf(w, "robots.txt %s, status %d (%s): %s\n", name, status, what, StatusMeaning(status))
	if outcome != Rules {
		fmt.Fprintln(w, "The body is not read: the status alone decides.")
		return
	}
	size := fmt.Sprintf("%d bytes", len(body))
	if f.Truncated {
		size = "more than " + strconv.Itoa(MaxBytes) + " bytes: read up to the last whole line within " + strconv.Itoa(MaxBytes>>10) + " KiB"
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
	agents := Agents()
	if !hasToken(agents, token) {
		agents = append([]Agent{{Token: token, Operator: "-", Category: "-"}}, agents...)
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

func hasToken(agents []Agent, token string) bool {
	for _, a := range agents {
		if strings.EqualFold(a.ParserToken(), token) || strings.EqualFold(a.Token, token) {
			return true
		}
	}
	return false
}
