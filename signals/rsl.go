package signals

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// RSL (Really Simple Licensing 1.0): robots.txt's License line names an
// XML file that says, per content URL pattern, which usages are permitted
// or prohibited and what payment is asked (design §2.8). The crawler reads
// it only on a reviewed host of the site and when robots.txt lets it;
// everything here comes from that stored answer.

// RSLNamespace is the namespace RSL 1.0 gives its root element.
const RSLNamespace = "https://rslstandard.org/rsl"

// Limits on a file we read as RSL: it comes from the site, so it may be
// hostile. A real licence file is a few kilobytes.
const (
	maxRSLBytes    = 512 << 10 // larger files are not read as RSL
	maxRSLDepth    = 32        // element nesting
	maxRSLElements = 5000
	maxRSLText     = 4 << 10 // characters of one element's text kept
	maxRSLLine     = 300     // characters of a line shown as evidence
)

// RobotsLicense is one License line of robots.txt: the address of an RSL
// file, as written.
type RobotsLicense struct {
	Line int    `json:"line"`
	URL  string `json:"url"`
}

// RSLFile is what became of one RSL file a License line names, and what it
// says when it was read.
type RSLFile struct {
	// URL is the file's address as the License line names it (resolved
	// against robots.txt when relative); RobotsURL and Line are the
	// robots.txt and the line that name it.
	URL       string `json:"url"`
	RobotsURL string `json:"robots_url"`
	Line      int    `json:"line"`
	// State: read (and parsed), unreadable (read, but not as RSL: Problem
	// says why), not-read (a gap of ours: Reason and Detail), not-asked (no
	// request was planned: Detail says why).
	State   string `json:"state"`
	Reason  string `json:"reason,omitempty"`
	Detail  string `json:"detail,omitempty"`
	Problem string `json:"problem,omitempty"`
	Record  string `json:"record,omitempty"`
	ReadAt  string `json:"read_at,omitempty"`
	// Notes are things a reader should know about a file read as RSL
	// (not in RSL's namespace, usages spelled the draft's way).
	Notes    []string     `json:"notes,omitempty"`
	Contents []RSLContent `json:"contents"`
}

// The states of an RSLFile.
const (
	RSLRead       = "read"
	RSLUnreadable = "unreadable"
	RSLNotRead    = "not-read"
	RSLNotAsked   = "not-asked"
)

// RSLContent is one <content> element: the assets its url pattern names
// and the licences offered for them.
type RSLContent struct {
	URL    string `json:"url"` // the pattern as written
	Server string `json:"server,omitempty"`
	Line   int    `json:"line"`
	// CoversHome says the pattern covers the site's home page, read as
	// RFC 9309 paths (a path pattern is on the host whose robots.txt names
	// the file): only such a licence speaks for the whole site.
	CoversHome bool         `json:"covers_home"`
	Licenses   []RSLLicense `json:"licenses"`
}

// RSLLicense is one <license> element.
type RSLLicense struct {
	Line      int         `json:"line"`
	Permits   []RSLTerm   `json:"permits"`
	Prohibits []RSLTerm   `json:"prohibits"`
	Payment   *RSLPayment `json:"payment"` // null when none is stated
}

// RSLTerm is one <permits> or <prohibits> element.
type RSLTerm struct {
	Type   string   `json:"type"`   // usage, user or geo, as written (lower-cased)
	Values []string `json:"values"` // its tokens, lower-cased
	Line   int      `json:"line"`
	Text   string   `json:"text"` // the file's line it is on, as written
}

// RSLPayment is a <payment> element.
type RSLPayment struct {
	Type string `json:"type"` // free, purchase, subscription, attribution … as written (lower-cased); "" when not given
	Line int    `json:"line"`
	Text string `json:"text"`
	// Standard are the <standard> elements: a standard licence, or a
	// collective's rate card.
	Standard []RSLStandard `json:"standard"`
	Custom   []string      `json:"custom"`
	Amounts  []string      `json:"amounts"` // "10 USD"
}

