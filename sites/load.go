package sites

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/crawlsignals/crawlsignals/policy"
)

// The keys a sites file may use; any other key is an error, so a typo never
// silently turns a setting off.
var (
	globalKeys = []string{"max_addresses", "max_crawl_delay", "contact"}
	siteKeys   = []string{"name", "url", "hosts", "approved", "blocked", "blocked_since", "category", "notes", "rechecked"}
)

// Load reads and checks the sites file at path. See Parse.
func Load(path string) (*List, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads and checks a sites file; name is used in messages and kept as
// List.Path. Loading is strict: unknown keys, wrong types and every rule of
// the reviewed list are errors. All problems found are reported together, one
// per line of the error's message, each as "name:line: what", sorted by line.
// On any problem the list is nil.
func Parse(name string, data []byte) (*List, error) {
	var top map[string]toml.Primitive
	md, err := toml.Decode(string(data), &top)
	if err != nil {
		return nil, syntaxError(name, err)
	}
	p := &parser{name: name, md: md, lines: indexLines(data)}
	l := p.list(top)
	if err := joinErrors(p.errs); err != nil {
		return nil, err
	}
	return l, nil
}

func syntaxError(name string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &Error{File: name, Line: pe.Position.Line, Msg: "TOML syntax error: " + pe.Message}
	}
	return &Error{File: name, Msg: err.Error()}
}

// parser checks one decoded file. Values are decoded as toml.Primitive into
// maps rather than into structs: struct decoding matches keys regardless of
// case ("URL" would fill url) and MetaData cannot say which [[site]] an
// undecoded key was in, while a map keeps every key exactly as written.
type parser struct {
	name  string
	md    toml.MetaData
	lines lineIndex
	errs  []*Error
	// hostLines is, per site in file order, the line each of its hosts is
	// written on (the home host on its url line), for blockedHosts.
	hostLines []map[string]int
}

func (p *parser) errorf(line int, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.name, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) line(path string) int { return p.lines.lineOf(path) }

func (p *parser) list(top map[string]toml.Primitive) *List {
	l := &List{Path: p.name, Global: Global{
		MaxAddresses:  DefaultMaxAddresses,
		MaxCrawlDelay: DefaultMaxCrawlDelay,
		Contact:       DefaultContact,
	}}
	for _, k := range slices.Sorted(maps.Keys(top)) {
		if k == "global" || k == "site" {
			continue
		}
		if _, ok := p.table(top[k]); ok {
			p.errorf(p.line(k), "unknown table [%s]", k)
		} else {
			p.errorf(p.line(k), "unknown key %q", k)
		}
	}
	if v, ok := top["global"]; ok {
		p.global(v, &l.Global)
	}
	var raws []map[string]toml.Primitive
	if v, ok := top["site"]; ok {
		var elems []toml.Primitive
		if err := p.md.PrimitiveDecode(v, &elems); err != nil {
			p.errorf(p.line("site"), "site must be written as [[site]] tables, not as %s", p.kind(v))
			return l
		}
		for j, e := range elems {
			raw, ok := p.table(e)
			if !ok {
				p.errorf(p.line("site#"+strconv.Itoa(j)), "site must be written as [[site]] tables; element %d is %s", j+1, p.kind(e))
				return l
			}
			raws = append(raws, raw)
		}
	}
	if len(raws) == 0 {
		p.errorf(0, "no [[site]] entries: the list is empty")
		return l
	}
	c := newCrossCheck()
	for i, raw := range raws {
		s := p.site(i, raw)
		p.cross(c, i, &s)
		l.Sites = append(l.Sites, s)
	}
	p.blockedHosts(l.Sites)
	return l
}

