package sites

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard is one part of a list split across machines. Sites that share a
// host are one group (List.Groups), and a whole group goes to the shard its
// key (the group's smallest key host) hashes to: FNV-1a, modulo Count. The
// split depends on sites.toml alone, so every machine agrees, and every
// host, shared or not, is crawled by exactly one shard: per-host politeness
// (one clock, one robots.txt, each address once) holds across machines
// without any coordination. A site sharing no host is its own group, keyed
// by its own host.
type Shard struct{ Index, Count int }

// ParseShard reads "i/n" (0 <= i < n).
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	idx, err1 := strconv.Atoi(i)
	cnt, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || cnt < 1 || idx < 0 || idx >= cnt {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 0 <= i < n, e.g. 0/4", s)
	}
	return Shard{Index: idx, Count: cnt}, nil
}

// holdsKey reports whether a group with this key belongs to the shard.
func (sh Shard) holdsKey(key string) bool {
	if sh.Count <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32()%uint32(sh.Count)) == sh.Index
}

// Hosts lists the key hosts of the list's sites in this shard, in list order.
func (sh Shard) Hosts(l *List) []string {
	groups := l.Groups()
	var out []string
	for i := range l.Sites {
		if sh.holdsKey(groups[l.Sites[i].Host]) {
			out = append(out, l.Sites[i].Host)
		}
	}
	return out
}