// RSLStandard is one <standard> element of a payment.
type RSLStandard struct {
	URL     string `json:"url"`
	Licence string `json:"licence,omitempty"` // the standard licence of design §2.6 it names; absent when none
	Line    int    `json:"line"`
	Text    string `json:"text"` // the file's line it is on, as written
}

// rslTrainingUsages are the usages whose prohibition objects to AI
// training: ai-train, the draft's train-ai, every AI use, and every use.
var rslTrainingUsages = []string{"ai-train", "train-ai", "ai-all", "all"}

// rslFreePayments are payment types that ask for no money: only these
// make a standard licence a grant of reuse.
var rslFreePayments = []string{"", "free", "attribution"}

// parseRSL reads an RSL file's text. It returns the contents, notes, and a
// problem when the file cannot be read as RSL (then contents are nil).
// Entities are never expanded: a file declaring a DOCTYPE is not read, and
// an entity reference other than XML's five is an error.
func parseRSL(text string) (contents []RSLContent, notes []string, problem string) {
	if len(text) > maxRSLBytes {
		return nil, nil, fmt.Sprintf("the file is %d bytes, more than the %d KiB we read as RSL", len(text), maxRSLBytes>>10)
	}
	if !utf8.ValidString(text) {
		return nil, nil, "the file is not valid text in its declared charset"
	}
	lines := strings.Split(text, "\n")
	lineText := func(n int) string {
		if n < 1 || n > len(lines) {
			return ""
		}
		l := strings.TrimSpace(strings.TrimSuffix(lines[n-1], "\r"))
		if utf8.RuneCountInString(l) > maxRSLLine {
			r := []rune(l)
			l = string(r[:maxRSLLine]) + "…"
		}
		return l
	}
	d := xml.NewDecoder(strings.NewReader(text))
	d.Strict = true
	// The text was decoded to UTF-8 when it was taken from the evidence:
	// whatever charset the declaration names, the bytes are UTF-8 now.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }

	var (
		stack     []string
		rootSeen  bool
		elements  int
		cur       *RSLContent
		lic       *RSLLicense
		term      *RSLTerm
		pay       *RSLPayment
		field     string // standard | custom | amount, inside payment
		fieldLine int
		currency  string
		buf       bytes.Buffer
		drafty    bool
	)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, "not well-formed XML: " + err.Error()
		}
		line, _ := d.InputPos()
		switch t := tok.(type) {
		case xml.Directive:
			if bytes.HasPrefix(bytes.TrimSpace(bytes.ToUpper(t)), []byte("DOCTYPE")) {
				return nil, nil, "the file declares a DOCTYPE; we do not read such a file as RSL (its entities are never expanded)"
			}
		case xml.StartElement:
			elements++
			if elements > maxRSLElements {
				return nil, nil, fmt.Sprintf("more than %d elements", maxRSLElements)
			}
			if len(stack) >= maxRSLDepth {
				return nil, nil, fmt.Sprintf("elements nested more than %d deep", maxRSLDepth)
			}
			name := strings.ToLower(t.Name.Local)
			parent := ""
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			stack = append(stack, name)
			buf.Reset()
			switch {
			case len(stack) == 1:
				if name != "rsl" {
					return nil, nil, fmt.Sprintf("the root element is <%s>, not <rsl>", t.Name.Local)
				}
				rootSeen = true
				if t.Name.Space != RSLNamespace {
					notes = append(notes, "the root element is not in RSL's namespace ("+RSLNamespace+"); read as RSL all the same")
				}
			case name == "content" && parent == "rsl":
				contents = append(contents, RSLContent{URL: attr(t, "url"), Server: attr(t, "server"), Line: line, Licenses: []RSLLicense{}})
				cur = &contents[len(contents)-1]
			case name == "license" && parent == "content" && cur != nil:
				cur.Licenses = append(cur.Licenses, RSLLicense{Line: line, Permits: []RSLTerm{}, Prohibits: []RSLTerm{}})
				lic = &cur.Licenses[len(cur.Licenses)-1]
			case (name == "permits" || name == "prohibits") && parent == "license" && lic != nil:
				term = &RSLTerm{Type: strings.ToLower(strings.TrimSpace(attr(t, "type"))), Line: line, Text: lineText(line)}
				if term.Type == "" {
					term.Type = "usage"
				}
			case name == "payment" && parent == "license" && lic != nil:
				pay = &RSLPayment{Type: strings.ToLower(strings.TrimSpace(attr(t, "type"))), Line: line, Text: lineText(line),
					Standard: []RSLStandard{}, Custom: []string{}, Amounts: []string{}}
			case (name == "standard" || name == "custom" || name == "amount") && parent == "payment" && pay != nil:
				field, currency, fieldLine = name, attr(t, "currency"), line
			}
		case xml.CharData:
			if buf.Len() < maxRSLText {
				buf.Write(t)
			}
		case xml.EndElement:
			if len(stack) == 0 {
				break
			}
			name := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			value := strings.TrimSpace(buf.String())
			switch {
			case (name == "permits" || name == "prohibits") && term != nil:
				term.Values = rslTokens(value)
				for _, v := range term.Values {
					drafty = drafty || v == "train-ai"
				}
				if name == "permits" {
					lic.Permits = append(lic.Permits, *term)
				} else {
					lic.Prohibits = append(lic.Prohibits, *term)
				}
				term = nil
			case name == "payment" && pay != nil:
				lic.Payment, pay = pay, nil
			case name == field && pay != nil:
				switch field {
				case "standard":
					if value != "" {
						pay.Standard = append(pay.Standard, RSLStandard{URL: value, Licence: licenceOfURL(value), Line: fieldLine, Text: lineText(fieldLine)})
					}
				case "custom":
					if value != "" {
						pay.Custom = append(pay.Custom, value)
					}
				case "amount":
					if value != "" {
						pay.Amounts = append(pay.Amounts, strings.TrimSpace(value+" "+currency))
					}
				}
				field = ""
			case name == "license":
				lic = nil
			case name == "content":
				cur, lic = nil, nil
			}
			buf.Reset()
		}
	}
	if !rootSeen {
		return nil, nil, "no <rsl> element"
	}
	if len(contents) == 0 {
		return nil, notes, "no <content> element: the file names no asset and no licence"
	}
	if drafty {
		notes = append(notes, "usages are spelled as in RSL's drafts (train-ai for ai-train); read as the same usage")
	}
	return contents, notes, ""
}

