package sites

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard is one part of a list split across machines: sites whose home
// host hashes to Index of Count. The hash (FNV-1a of the host) depends on
// nothing but the host, so every run on every machine agrees, and a site
// and all its hosts live in exactly one shard: per-host politeness holds
// across shards without any coordination.
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

// Holds reports whether the site belongs to this shard.
func (sh Shard) Holds(s *Site) bool {
	if sh.Count <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(s.Host))
	return int(h.Sum32()%uint32(sh.Count)) == sh.Index
}

// Hosts lists the home hosts of the list's sites in this shard.
func (sh Shard) Hosts(l *List) []string {
	var out []string
	for i := range l.Sites {
		if sh.Holds(&l.Sites[i]) {
			out = append(out, l.Sites[i].Host)
		}
	}
	return out
}