// blockedHosts refuses a host of a blocked site listed for another site.
// A blocked site asked us to stop: no request may reach any of its hosts,
// whichever site would ask (a shared legal host included). Rather than
// crawl a host for one site and not for another, the list is refused, at
// the line that lists it for the other site, so a person decides whose
// host it is.
func (p *parser) blockedHosts(ss []Site) {
	owner := map[string]*Site{}
	for i := range ss {
		if ss[i].Blocked {
			for _, h := range ss[i].Hosts {
				if owner[h] == nil {
					owner[h] = &ss[i]
				}
			}
		}
	}
	if len(owner) == 0 {
		return
	}
	for i := range ss {
		if ss[i].Blocked || i >= len(p.hostLines) {
			continue
		}
		for _, h := range ss[i].Hosts {
			if b := owner[h]; b != nil {
				since := ""
				if b.BlockedSince != "" {
					since = " since " + b.BlockedSince
				}
				p.errorf(p.hostLines[i][h], "hosts: %q is a host of %q (line %d), which is blocked (asked us to stop%s): no request may be sent to it for any site; remove it from this site, or from the blocked site if it is not theirs",
					h, b.Name, b.Line, since)
			}
		}
	}
}

func (p *parser) global(v toml.Primitive, g *Global) {
	raw, ok := p.table(v)
	if !ok {
		p.errorf(p.line("global"), "global must be a [global] table, not %s", p.kind(v))
		return
	}
	p.unknownKeys(raw, globalKeys, "global", "[global]")
	if v, ok := raw["max_addresses"]; ok {
		line := p.line("global.max_addresses")
		var n int64
		if err := p.md.PrimitiveDecode(v, &n); err != nil {
			p.errorf(line, "max_addresses must be a whole number, not %s", p.kind(v))
		} else if n <= 0 || n > 1_000_000 {
			p.errorf(line, "max_addresses must be between 1 and 1000000, not %d", n)
		} else {
			g.MaxAddresses = int(n)
		}
	}
	if v, ok := raw["max_crawl_delay"]; ok {
		line := p.line("global.max_crawl_delay")
		var s string
		if err := p.md.PrimitiveDecode(v, &s); err != nil {
			p.errorf(line, `max_crawl_delay must be a duration string like "300s" or "5m", not %s`, p.kind(v))
		} else if d, err := time.ParseDuration(s); err != nil {
			p.errorf(line, `max_crawl_delay %q is not a duration like "300s" or "5m"`, s)
		} else if d <= 0 {
			p.errorf(line, "max_crawl_delay must be longer than zero, not %q", s)
		} else {
			g.MaxCrawlDelay = d
		}
	}
	if v, ok := raw["contact"]; ok {
		line := p.line("global.contact")
		if s, ok := p.str(v, "contact", line); ok {
			if !isEmail(s) {
				p.errorf(line, "contact %q is not an email address", s)
			} else {
				g.Contact = s
			}
		}
	}
}

// unknownKeys reports the keys of raw that are not in known.
func (p *parser) unknownKeys(raw map[string]toml.Primitive, known []string, path, where string) {
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		if !slices.Contains(known, k) {
			p.errorf(p.line(join(path, k)), "unknown key %q in %s", k, where)
		}
	}
}