// rslTokens splits an element's text into its tokens: RSL lists them
// separated by spaces (commas are tolerated).
func rslTokens(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	if f == nil {
		return []string{}
	}
	return f
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if strings.EqualFold(a.Name.Local, name) {
			return a.Value
		}
	}
	return ""
}

// rslPatternCovers says whether an RSL content pattern covers the page at
// target. A pattern is a full URL, or a path on the host of base (the
// robots.txt that names the file); '*' matches any run of characters and a
// final '$' the end of the path, as RFC 9309 reads paths.
func rslPatternCovers(pattern, base, target string) bool {
	t, err := url.Parse(target)
	if err != nil {
		return false
	}
	pattern = strings.TrimSpace(pattern)
	path := pattern
	if u, err := url.Parse(pattern); err == nil && u.IsAbs() {
		if !strings.EqualFold(u.Hostname(), t.Hostname()) {
			return false
		}
		path = u.EscapedPath()
		if i := strings.Index(pattern, u.Host); i >= 0 {
			path = pattern[i+len(u.Host):] // keep '*' and '$' as written
		}
	} else {
		b, err := url.Parse(base)
		if err != nil || !strings.EqualFold(b.Hostname(), t.Hostname()) {
			return false
		}
	}
	if path == "" {
		path = "/"
	}
	tp := t.EscapedPath()
	if tp == "" {
		tp = "/"
	}
	return rslMatch(path, tp)
}

// rslMatch matches path against an RFC 9309 pattern (prefix, '*', '$').
func rslMatch(pattern, path string) bool {
	end := strings.HasSuffix(pattern, "$")
	pattern = strings.TrimSuffix(pattern, "$")
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(path, parts[0]) {
		return false
	}
	rest := path[len(parts[0]):]
	for i, p := range parts[1:] {
		last := i == len(parts)-2
		if last && end {
			return strings.HasSuffix(rest, p)
		}
		j := strings.Index(rest, p)
		if j < 0 {
			return false
		}
		rest = rest[j+len(p):]
	}
	return !end || rest == ""
}

