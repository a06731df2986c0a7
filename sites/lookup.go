package sites

import "strings"

// Lookup finds the site that host belongs to: its key host or any of its
// reviewed hosts. Case and a trailing dot are ignored. The result points into
// l.Sites.
func (l *List) Lookup(host string) (*Site, bool) {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	for i := range l.Sites {
		s := &l.Sites[i]
		if s.Host == h || s.Reviewed(h) {
			return s, true
		}
	}
	return nil, false
}
