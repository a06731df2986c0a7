package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/sites"
)

// A build never publishes from nothing (design §4): a -batches folder that
// is missing, or holds no evidence for any listed site, makes build and
// verify exit 1 with one message naming the folder, and leaves -out as it
// was (a missing one is not created). These run the real binary.

// runSplit runs the binary to its end: its exit status, stdout and stderr.
func runSplit(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// tree is every entry under dir: its kind, mode and bytes (a link's
// target), by path relative to dir; nil when dir does not exist.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		return nil
	}
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		entry := info.Mode().String()
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			entry += " -> " + target
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			entry += " " + string(data)
		}
		out[rel] = entry
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// treeDiff names what differs between two trees, briefly; "" when they
// are the same.
func treeDiff(before, after map[string]string) string {
	if (before == nil) != (after == nil) {
		return fmt.Sprintf("it existed before: %v, after: %v", before != nil, after != nil)
	}
	var d []string
	for p, b := range before {
		if a, ok := after[p]; !ok {
			d = append(d, p+" removed")
		} else if a != b {
			d = append(d, p+" changed")
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			d = append(d, p+" added")
		}
	}
	slices.Sort(d)
	if len(d) > 5 {
		d = append(d[:5], fmt.Sprintf("and %d more", len(d)-5))
	}
	return strings.Join(d, ", ")
}

