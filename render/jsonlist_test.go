package render

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/crawlsignals/crawlsignals/signals"
)

// TestJSONListsAreTheWholeValue: agents.json and sites.json, written one
// element at a time, are byte for byte what encoding the whole value
// writes, for no sites, one, and many with the verdicts and histories
// varied from site to site.
func TestJSONListsAreTheWholeValue(t *testing.T) {
	for _, n := range []int{0, 1, 40} {
		all := manySites(n)
		for i, s := range all {
			if i%4 == 1 { // another batch before the newest, for the trend
				h := s.History[len(s.History)-1]
				h.Batch = "20261101T060000Z"
				h.Disallowed = []string{"GPTBot"}
				s.History = append([]signals.BatchVerdicts{h}, s.History...)
			}
			if i%5 == 2 {
				s.Name = all[0].Name // equal names keep their order
			}
		}
		w := writer{dir: t.TempDir()}
		table := signals.NewAgentsTable(all, signals.Generated(all))
		head := signals.AgentsIndex{Generated: table.Generated, Agents: []signals.AgentIndex{}}
		idx, sorted := signals.IndexHead(all)
		if err := w.compactJSONList("agents.json", head, table.Len(), func(k int) any { return table.Agent(k) }); err != nil {
			t.Fatal(err)
		}
		if err := w.compactJSONList("sites.json", idx, len(sorted), func(i int) any { return signals.EntryOf(sorted[i]) }); err != nil {
			t.Fatal(err)
		}
		if err := w.compactJSON("agents-whole.json", signals.NewAgentsIndex(all, signals.Generated(all))); err != nil {
			t.Fatal(err)
		}
		if err := w.compactJSON("sites-whole.json", signals.NewIndex(all)); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"agents", "sites"} {
			list, _ := os.ReadFile(filepath.Join(w.dir, name+".json"))
			whole, _ := os.ReadFile(filepath.Join(w.dir, name+"-whole.json"))
			if len(whole) < 20 || !bytes.Equal(list, whole) {
				t.Errorf("%d sites: %s.json written by element differs from the whole value (%d against %d bytes)", n, name, len(list), len(whole))
			}
		}
	}
}

// TestJSONListNeedsAnEmptyLastList: a head whose last field is not an empty
// list is refused with its type named, not written as broken JSON.
func TestJSONListNeedsAnEmptyLastList(t *testing.T) {
	w := writer{dir: t.TempDir()}
	full := signals.AgentsIndex{Agents: []signals.AgentIndex{{Agent: "GPTBot"}}}
	if err := w.compactJSONList("agents.json", full, 1, func(int) any { return signals.AgentIndex{} }); err == nil {
		t.Fatal("a head with a filled list was taken")
	}
	type listFirst struct {
		Items []int  `json:"items"`
		Name  string `json:"name"`
	}
	if err := w.compactJSONList("x.json", listFirst{Items: []int{}}, 1, func(int) any { return 1 }); err == nil {
		t.Fatal("a head whose list is not its last field was taken")
	}
}
