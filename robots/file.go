package robots

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
)

// MaxBytes is how much of a robots.txt we read (RFC 9309 §2.5 asks for at
// least 500 KiB).
const MaxBytes = 500 << 10

// File is a parsed robots.txt. Build it with Parse; it is not changed after
// and may be shared between goroutines.
type File struct {
	// Truncated says the body was longer than MaxBytes and was cut; the
	// partial last line was dropped so that no rule is read cut short.
	Truncated bool
	// Size is the length of the body as given, before any cut.
	Size int

	lines    []line
	groups   []Group
	outside  []Extra // Crawl-delay, Content-Signal, Content-Usage outside any group
	sitemaps []string
	licenses []License
	html     bool
	matcher  string // the body as the matcher reads it (see Parse)
	// parsed is the matcher's parse of it, taken once when first asked
	// for (see recording); nil for a File not made by Parse.
	parsed func() recording
}

// Group is one group as written: its user-agent lines, then what follows up
// to the next user-agent line that comes after a rule (RFC 9309 §2.1).
// Groups naming the same agent are not merged here; GroupFor lists all the
// groups an agent follows.
type Group struct {
	Agents []GroupAgent
	Rules  []Rule
	// CrawlDelay is the group's Crawl-delay line, if it has one (the first
	// that reads as a number when it has several; Delays keeps them all).
	CrawlDelay *CrawlDelay
	Delays     []CrawlDelay
	// ContentSignals and ContentUsage are the group's Content-Signal and
	// Content-Usage lines, each read as a key=value list.
	ContentSignals []Extra
	ContentUsage   []Extra
	// FirstLine and LastLine are the 1-based lines of the group's first
	// user-agent line and of the last directive that belongs to it.
	FirstLine, LastLine int
}

// IsStar says the group is for "*".
func (g Group) IsStar() bool {
	for _, a := range g.Agents {
		if a.Star {
			return true
		}
	}
	return false
}

// AgentNames lists the group's agents as the parser reads them ("*" for the
// star group), in file order.
func (g Group) AgentNames() []string {
	out := make([]string, 0, len(g.Agents))
	for _, a := range g.Agents {
		out = append(out, a.Token)
	}
	return out
}

// Disallowed lists up to n of the group's disallowed paths, in file order
// (empty Disallow lines, which disallow nothing, are left out).
func (g Group) Disallowed(n int) []string {
	var out []string
	for _, r := range g.Rules {
		if !r.Allow && r.Path != "" && len(out) < n {
			out = append(out, r.Path)
		}
	}
	return out
}

// GroupAgent is one user-agent line.
type GroupAgent struct {
	Line  int
	Value string // as written
	Token string // ProductToken of Value: "*", or the leading letters, "_" and "-"
	Star  bool
}

// Rule is one allow or disallow line.
type Rule struct {
	Line  int
	Allow bool
	Path  string // as written (comment and surrounding space removed)
	// Pattern is Path as it is matched: escapes upper-cased, non-ASCII
	// percent-encoded (see normalise).
	Pattern string
}

// String writes the rule the way robots.txt does: "Disallow: /x".
func (r Rule) String() string {
	if r.Allow {
		return "Allow: " + r.Path
	}
	return "Disallow: " + r.Path
}

// CrawlDelay is one Crawl-delay line.
type CrawlDelay struct {
	Line    int
	Value   string  // as written
	Seconds float64 // valid only when OK
	OK      bool    // Value reads as a non-negative number of seconds
}

// Extra is one Content-Signal or Content-Usage line (or a Crawl-delay line
// outside any group, in Outside).
type Extra struct {
	Line  int
	Key   string // as written
	Value string // as written
	// Pairs is the value read as a comma-separated key=value list, in file
	// order. Keys are lower-cased; values kept as written.
	Pairs []Pair
	// Path is set when the value starts with a path the signals are
	// limited to (a form some sites use: "Content-Usage: /docs/ train-ai=n").
	Path string
}

// Pair is one key=value of a Content-Signal or Content-Usage line.
type Pair struct {
	Key, Value string
}

