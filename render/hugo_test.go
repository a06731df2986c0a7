package render

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHugoProjectBuilds: the comparison project for the benchmarks builds
// with Hugo and holds the same kinds of page as ours (a page per crawler, the
// comparison, the views, agents.json), so the benchmark compares like with
// like. It skips where Hugo is not installed (apt-get install hugo).
func TestHugoProjectBuilds(t *testing.T) {
	hugo, err := exec.LookPath("hugo")
	if err != nil {
		t.Skip("hugo is not installed (apt-get install hugo); the benchmark's comparison project is not built")
	}
	dir := t.TempDir()
	if err := WriteHugoProject(dir, directorySites()); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(hugo, "--source", dir, "--destination", filepath.Join(dir, "public"), "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, out)
	}
	for f, want := range map[string]string{
		"crawlers/gptbot/index.html":    `href="/sites/kommune.test/"`,
		"compare/index.html":            "<code>ClaudeBot</code>",
		"views/ai-refused/index.html":   "kommune.test",
		"agents.json":                   `"agent":"GPTBot"`,
		"sites/kommune.test/index.html": "Eksempel kommune",
	} {
		data, err := os.ReadFile(filepath.Join(dir, "public", filepath.FromSlash(f)))
		if err != nil {
			t.Error(err)
			continue
		}
		if !strings.Contains(string(data), want) {
			t.Errorf("%s lacks %s", f, want)
		}
	}
	// The directory CSV: our columns, and for each site our row.
	ours, err := directoryCSV(hugoBase, directorySites())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "public", "sites.csv"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := csv.NewReader(bytes.NewReader(ours)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("Hugo's sites.csv: %v\n%s", err, data)
	}
	if len(got) == 0 || !slices.Equal(got[0], want[0]) {
		t.Fatalf("Hugo's CSV columns differ from ours:\n got %q\nwant %q", got[0], want[0])
	}
	rows := func(rs [][]string) []string {
		var out []string
		for _, r := range rs[1:] {
			out = append(out, strings.Join(r, "\x00"))
		}
		slices.Sort(out) // Hugo lists by title, we in the directory's order
		return out
	}
	if g, w := rows(got), rows(want); !slices.Equal(g, w) {
		t.Errorf("Hugo's CSV rows differ from ours:\n got %q\nwant %q", g, w)
	}
}
