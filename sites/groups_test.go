package sites

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// A publisher group's legal host may be reviewed for each of its titles
// (design §2); a site's home host may be another's extra host too. Only a
// home host is unique.
func TestSharedHostsLoad(t *testing.T) {
	l, err := Parse("sites.toml", []byte(`[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no", "b.no", "legal.group.no"]

[[site]]
name = "B"
url = "https://b.no/"
hosts = ["b.no", "legal.group.no"]

[[site]]
name = "C"
url = "https://c.no/"
hosts = ["c.no", "legal.group.no"]

[[site]]
name = "D"
url = "https://d.no/"
hosts = ["d.no"]
`))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range l.Sharing("LEGAL.group.no.") {
		names = append(names, s.Name)
	}
	if want := []string{"A", "B", "C"}; !slices.Equal(names, want) {
		t.Errorf("Sharing(legal.group.no) = %v, want %v", names, want)
	}
	// A host's own site comes first, whoever else reviews it.
	if s, ok := l.Lookup("b.no"); !ok || s.Name != "B" {
		t.Errorf("Lookup(b.no) = %v, want B (its home host)", s)
	}
	if s, ok := l.Lookup("legal.group.no"); !ok || s.Name != "A" {
		t.Errorf("Lookup(legal.group.no) = %v, want A (the first to review it)", s)
	}
	want := map[string]string{"a.no": "a.no", "b.no": "a.no", "c.no": "a.no", "d.no": "d.no"}
	if got := l.Groups(); !maps.Equal(got, want) {
		t.Errorf("Groups() = %v, want %v", got, want)
	}
	all := []*Site{&l.Sites[0], &l.Sites[1], &l.Sites[2], &l.Sites[3]}
	if got := SharedHosts(all); !slices.Equal(got, []string{"b.no", "legal.group.no"}) {
		t.Errorf("SharedHosts = %v", got)
	}
	l.Sites[0].Blocked = true // a blocked site sends nothing, so shares nothing
	if got := SharedHosts(all); !slices.Equal(got, []string{"legal.group.no"}) {
		t.Errorf("SharedHosts with A blocked = %v", got)
	}
}

// Two sites with the same home host are one site listed twice, shared
// hosts or not.
func TestDuplicateHomeStillRefused(t *testing.T) {
	_, err := Parse("sites.toml", []byte(`[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]

[[site]]
name = "B"
url = "https://a.no/om"
hosts = ["a.no"]
`))
	if err == nil || !strings.Contains(err.Error(), `sites.toml:8: duplicate site: "a.no" is already the home host of "A" (line 1)`) {
		t.Errorf("err = %v", err)
	}
}

// Groups join through chains of shared hosts, whatever the order of the
// list, and are keyed by their smallest home host.
func TestGroupsFollowChains(t *testing.T) {
	// e shares with d, d with b, b with a: one group, though e and a share
	// nothing directly; c is alone.
	toml := `[[site]]
name = "E"
url = "https://e.no/"
hosts = ["e.no", "x.d.no"]

[[site]]
name = "C"
url = "https://c.no/"
hosts = ["c.no"]

[[site]]
name = "D"
url = "https://d.no/"
hosts = ["d.no", "x.d.no", "y.b.no"]

[[site]]
name = "B"
url = "https://b.no/"
hosts = ["b.no", "y.b.no", "z.a.no"]

[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no", "z.a.no"]
`
	l, err := Parse("sites.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.no": "a.no", "b.no": "a.no", "d.no": "a.no", "e.no": "a.no", "c.no": "c.no"}
	if got := l.Groups(); !maps.Equal(got, want) {
		t.Errorf("Groups() = %v, want %v", got, want)
	}
	var names []string
	for _, s := range l.GroupOf("d.no") {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"E", "D", "B", "A"}) {
		t.Errorf("GroupOf(d.no) = %v", names)
	}
}

// -shard never splits sites that share a host: for every count, each group
// lies in one shard, and every site is in exactly one.
func TestShardsKeepSharedHostsTogether(t *testing.T) {
	var b strings.Builder
	// 40 sites in 8 publisher groups of 5 titles sharing a legal host,
	// and 20 sites on their own.
	for g := range 8 {
		for i := range 5 {
			fmt.Fprintf(&b, "[[site]]\nname = \"T%d-%d\"\nurl = \"https://t%d-%d.no/\"\nhosts = [\"t%d-%d.no\", \"legal.g%d.no\"]\n\n", g, i, g, i, g, i, g)
		}
	}
	for i := range 20 {
		fmt.Fprintf(&b, "[[site]]\nname = \"S%d\"\nurl = \"https://s%d.no/\"\nhosts = [\"s%d.no\"]\n\n", i, i, i)
	}
	l, err := Parse("sites.toml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 3, 4, 7, 16} {
		shardOf := map[string]int{}
		for i := range n {
			for _, h := range (Shard{i, n}).Hosts(l) {
				if j, dup := shardOf[h]; dup {
					t.Errorf("n=%d: %s in shards %d and %d", n, h, j, i)
				}
				shardOf[h] = i
			}
		}
		if len(shardOf) != len(l.Sites) {
			t.Errorf("n=%d: %d sites covered of %d", n, len(shardOf), len(l.Sites))
		}
		for g := range 8 {
			for i := 1; i < 5; i++ {
				a, o := fmt.Sprintf("t%d-0.no", g), fmt.Sprintf("t%d-%d.no", g, i)
				if shardOf[a] != shardOf[o] {
					t.Errorf("n=%d: %s (shard %d) and %s (shard %d) share legal.g%d.no but were split", n, a, shardOf[a], o, shardOf[o], g)
				}
			}
		}
	}
	// The hash of a group is its key's: a group of one is where its host
	// hashes, as before groups existed, so existing shards do not move.
	if got := slices.Contains((Shard{0, 4}).Hosts(l), "s3.no"); got != (fnv32("s3.no")%4 == 0) {
		t.Error("a site sharing nothing is not in the shard its host hashes to")
	}
	key := l.Groups()["t5-3.no"]
	if key != "t5-0.no" {
		t.Fatalf("group key of t5-3.no = %s, want t5-0.no (the smallest)", key)
	}
	if got := slices.Contains((Shard{int(fnv32(key) % 4), 4}).Hosts(l), "t5-3.no"); !got {
		t.Error("a group is not in the shard its key hashes to")
	}
}
