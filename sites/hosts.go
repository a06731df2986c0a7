package sites

import (
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// hosts reads a site's hosts into s.Hosts, after its home host (already
// there when its url is good), recording the line of each in lines.
//
// hosts is the reviewed list itself: every host it names is one a person
// looked at, and only those are contacted. So it must be written, and must
// name the url's host too. The home host is not added on the list's behalf:
// a url edited to another host (a typo, a move to a new domain) would
// otherwise be crawled without anyone having reviewed it.
func (p *parser) hosts(s *Site, raw map[string]toml.Primitive, base string, lines map[string]int) {
	v, ok := raw["hosts"]
	if !ok {
		p.errorf(s.Line, "site%s has no hosts: list the hostnames a person reviewed for it, its url's host among them%s", p.named(s.Name), suggestHosts(s.Host))
		return
	}
	path := base + ".hosts"
	items := p.strs(v, "hosts", path)
	listed := false
	for _, it := range items {
		h := strings.ToLower(it.s)
		switch problem := hostProblem(h); {
		case problem != "":
			p.errorf(it.line, "hosts: %q %s", it.s, problem)
		case h == s.Host:
			if listed {
				p.errorf(it.line, "hosts: %q is listed twice", h)
			}
			listed = true
		case slices.Contains(s.Hosts, h):
			p.errorf(it.line, "hosts: %q is listed twice", h)
		default:
			s.Hosts = append(s.Hosts, h)
			lines[h] = it.line
		}
	}
	if s.Host == "" {
		return // the url is missing or bad, and said so
	}
	switch {
	case len(items) == 0 && p.kind(v) == "an array":
		p.errorf(p.line(path), "site%s has no hosts (the list is empty): list the hostnames a person reviewed for it, its url's host among them%s", p.named(s.Name), suggestHosts(s.Host))
	case !listed && p.kind(v) == "an array":
		p.errorf(p.line(path), "site%s: hosts does not list %q, the host of its url (line %d); add it there, or correct the url: only listed hosts are reviewed", p.named(s.Name), s.Host, p.line(base+".url"))
	}
}

// suggestHosts is the hosts line to write for a home host, for a message.
func suggestHosts(home string) string {
	if home == "" {
		return ""
	}
	return " (hosts = [" + strconv.Quote(home) + "])"
}
