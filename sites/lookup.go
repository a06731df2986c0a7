package sites

import "strings"

// Lookup finds the site that host belongs to: the site whose key host it is,
// else the first site that reviews it (a host shared by several sites, see
// Sharing, has no one owner; a caller that must name one site asks for its
// key host). Case and a trailing dot are ignored. The result points into
// l.Sites.
func (l *List) Lookup(host string) (*Site, bool) {
	h := normalHost(host)
	for i := range l.Sites {
		if l.Sites[i].Host == h {
			return &l.Sites[i], true
		}
	}
	for i := range l.Sites {
		if l.Sites[i].Reviewed(h) {
			return &l.Sites[i], true
		}
	}
	return nil, false
}

// Sharing lists, in list order, every site that reviews host. More than one
// means the host is shared (design §2): one clock and one robots.txt for all
// of them, and each of its addresses requested once.
func (l *List) Sharing(host string) []*Site {
	h := normalHost(host)
	var out []*Site
	for i := range l.Sites {
		if l.Sites[i].Reviewed(h) {
			out = append(out, &l.Sites[i])
		}
	}
	return out
}

func normalHost(host string) string {
	return strings.TrimSuffix(strings.ToLower(host), ".")
}
