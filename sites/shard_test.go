package sites

import (
	"slices"
	"testing"
)

// Every site of the real list lands in exactly one shard, for any count.
func TestShardsPartitionTheList(t *testing.T) {
	l, err := Load("../sites.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 3, 4, 7, 16} {
		seen := map[string]int{}
		for i := range n {
			for _, h := range (Shard{i, n}).Hosts(l) {
				seen[h]++
			}
		}
		if len(seen) != len(l.Sites) {
			t.Errorf("n=%d: %d sites covered of %d", n, len(seen), len(l.Sites))
		}
		for h, c := range seen {
			if c != 1 {
				t.Errorf("n=%d: %s is in %d shards", n, h, c)
			}
		}
		// Every reviewed host, shared ones too, is crawled by one shard.
		shardOf := map[string]int{}
		for i := range n {
			for _, home := range (Shard{i, n}).Hosts(l) {
				s, _ := l.Lookup(home)
				for _, h := range s.Hosts {
					if j, ok := shardOf[h]; ok && j != i {
						t.Errorf("n=%d: %s is reviewed in shards %d and %d", n, h, j, i)
					}
					shardOf[h] = i
				}
			}
		}
	}
	if len(l.Sharing("info.privacy.schibsted.com")) < 2 {
		t.Error("the real list no longer shares a host; this test would prove nothing about shared hosts")
	}
	// Stable: the same host always goes to the same shard (a fixed value,
	// so a change of hash function shows up here rather than in production).
	if key := l.Groups()["www.ssb.no"]; key != "www.ssb.no" {
		t.Errorf("www.ssb.no is in group %s; it shares no host", key)
	} else if got := slices.Contains((Shard{0, 4}).Hosts(l), "www.ssb.no"); got != (fnv32("www.ssb.no")%4 == 0) {
		t.Error("shard of www.ssb.no is not its FNV-1a hash mod 4")
	}
}

func fnv32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

func TestParseShard(t *testing.T) {
	for in, ok := range map[string]bool{"0/1": true, "3/4": true, "4/4": false, "-1/4": false, "1": false, "a/b": false, "0/0": false} {
		if _, err := ParseShard(in); (err == nil) != ok {
			t.Errorf("ParseShard(%q): err %v", in, err)
		}
	}
}