// rslAddress resolves a License line's value against the robots.txt that
// names it: the address the crawler asks for. ok is false for a value that
// is no http(s) address.
func rslAddress(value, robotsURL string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(value))
	if err != nil {
		return "", false
	}
	if !u.IsAbs() {
		b, err := url.Parse(robotsURL)
		if err != nil {
			return "", false
		}
		u = b.ResolveReference(u)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	u.Fragment = ""
	return u.String(), true
}

// rslURLs maps the address of each RSL file the site's robots.txt files
// name to the first robots.txt that names it: the addresses to read as RSL.
func rslURLs(s *Site) map[string]string {
	out := map[string]string{}
	for _, r := range append([]Robots{s.Robots}, s.OtherRobots...) {
		for _, l := range r.LicenseLines {
			if u, ok := rslAddress(l.URL, r.URL); ok {
				if _, dup := out[u]; !dup {
					out[u] = r.URL
				}
			}
		}
	}
	return out
}

// rslFiles says, for each License line of the site's robots.txt files, what
// became of the file it names: read (parsed holds what it says), a gap,
// or never asked for.
func rslFiles(s *Site, addrs []evidence.Address, parsed map[string]RSLFile) []RSLFile {
	out := []RSLFile{}
	for _, r := range append([]Robots{s.Robots}, s.OtherRobots...) {
		for _, l := range r.LicenseLines {
			f := RSLFile{URL: l.URL, RobotsURL: r.URL, Line: l.Line, Contents: []RSLContent{}}
			u, ok := rslAddress(l.URL, r.URL)
			if !ok {
				f.State, f.Detail = RSLNotAsked, "not an http(s) address, so no request was sent"
				out = append(out, f)
				continue
			}
			f.URL = u
			var a *evidence.Address
			for i := range addrs {
				if addrs[i].URL == u && addrs[i].FoundVia != "robots" {
					a = &addrs[i]
					break
				}
			}
			switch {
			case a == nil:
				f.State, f.Detail = RSLNotAsked, "not planned in this batch"
			case a.Outcome == evidence.OutcomeRead:
				if p, ok := parsed[u]; ok {
					p.URL, p.RobotsURL, p.Line = u, r.URL, l.Line
					f = p
				} else {
					f.State, f.Problem = RSLUnreadable, "no text could be taken from the answer"
				}
			case a.Outcome == evidence.OutcomeGap:
				f.State, f.Reason, f.Detail = RSLNotRead, a.Reason, a.Detail
			default:
				f.State, f.Reason, f.Detail = RSLNotRead, evidence.ReasonNotFound, fmt.Sprintf("HTTP %d", a.Status)
			}
			out = append(out, f)
		}
	}
	return out
}

// readRSL reads a stored answer as an RSL file; home is the site's home
// page and robotsURL the robots.txt naming it, for the patterns' scope.
func readRSL(rr readResult, home, robotsURL string) RSLFile {
	f := RSLFile{URL: rr.doc.URL, Record: rr.doc.Record, ReadAt: rr.doc.ReadAt, Contents: []RSLContent{}}
	switch {
	case rr.doc.TextError != "":
		f.State, f.Problem = RSLUnreadable, rr.doc.TextError
		return f
	case rr.raw == "" && rr.text != "":
		f.State, f.Problem = RSLUnreadable, "served as "+orWord(rr.doc.ContentType, "no content type")+", not as XML"
		return f
	}
	contents, notes, problem := parseRSL(rr.raw)
	f.Notes = notes
	if problem != "" {
		f.State, f.Problem = RSLUnreadable, problem
		return f
	}
	f.State = RSLRead
	for i := range contents {
		contents[i].CoversHome = rslPatternCovers(contents[i].URL, robotsURL, home)
	}
	f.Contents = contents
	return f
}

