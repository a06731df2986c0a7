package sites

import "slices"

// Groups splits the list into the sets of sites joined by shared hosts: two
// sites that review one host are in one group, and so is every site joined
// to them through another shared host (the connected components of the
// sites-and-hosts graph). Each group is keyed by its smallest key host, so
// the grouping depends on sites.toml alone: every machine that loads the
// same list agrees. The result maps each site's key host to its group's key.
func (l *List) Groups() map[string]string {
	parent := map[string]string{} // union-find over key hosts
	var find func(string) string
	find = func(h string) string {
		for parent[h] != h {
			parent[h] = parent[parent[h]]
			h = parent[h]
		}
		return h
	}
	union := func(a, b string) {
		ra, rb := find(a), find(b)
		if ra == rb {
			return
		}
		// The smaller name is the root, so the key is the group's smallest host.
		if rb < ra {
			ra, rb = rb, ra
		}
		parent[rb] = ra
	}
	first := map[string]string{} // reviewed host → key host of the first site reviewing it
	for i := range l.Sites {
		parent[l.Sites[i].Host] = l.Sites[i].Host
	}
	for i := range l.Sites {
		s := &l.Sites[i]
		for _, h := range s.Hosts {
			if other, ok := first[h]; ok {
				union(other, s.Host)
			} else {
				first[h] = s.Host
			}
		}
	}
	out := make(map[string]string, len(l.Sites))
	for i := range l.Sites {
		out[l.Sites[i].Host] = find(l.Sites[i].Host)
	}
	return out
}

// GroupOf lists, in list order, the sites in the group of the site whose
// key host is host (itself included).
func (l *List) GroupOf(host string) []*Site {
	g := l.Groups()
	key, ok := g[host]
	if !ok {
		return nil
	}
	var out []*Site
	for i := range l.Sites {
		if g[l.Sites[i].Host] == key {
			out = append(out, &l.Sites[i])
		}
	}
	return out
}

// SharedHosts lists the hosts reviewed for more than one of the given sites
// (blocked sites aside: they send no request, so they share nothing).
func SharedHosts(ss []*Site) []string {
	count := map[string]int{}
	for _, s := range ss {
		if s.Blocked {
			continue
		}
		for _, h := range s.Hosts {
			count[h]++
		}
	}
	var out []string
	for h, n := range count {
		if n > 1 {
			out = append(out, h)
		}
	}
	slices.Sort(out)
	return out
}