// siblings are the names in dir's parent that start with dir's name: the
// folder itself and any .new or .old a build left beside it.
func siblings(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(dir + "*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// writeDemoList writes the demo's reviewed list to dir/sites.toml.
func writeDemoList(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "sites.toml")
	if err := os.WriteFile(p, crawlsignals.DemoSites(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// crawlSiteInto crawls one site of the demo list from the fixture web into
// batches/batch, in process.
func crawlSiteInto(t *testing.T, list *sites.List, batches, batch, site string) {
	t.Helper()
	ls, ok := list.Lookup(site)
	if !ok {
		t.Fatalf("%s is not in the list", site)
	}
	srv, err := fixture.New(crawlsignals.FixtureWeb())
	if err != nil {
		t.Fatal(err)
	}
	addr, roots, err := srv.StartTLS()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	resolve := map[string]string{}
	for _, h := range ls.Hosts {
		resolve[h] = addr
	}
	c, err := crawl.New(crawl.Config{Batches: batches, Batch: batch, MinDelay: testDelay, Resolve: resolve,
		Client: guard.NewClient(guard.Options{Resolve: resolve, RootCAs: roots})}, list, []string{site})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background(), []string{site}); err != nil {
		t.Fatal(err)
	}
}

func TestBuildAndVerifyRefuseNoEvidence(t *testing.T) {
	binary(t)
	root := t.TempDir()
	list := writeDemoList(t, root)
	demoList, err := sites.Load(list)
	if err != nil {
		t.Fatal(err)
	}
	// Evidence for a site that is not on the list built from.
	other := filepath.Join(root, "other")
	crawlSiteInto(t, demoList, other, "20261201T060000Z", "stengt.test")
	otherList := filepath.Join(root, "other.toml")
	if err := os.WriteFile(otherList, []byte("[[site]]\nname = \"Avis\"\nurl = \"https://avis.test/\"\nhosts = [\"avis.test\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		setup func(dir string) string // the -batches folder
		list  string
		want  string // in stderr, after the folder's name; {batches} is the folder
	}{
		{"missing folder", func(dir string) string { return filepath.Join(dir, "batches") }, list, "does not exist"},
		{"empty folder", func(dir string) string {
			b := filepath.Join(dir, "batches")
			os.MkdirAll(b, 0o755)
			return b
		}, list, "holds no batch"},
		{"empty batch", func(dir string) string {
			b := filepath.Join(dir, "batches")
			os.MkdirAll(filepath.Join(b, "20261201T060000Z"), 0o755)
			return b
		}, list, "holds no evidence"},
		// make demo, then make build: batches/ holds the demo's folder of batches, not a batch.
		{"a folder of batches inside", func(dir string) string {
			b := filepath.Join(dir, "batches")
			os.MkdirAll(filepath.Join(b, "demo", "20261201T060000Z"), 0o755)
			return b
		}, list, "holds no batch, but {batches}" + string(filepath.Separator) + "demo does"},
		{"evidence for no listed site", func(string) string { return other }, otherList, "holds no evidence for the one site of the list (only for stengt.test, not listed"},
		// A store opened with its listing only: the evidence it names is not here.
		{"a listing without its evidence", func(dir string) string {
			b := filepath.Join(dir, "batches")
			os.MkdirAll(b, 0o755)
			os.WriteFile(filepath.Join(b, ".listing"), []byte("batches/20261201T060000Z/batch.json\nbatches/20261201T060000Z/kommune.test.json\nbatches/20261201T060000Z/kommune.test.warc.gz\n"), 0o644)
			return b
		}, list, "holds no evidence for any of the"},
	}
	for _, c := range cases {
		for _, present := range []bool{true, false} {
			name := c.name + ", -out absent"
			if present {
				name = c.name + ", -out present"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				batches := c.setup(dir)
				want := batches + " " + strings.ReplaceAll(c.want, "{batches}", batches)
				out := filepath.Join(dir, "public")
				if present {
					os.MkdirAll(filepath.Join(out, "sites"), 0o755)
					os.WriteFile(filepath.Join(out, "marker.txt"), []byte("the site published before\n"), 0o644)
					os.WriteFile(filepath.Join(out, "sites", "index.html"), []byte("<p>kept</p>"), 0o600)
				}
				before, beside := tree(t, out), siblings(t, out)
				batchesBefore := tree(t, batches)
				code, stdout, stderr := runSplit(t, "build", "-sites", c.list, "-batches", batches, "-content", filepath.Join(dir, "none"), "-out", out)
				if code != 1 {
					t.Errorf("build: exit %d, want 1\nstdout: %s\nstderr: %s", code, stdout, stderr)
				}
				if !strings.Contains(stderr, want) || !strings.Contains(stderr, "nothing to publish") {
					t.Errorf("build: stderr does not say %q and nothing to publish:\n%s", want, stderr)
				}
				if n := strings.Count(strings.TrimSpace(stderr), "\n"); n != 0 {
					t.Errorf("build: stderr is %d lines, want one:\n%s", n+1, stderr)
				}
				if d := treeDiff(before, tree(t, out)); d != "" {
					t.Errorf("build changed %s: %s", out, d)
				}
				if got := siblings(t, out); !reflect.DeepEqual(got, beside) {
					t.Errorf("build left beside %s: %v, was %v", out, got, beside)
				}
				if d := treeDiff(batchesBefore, tree(t, batches)); d != "" {
					t.Errorf("build changed %s: %s", batches, d)
				}

				code, stdout, stderr = runSplit(t, "verify", "-sites", c.list, "-batches", batches, "-content", filepath.Join(dir, "none"))
				if code != 1 {
					t.Errorf("verify: exit %d, want 1\nstdout: %s\nstderr: %s", code, stdout, stderr)
				}
				if !strings.Contains(stderr, want) || !strings.Contains(stderr, "nothing to verify") {
					t.Errorf("verify: stderr does not say %q and nothing to verify:\n%s", want, stderr)
				}
				if strings.Contains(stdout, "0 quotes checked") {
					t.Errorf("verify with no evidence counts quotes: %s", stdout)
				}
			})
		}
	}
	// An empty -batches names no folder: bad usage.
	for _, args := range [][]string{
		{"build", "-sites", list, "-batches", "", "-out", filepath.Join(root, "public")},
		{"verify", "-sites", list, "-batches", ""},
	} {
		code, _, stderr := runSplit(t, args...)
		if code != 2 || !strings.Contains(stderr, "-batches") {
			t.Errorf("crawlsignals %q: exit %d, want 2 naming -batches\n%s", args, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "public")); !os.IsNotExist(err) {
		t.Errorf("a build with an empty -batches wrote %s", filepath.Join(root, "public"))
	}
}

// Evidence for some sites of the list is not nothing: the build publishes
// it (the others say "Not read yet") and verify checks its quotes. Evidence
// that gives no quote is verified with a line that says so.
func TestBuildAndVerifyOnSomeEvidence(t *testing.T) {
	binary(t)
	root := t.TempDir()
	list := writeDemoList(t, root)
	demoList, err := sites.Load(list)
	if err != nil {
		t.Fatal(err)
	}
	batches := filepath.Join(root, "batches")
	crawlSiteInto(t, demoList, batches, "20261201T060000Z", "kommune.test")
	out := filepath.Join(root, "public")
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "marker.txt"), []byte("old"), 0o644)
	code, stdout, stderr := runSplit(t, "build", "-sites", list, "-batches", batches, "-content", filepath.Join(root, "none"), "-out", out)
	if code != 0 || !strings.Contains(stdout, fmt.Sprintf("built %s: %d sites, ", out, len(demoList.Sites))) {
		t.Fatalf("build on one site's evidence: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "sites", "kommune.test", "index.html")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(out, "marker.txt")); !os.IsNotExist(err) {
		t.Errorf("the old site is still in %s", out)
	}
	code, stdout, stderr = runSplit(t, "verify", "-sites", list, "-batches", batches, "-content", filepath.Join(root, "none"))
	if code != 0 || !strings.Contains(stdout, " quotes checked, 0 not verified") || strings.Contains(stdout, "0 quotes checked") || strings.Contains(stdout, "nothing to verify") {
		t.Errorf("verify on one site's evidence: exit %d\n%s%s", code, stdout, stderr)
	}

	// stengt.test's robots.txt answers 403: its evidence gives no quote.
	quiet := filepath.Join(root, "quiet")
	crawlSiteInto(t, demoList, quiet, "20261201T060000Z", "stengt.test")
	code, stdout, stderr = runSplit(t, "verify", "-sites", list, "-batches", quiet, "-content", filepath.Join(root, "none"))
	if code != 0 || !strings.Contains(stdout, "0 quotes checked, 0 not verified\n") || !strings.Contains(stdout, "nothing to verify: the evidence in "+quiet+" gives no quotes") {
		t.Errorf("verify on evidence with no quotes: exit %d\n%s%s", code, stdout, stderr)
	}
}
