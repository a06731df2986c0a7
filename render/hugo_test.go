package render

import (
	"os"
	"os/exec"
	"path/filepath"
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
}