// Parse reads a robots.txt body. It never fails: lines it cannot read are
// kept as text (they may be comments) and have no effect, as RFC 9309 §2.3.5
// asks. At most MaxBytes are read.
func Parse(body []byte) *File {
	f := &File{Size: len(body)}
	if len(body) > MaxBytes {
		f.Truncated = true
		body = body[:MaxBytes]
		// Drop the partial last line: half a rule ("Allow: /private" cut to
		// "Allow: /") could mean much more than the whole one.
		if i := bytes.LastIndexAny(body, "\r\n"); i >= 0 {
			body = body[:i+1]
		} else {
			body = nil
		}
	}
	f.html = looksLikeHTML(body)
	texts := splitLines(string(body))
	f.lines = make([]line, len(texts))
	var m strings.Builder
	m.Grow(len(body) + len(body)/8)
	var cur *Group
	sawRule := false // the current group has had a rule: the next user-agent line starts a new group
	for i, t := range texts {
		l := readLine(i+1, t)
		f.lines[i] = l
		if i > 0 {
			m.WriteByte('\n')
		}
		switch l.kind {
		case kindUserAgent:
			if cur == nil || sawRule {
				f.groups = append(f.groups, Group{FirstLine: l.num})
				cur = &f.groups[len(f.groups)-1]
				sawRule = false
			}
			v := ProductToken(l.value)
			cur.Agents = append(cur.Agents, GroupAgent{Line: l.num, Value: l.value, Token: v, Star: v == "*"})
			cur.LastLine = l.num
			m.WriteString(l.key + ":" + v)
		case kindAllow, kindDisallow:
			p := normalise(l.value, true)
			if cur != nil {
				cur.Rules = append(cur.Rules, Rule{Line: l.num, Allow: l.kind == kindAllow, Path: l.value, Pattern: p})
				cur.LastLine = l.num
				sawRule = true
			}
			m.WriteString(l.key + ":" + p)
		case kindSitemap:
			if l.value != "" && !contains(f.sitemaps, l.value) {
				f.sitemaps = append(f.sitemaps, l.value)
			}
		case kindLicense:
			// RSL's License line is global, like Sitemap: it names the
			// licence file wherever it stands and belongs to no group.
			if l.value != "" && !slicesHasURL(f.licenses, l.value) {
				f.licenses = append(f.licenses, License{Line: l.num, URL: l.value})
			}
		case kindCrawlDelay:
			d := readDelay(l)
			if cur == nil {
				f.outside = append(f.outside, Extra{Line: l.num, Key: l.key, Value: l.value})
				break
			}
			cur.Delays = append(cur.Delays, d)
			if cur.CrawlDelay == nil && d.OK {
				dd := d
				cur.CrawlDelay = &dd
			}
			cur.LastLine = l.num
		case kindContentSignal, kindContentUsage:
			e := readExtra(l)
			if cur == nil {
				f.outside = append(f.outside, e)
				break
			}
			if l.kind == kindContentSignal {
				cur.ContentSignals = append(cur.ContentSignals, e)
			} else {
				cur.ContentUsage = append(cur.ContentUsage, e)
			}
			cur.LastLine = l.num
		case kindOther:
			if cur != nil {
				cur.LastLine = l.num
			}
		}
	}
	f.matcher = m.String()
	text := f.matcher
	f.parsed = sync.OnceValue(func() recording { return record(text) })
	return f
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// readDelay reads a Crawl-delay value: seconds, fractions allowed.
func readDelay(l line) CrawlDelay {
	d := CrawlDelay{Line: l.num, Value: l.value}
	v := strings.TrimSpace(l.value)
	// "1,5" is a decimal comma in much of Europe.
	if strings.Count(v, ",") == 1 && !strings.Contains(v, ".") {
		v = strings.Replace(v, ",", ".", 1)
	}
	s, err := strconv.ParseFloat(v, 64)
	if errors.Is(err, strconv.ErrRange) && s > 0 {
		// More seconds than a float holds is still a number, and a delay
		// longer than anyone waits: kept as the largest float, so it can
		// never be taken for no delay at all.
		s, err = math.MaxFloat64, nil
	}
	if err == nil && s >= 0 && !strings.ContainsAny(v, "xXpPnN_") {
		d.Seconds, d.OK = s, true
	}
	return d
}

// readExtra reads a Content-Signal or Content-Usage line's key=value list.
func readExtra(l line) Extra {
	e := Extra{Line: l.num, Key: l.key, Value: l.value}
	v := l.value
	if strings.HasPrefix(v, "/") {
		if i := strings.IndexAny(v, " \t"); i > 0 {
			e.Path, v = v[:i], strings.TrimSpace(v[i:])
		} else if !strings.Contains(v, "=") {
			e.Path, v = v, ""
		}
	}
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' }) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, val, _ := strings.Cut(part, "=")
		e.Pairs = append(e.Pairs, Pair{Key: strings.ToLower(strings.TrimSpace(k)), Value: strings.TrimSpace(val)})
	}
	return e
}

// Groups lists the file's groups in file order.
func (f *File) Groups() []Group {
	if f == nil {
		return nil
	}
	return f.groups
}