func orWord(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// rslNotReadNote says, after the AI use verdict's reason, that an RSL file
// robots.txt names was not read: what it says about AI is unknown to us,
// which "nothing we read objects" must not hide.
func rslNotReadNote(s *Site) string {
	if s.AIUse.Verdict == AIUnknown {
		return ""
	}
	n := 0
	for _, f := range s.RSL {
		if f.State != RSLRead {
			n++
		}
	}
	switch n {
	case 0:
		return ""
	case 1:
		return " The RSL licence file robots.txt names was not read as RSL (see RSL licence files): what it says about AI training is unknown to us."
	}
	return fmt.Sprintf(" %d RSL licence files robots.txt names were not read as RSL (see RSL licence files): what they say about AI training is unknown to us.", n)
}

// rslSources are the usages an RSL file robots.txt names permits or
// prohibits, per purpose: ai-train (the draft's train-ai) speaks to
// training, ai-input to AI answers, search to search, and ai-all and all
// to every AI purpose (all to search too). A prohibition objects for the
// crawlers of the purposes it names, for the whole site when its content
// covers the home page; a permit is shown, deciding nothing.
func rslSources(s *Site, byPurpose map[string][]Agent) []AISource {
	var out []AISource
	for _, f := range s.RSL {
		if f.State != RSLRead {
			continue
		}
		for _, c := range f.Contents {
			for _, l := range c.Licenses {
				for _, p := range l.Prohibits {
					purposes := rslPurposes(p)
					if len(purposes) == 0 {
						continue
					}
					src := AISource{Kind: "rsl", Says: p.Text, URL: f.URL, Line: p.Line, Record: f.Record,
						Purposes: purposes, ObjectsFor: purposes, WholeSite: c.CoversHome}
					for _, pp := range purposes {
						for _, a := range byPurpose[pp] {
							src.Crawlers = append(src.Crawlers, a.Agent)
						}
					}
					out = append(out, src)
				}
				for _, p := range l.Permits {
					if purposes := rslPurposes(p); len(purposes) > 0 {
						out = append(out, AISource{Kind: "rsl", Says: p.Text, URL: f.URL, Line: p.Line, Record: f.Record, Purposes: purposes})
					}
				}
			}
		}
	}
	return out
}

// rslPurposes are the purposes a usage permit or prohibit speaks to.
func rslPurposes(p RSLTerm) []string {
	if p.Type != "usage" {
		return nil
	}
	var out []string
	add := func(purpose string, usages ...string) {
		if anyOf(p.Values, usages) {
			out = append(out, purpose)
		}
	}
	add(PurposeTraining, rslTrainingUsages...)
	add(PurposeAnswers, "ai-input", "ai-all", "all")
	add(PurposeSearch, "search", "all")
	return out
}

func anyOf(have, want []string) bool {
	for _, h := range have {
		for _, w := range want {
			if h == w {
				return true
			}
		}
	}
	return false
}

// rslLicences are the standard licences RSL files grant the site's
// content under (design §2.6): a licence of a content that covers the home
// page, asking no money (free, attribution or no payment stated), whose
// <standard> names a standard licence, and that does not prohibit every use.
func rslLicences(s *Site) []Licence {
	var out []Licence
	for _, f := range s.RSL {
		if f.State != RSLRead {
			continue
		}
		for _, c := range f.Contents {
			if !c.CoversHome {
				continue
			}
			for _, l := range c.Licenses {
				if l.Payment == nil || !contains(rslFreePayments, l.Payment.Type) || prohibitsAll(l) {
					continue
				}
				for _, std := range l.Payment.Standard {
					if std.Licence == "" {
						continue
					}
					out = append(out, Licence{Name: std.Licence, URL: f.URL, Via: "rsl", LinksTo: std.URL, Record: f.Record,
						Evidence: std.Text, Line: std.Line})
				}
			}
		}
	}
	return out
}

// prohibitsAll says a licence prohibits every use (then no standard licence
// it names grants reuse).
func prohibitsAll(l RSLLicense) bool {
	for _, p := range l.Prohibits {
		if p.Type == "usage" && anyOf(p.Values, []string{"all"}) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}