// site checks what one [[site]] says on its own; cross checks the sites
// against each other.
func (p *parser) site(i int, raw map[string]toml.Primitive) Site {
	base := "site#" + strconv.Itoa(i)
	s := Site{Line: p.line(base), Category: DefaultCategory}
	keyLine := func(k string) int { return p.line(base + "." + k) }
	p.unknownKeys(raw, siteKeys, base, "[[site]]")

	if v, ok := raw["name"]; ok {
		if n, ok := p.str(v, "name", keyLine("name")); ok {
			s.Name = strings.TrimSpace(n)
			if s.Name == "" {
				p.errorf(keyLine("name"), "name is empty")
			}
		}
	} else {
		p.errorf(s.Line, "missing name in [[site]]")
	}

	if v, ok := raw["url"]; ok {
		if u, ok := p.str(v, "url", keyLine("url")); ok {
			s.URL = strings.TrimSpace(u)
			host, problem := webAddress(s.URL)
			if problem != "" {
				p.errorf(keyLine("url"), "url %q %s", s.URL, problem)
			} else if len(host) > policy.MaxSiteHost {
				p.errorf(keyLine("url"), "url %q: its host has %d characters; a site's home host may have at most %d, since it names the site's evidence files", s.URL, len(host), policy.MaxSiteHost)
			}
			s.Host = host
		}
	} else {
		p.errorf(s.Line, "missing url in [[site]]%s", p.named(s.Name))
	}

	lines := map[string]int{}
	p.hostLines = append(p.hostLines, lines)
	if s.Host != "" {
		s.Hosts = []string{s.Host}
		lines[s.Host] = keyLine("url")
	}
	p.hosts(&s, raw, base, lines)

	if v, ok := raw["approved"]; ok {
		for _, it := range p.strs(v, "approved", base+".approved") {
			a := strings.TrimSpace(it.s)
			host, problem := webAddress(a)
			switch {
			case problem != "":
				p.errorf(it.line, "approved address %q %s", a, problem)
			case !slices.Contains(s.Hosts, host):
				p.errorf(it.line, "approved address %q is not on one of this site's hosts (%s)", a, strings.Join(s.Hosts, ", "))
			case slices.Contains(s.Approved, a):
				p.errorf(it.line, "approved address %q is listed twice", a)
			default:
				s.Approved = append(s.Approved, a)
			}
		}
	}

	if v, ok := raw["blocked"]; ok {
		if err := p.md.PrimitiveDecode(v, &s.Blocked); err != nil {
			p.errorf(keyLine("blocked"), "blocked must be true or false, not %s", p.kind(v))
		}
	}
	if v, ok := raw["blocked_since"]; ok {
		line := keyLine("blocked_since")
		if d, ok := p.date(v, "blocked_since", line); ok {
			s.BlockedSince = d
			if !s.Blocked {
				p.errorf(line, "blocked_since is set but blocked is not true")
			}
		}
	} else if s.Blocked {
		// The page says since when the site asked us to stop, and the
		// operator's record of the request is that date.
		p.errorf(keyLine("blocked"), "site%s is blocked but has no blocked_since: add the day it asked us to stop (blocked_since = YYYY-MM-DD)", p.named(s.Name))
	}

	if v, ok := raw["category"]; ok {
		line := keyLine("category")
		if c, ok := p.str(v, "category", line); ok {
			if _, known := lookupCategory(c); !known {
				p.errorf(line, "unknown category %q; use one of: %s", c, categoryNames())
			} else {
				s.Category = c
			}
		}
	}

	if v, ok := raw["notes"]; ok {
		if n, ok := p.str(v, "notes", keyLine("notes")); ok {
			s.Notes = strings.TrimSpace(n)
		}
	}

	if v, ok := raw["rechecked"]; ok {
		s.Rechecked = append(s.Rechecked, p.dates(v, "rechecked", base+".rechecked")...)
	}
	return s
}

// named is a site's name for a message, when it has one.
func (p *parser) named(name string) string {
	if name == "" {
		return ""
	}
	return " " + strconv.Quote(name)
}

// crossCheck remembers what earlier sites claimed: names and home hosts are
// unique across the list. Other hosts may be shared.
type crossCheck struct {
	names map[string]claim // lower-case name → first site with it
	homes map[string]claim // home host → the site it is the key of
}

type claim struct {
	site string // the site's name, for messages
	line int    // where the site starts
}

// String names the claiming site for a message.
func (c claim) String() string {
	if c.site == "" {
		return fmt.Sprintf("the site at line %d", c.line)
	}
	return fmt.Sprintf("%q (line %d)", c.site, c.line)
}

func newCrossCheck() *crossCheck {
	return &crossCheck{names: map[string]claim{}, homes: map[string]claim{}}
}

func (p *parser) cross(c *crossCheck, i int, s *Site) {
	base := "site#" + strconv.Itoa(i)
	if s.Name != "" {
		key := strings.ToLower(s.Name)
		if first, dup := c.names[key]; dup {
			p.errorf(p.line(base+".name"), "duplicate site: the name %q is already used by the site at line %d", s.Name, first.line)
		} else {
			c.names[key] = claim{site: s.Name, line: s.Line}
		}
	}
	// A host may be reviewed for several sites (design §2: a publisher
	// group's one legal host for all its titles); only a home host is one
	// site's key, so two sites with the same home host are one site twice.
	if s.Host == "" {
		return
	}
	if owner, taken := c.homes[s.Host]; taken {
		p.errorf(p.line(base+".url"), "duplicate site: %q is already the home host of %s", s.Host, owner)
		return
	}
	c.homes[s.Host] = claim{site: s.Name, line: s.Line}
}