// Outside lists Crawl-delay, Content-Signal and Content-Usage lines that
// come before the first user-agent line, so belong to no group. They are
// reported, not applied.
func (f *File) Outside() []Extra {
	if f == nil {
		return nil
	}
	return f.outside
}

// Sitemaps lists the Sitemap lines' values in file order, each once.
func (f *File) Sitemaps() []string {
	if f == nil {
		return nil
	}
	return f.sitemaps
}

// License is one License line of robots.txt (RSL 1.0): the address of a
// licence file for the site's content, which may be on another host.
type License struct {
	Line int    // 1-based
	URL  string // the value as written
}

// Licenses lists the License lines in file order, each address once.
func (f *File) Licenses() []License {
	if f == nil {
		return nil
	}
	return f.licenses
}

func slicesHasURL(ls []License, u string) bool {
	for _, l := range ls {
		if l.URL == u {
			return true
		}
	}
	return false
}

// LooksLikeHTML says the body is an HTML page (a "soft 404" served as
// robots.txt), which reads as a file with no rules; say so rather than
// report "no restrictions".
func (f *File) LooksLikeHTML() bool { return f != nil && f.html }

// Lines is the number of lines read.
func (f *File) Lines() int {
	if f == nil {
		return 0
	}
	return len(f.lines)
}

// Line is the text of the 1-based line n as served ("" when out of range).
func (f *File) Line(n int) string {
	if f == nil || n < 1 || n > len(f.lines) {
		return ""
	}
	return f.lines[n-1].text
}

// RuleAt is the rule on line n, if line n is a rule inside a group.
func (f *File) RuleAt(n int) (Rule, bool) {
	for _, g := range f.Groups() {
		if n < g.FirstLine || n > g.LastLine {
			continue
		}
		for _, r := range g.Rules {
			if r.Line == n {
				return r, true
			}
		}
	}
	return Rule{}, false
}

// GroupFor says which groups an agent follows: "own" and the indexes (into
// Groups) of every group naming its product token, merged as RFC 9309
// §2.2.1 says; else "star" and the "*" groups; else "none". token may be
// any name or a full User-Agent string: its ProductToken is used.
func (f *File) GroupFor(token string) (kind string, groups []int) {
	if f == nil {
		return "none", nil
	}
	t := ProductToken(token)
	if t != "" {
		for i, g := range f.groups {
			for _, a := range g.Agents {
				if !a.Star && strings.EqualFold(a.Token, t) {
					groups = append(groups, i)
					break
				}
			}
		}
		if len(groups) > 0 {
			return "own", groups
		}
	}
	if star := f.starGroups(); len(star) > 0 {
		return "star", star
	}
	return "none", nil
}

// CrawlDelay is the Crawl-delay that applies to token: the one in its own
// groups, else the one in the "*" groups (design §2.2). Where several
// groups that apply set one, the longest is taken: it is the polite choice.
// Values that are not a number of seconds are ignored.
func (f *File) CrawlDelay(token string) (seconds float64, ok bool) {
	d, ok := f.CrawlDelayLine(token)
	return d.Seconds, ok
}

// CrawlDelayLine is CrawlDelay with the line it comes from.
func (f *File) CrawlDelayLine(token string) (CrawlDelay, bool) {
	if f == nil {
		return CrawlDelay{}, false
	}
	kind, own := f.GroupFor(token)
	pick := func(idx []int) (CrawlDelay, bool) {
		var best CrawlDelay
		found := false
		for _, i := range idx {
			for _, d := range f.groups[i].Delays {
				if d.OK && (!found || d.Seconds > best.Seconds) {
					best, found = d, true
				}
			}
		}
		return best, found
	}
	if kind == "own" {
		if d, ok := pick(own); ok {
			return d, true
		}
		return pick(f.starGroups())
	}
	return pick(own) // the star groups, or none
}

func (f *File) starGroups() []int {
	var idx []int
	for i, g := range f.groups {
		if g.IsStar() {
			idx = append(idx, i)
		}
	}
	return idx
}

// looksLikeHTML: the body, after any byte order mark and white space,
// starts with a tag, and an HTML document marker is near the start.
func looksLikeHTML(body []byte) bool {
	b := []byte(skipBOM(string(body[:min(len(body), 2048)])))
	b = bytes.TrimLeft(b, " \t\r\n\f")
	if len(b) == 0 || b[0] != '<' {
		return false
	}
	low := bytes.ToLower(b)
	for _, m := range []string{"<!doctype html", "<html", "<head", "<body", "<title", "<meta", "<script", "<div", "<!--"} {
		if bytes.Contains(low, []byte(m)) {
			return true
		}
	}
	return false
}
