package e2e_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// These tests run the scheduled job (.ci/weekly.sh, the workflow's steps
// as GitHub runs them) on the fixture web: the shards as processes of
// their own against a fixture server in another process, the evidence
// store a bare git repository. The list is five sites (testdata/weekly), so
// a week takes a second or two.

const weeklyList = "testdata/weekly/sites.toml"

// weekly runs .ci/weekly.sh DIR ARGS... and returns its exit status and
// output.
func weekly(t *testing.T, env []string, dir string, args ...string) (int, string) {
	t.Helper()
	for _, tool := range []string{"bash", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the weekly job needs %s", tool)
		}
	}
	cmd := exec.Command("bash", append([]string{".ci/weekly.sh", dir}, args...)...)
	cmd.Env = append(os.Environ(), "BIN="+binary(t), "SITES="+weeklyList, "SHARDS=2",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	cmd.Env = append(cmd.Env, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String()
}

func mustWeekly(t *testing.T, dir string, args ...string) string {
	t.Helper()
	code, out := weekly(t, nil, dir, args...)
	if code != 0 {
		t.Fatalf("weekly.sh %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// git runs git on the store and returns its output.
func storeGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"--git-dir", filepath.Join(dir, "store")}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// storeTree is every file of the store's main branch and its blob.
func storeTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(storeGit(t, dir, "ls-tree", "-r", "main")))
	for sc.Scan() {
		meta, path, _ := strings.Cut(sc.Text(), "\t")
		f := strings.Fields(meta)
		out[path] = f[2]
	}
	return out
}

// storeBatches are the batch folders of the store's main branch.
func storeBatches(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for p := range storeTree(t, dir) {
		b := strings.Split(p, "/")[1]
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	slices.Sort(out)
	return out
}

// onlyAdded fails unless every commit of the store only added files.
func onlyAdded(t *testing.T, dir string) {
	t.Helper()
	if changed := storeGit(t, dir, "log", "--format=", "--name-status", "--diff-filter=MDRT"); strings.TrimSpace(changed) != "" {
		t.Fatalf("a commit of the store changed or removed evidence:\n%s", changed)
	}
}

// publishedBatch is the batch a site's published page rests on.
func publishedBatch(t *testing.T, dir, host string) string {
	t.Helper()
	var s struct{ Batch string }
	readJSONFile(t, filepath.Join(dir, "public", "sites", host, "signals.json"), &s)
	return s.Batch
}

var batchLine = regexp.MustCompile(`batch (\d{8}T\d{6}Z), shards`)

func weekBatch(t *testing.T, out string) string {
	t.Helper()
	m := batchLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no batch named in the output:\n%s", out)
	}
	return m[1]
}

// Two weeks and a re-check, as the "done when" asks: two batches
// committed (and the re-check's), no derived file among them, no earlier
// file changed, and a site whose changes/ page shows the fixture's change.
func TestWeeklyTwoWeeksAndARecheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustWeekly(t, dir, "week")
	first := storeTree(t, dir)
	mustWeekly(t, dir, "week")
	if b := storeBatches(t, dir); len(b) != 2 {
		t.Fatalf("store batches after two weeks = %q", b)
	}
	for p, blob := range first {
		if storeTree(t, dir)[p] != blob {
			t.Errorf("week 2 changed %s", p)
		}
	}
	for p := range storeTree(t, dir) {
		if strings.Contains(p, "/.derived/") {
			t.Errorf("a derived file was kept as evidence: %s", p)
		}
	}
	// Issue 26, item 4: the publish job of week 2 built from week 2's
	// evidence, week 1's manifests and the history records, and fetched no
	// WARC of week 1.
	week1 := filepath.Join(dir, "run", "publish", "evidence-store", "batches", storeBatches(t, dir)[0])
	if warcs, _ := filepath.Glob(filepath.Join(week1, "*.warc.gz")); len(warcs) != 0 {
		t.Errorf("the publish job of week 2 fetched week 1's WARCs: %q", warcs)
	}
	if _, err := os.Stat(filepath.Join(week1, "avis.test.json")); err != nil {
		t.Errorf("the publish job of week 2 has no manifest of week 1: %v", err)
	}
	changes, err := os.ReadFile(filepath.Join(dir, "public", "changes", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(changes), "CCBot") || !strings.Contains(string(changes), "kommune.test") {
		t.Errorf("changes/ does not show the fixture's change (CCBot refused on avis.test, kommune.test's terms):\n%.2000s", changes)
	}

	out := mustWeekly(t, dir, "recheck", "kommune.test")
	if !strings.Contains(out, `rechecked = [..., "`) {
		t.Errorf("the re-check does not say the line to add to sites.toml:\n%s", out)
	}
	batches := storeBatches(t, dir)
	if len(batches) != 3 {
		t.Fatalf("store batches after the re-check = %q", batches)
	}
	if got := publishedBatch(t, dir, "kommune.test"); got != batches[2] {
		t.Errorf("kommune.test is published from %s, want the re-check's batch %s", got, batches[2])
	}
	if got := publishedBatch(t, dir, "avis.test"); got != batches[1] {
		t.Errorf("avis.test is published from %s, want week 2's batch %s", got, batches[1])
	}
	onlyAdded(t, dir)
}

// A shard killed mid-crawl: the other shard publishes; what the killed one
// wrote is kept (its unfinished WARC too) and no site of it is published
// from a half; the run fails and names the resume; the resume completes it.
func TestWeeklyShardKilled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out := weekly(t, []string{"WEEKLY_KILL_SHARD=1"}, dir, "week")
	if code == 0 {
		t.Fatalf("a week with a killed shard exited 0:\n%s", out)
	}
	batch := weekBatch(t, out)
	if !strings.Contains(out, "resume "+batch+" 1/2") {
		t.Errorf("the run does not say how to continue the shard:\n%s", out)
	}
	tree := storeTree(t, dir)
	prefix := "batches/" + batch + "/"
	if _, ok := tree[prefix+"done.shard-1-of-2.json"]; ok {
		t.Fatal("shard 1 finished before it was killed; the test killed nothing")
	}
	open := ""
	for p := range tree {
		if strings.HasSuffix(p, ".warc.gz.open") {
			open = p
		}
	}
	if open == "" {
		t.Fatalf("the killed shard's unfinished WARC was not kept; store: %v", slices.Sorted(mapKeys(tree)))
	}
	// avis.test is in shard 0, kommune.test in shard 1 (the split hashes
	// the home host).
	if got := publishedBatch(t, dir, "avis.test"); got != batch {
		t.Errorf("shard 0's avis.test is published from %q, want %s", got, batch)
	}
	unfinished := strings.TrimSuffix(strings.TrimPrefix(open, prefix), ".warc.gz.open")
	if _, ok := tree[prefix+unfinished+".json"]; ok {
		t.Fatalf("%s has both an unfinished WARC and a manifest", unfinished)
	}
	if got := publishedBatch(t, dir, unfinished); got == batch {
		t.Errorf("%s is published from the batch in which it was cut short", unfinished)
	}

	mustWeekly(t, dir, "resume", batch, "1/2")
	tree = storeTree(t, dir)
	for _, want := range []string{unfinished + ".json", unfinished + ".warc.gz", "done.shard-1-of-2.json"} {
		if _, ok := tree[prefix+want]; !ok {
			t.Errorf("after the resume the store lacks %s", want)
		}
	}
	if got := publishedBatch(t, dir, unfinished); got != batch {
		t.Errorf("after the resume %s is published from %q, want %s", unfinished, got, batch)
	}
	onlyAdded(t, dir)
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// A damaged artifact is never kept nor published, and the job names the
// file; the intact shard is kept and published.
func TestWeeklyDamagedArtifact(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := mustWeekly(t, dir, "crawl")
	batch := weekBatch(t, out)
	warc := filepath.Join(dir, "run", "artifacts", "evidence-1", batch, "kommune.test.warc.gz")
	data, err := os.ReadFile(warc)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x55
	if err := os.WriteFile(warc, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := weekly(t, nil, dir, "publish")
	if code == 0 {
		t.Fatalf("publishing with a damaged artifact exited 0:\n%s", out)
	}
	if !strings.Contains(out, filepath.Join("new-evidence", "evidence-1", batch, "kommune.test.warc.gz")) {
		t.Errorf("the job does not name the damaged file:\n%s", out)
	}
	for p := range storeTree(t, dir) {
		if strings.Contains(p, "kommune.test") {
			t.Errorf("the damaged artifact's %s was kept", p)
		}
	}
	if got := publishedBatch(t, dir, "avis.test"); got != batch {
		t.Errorf("the intact shard's avis.test is published from %q, want %s", got, batch)
	}
	if got := publishedBatch(t, dir, "kommune.test"); got == batch {
		t.Error("kommune.test is published from the damaged artifact")
	}
}

// An evidence store that already holds the batch: a re-run of the publish
// job changes nothing, and an artifact with other bytes under a kept name
// is refused, naming the file, with nothing overwritten.
func TestWeeklyStoreHoldsTheBatch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := mustWeekly(t, dir, "week")
	batch := weekBatch(t, out)
	commits := storeGit(t, dir, "rev-list", "main")
	tree := storeTree(t, dir)

	out = mustWeekly(t, dir, "publish")
	if !strings.Contains(out, "nothing new to keep") {
		t.Errorf("a re-run of the publish job kept something:\n%s", out)
	}
	if got := storeGit(t, dir, "rev-list", "main"); got != commits {
		t.Errorf("a re-run of the publish job made a commit")
	}

	record := filepath.Join(dir, "run", "artifacts", "evidence-0", batch, "batch.shard-0-of-2.json")
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	v["kind"] = "crawl-again"
	data, _ = json.Marshal(v)
	os.WriteFile(record, data, 0o644)
	code, out := weekly(t, nil, dir, "publish")
	if code == 0 {
		t.Fatalf("an artifact with other bytes than the store was merged:\n%s", out)
	}
	if !strings.Contains(out, filepath.Join("batches", batch, "batch.shard-0-of-2.json")) || !strings.Contains(out, "other bytes") {
		t.Errorf("the refusal does not name the file:\n%s", out)
	}
	if got := storeTree(t, dir); !equalTrees(got, tree) {
		t.Error("the store changed")
	}
	onlyAdded(t, dir)
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A push that fails: the site is not published with evidence that was not
// kept (the previous week's site stays, whole).
func TestWeeklyPushFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustWeekly(t, dir, "week")
	before, err := os.ReadFile(filepath.Join(dir, "public", "sites.json"))
	if err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(dir, "store", "hooks", "pre-receive")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho 'store: refusing the push' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out := weekly(t, nil, dir, "week")
	if code == 0 {
		t.Fatalf("a week whose push failed exited 0:\n%s", out)
	}
	if !strings.Contains(out, "refusing the push") {
		t.Errorf("the output does not show the failed push:\n%s", out)
	}
	after, err := os.ReadFile(filepath.Join(dir, "public", "sites.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the site was published although its evidence was not kept")
	}
	if b := storeBatches(t, dir); len(b) != 1 {
		t.Errorf("store batches = %q, want week 1's alone", b)
	}
}

// Every step of the workflow is one line, and the local run runs that very
// line: the logic GitHub runs is the logic these tests run.
func TestWorkflowStepsRunHere(t *testing.T) {
	wf, err := os.ReadFile(".github/workflows/rebuild.yml")
	if err != nil {
		t.Fatal(err)
	}
	local, err := os.ReadFile(".ci/weekly.sh")
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	for _, line := range strings.Split(string(wf), "\n") {
		cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "run: ")
		if !ok {
			continue
		}
		steps++
		switch {
		case strings.HasPrefix(cmd, "|") || strings.HasPrefix(cmd, ">"):
			t.Errorf("a workflow step runs inline shell no test runs: %q", line)
		case cmd == "go build -o crawlsignals ./cmd/crawlsignals":
			// make weekly builds the binary once, for every job.
		case strings.HasPrefix(cmd, `echo "::error::an artifact was refused`):
			// the merge's continue-on-error, reported at the end
			if !strings.Contains(string(local), `echo "::error::an artifact was refused`) {
				t.Error("the local run does not fail after a refused artifact")
			}
		case !strings.Contains(string(local), cmd):
			t.Errorf("the workflow runs %q, which .ci/weekly.sh does not", cmd)
		}
	}
	if steps < 10 {
		t.Fatalf("found only %d run: steps in the workflow", steps)
	}
}

// A week whose batch was kept but whose publish job then failed (so its
// history records were never saved to the cache) is folded into the next
// week's history: the store's listing names it, the record restored from
// the cache does not, so the next build fetches it and extends the record
// by both weeks; nothing is dropped. And the batch folded before is not
// fetched again, only its manifests (issue 26, item 4).
func TestWeeklyFailedPublishIsFoldedNext(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustWeekly(t, dir, "week")
	before, err := os.ReadFile(filepath.Join(dir, "public", "sites.json"))
	if err != nil {
		t.Fatal(err)
	}
	code, out := weekly(t, []string{"WEEKLY_FAIL_AFTER_KEEP=1"}, dir, "week")
	if code == 0 {
		t.Fatalf("a publish job that stopped after keep exited 0:\n%s", out)
	}
	week2 := weekBatch(t, out)
	if b := storeBatches(t, dir); len(b) != 2 || b[1] != week2 {
		t.Fatalf("store batches = %q, want week 2's kept", b)
	}
	after, err := os.ReadFile(filepath.Join(dir, "public", "sites.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("the failed week published a site")
	}
	var rec struct {
		Content struct {
			Key struct{ Count int }
		}
	}
	readJSONFile(t, filepath.Join(dir, "cache", ".derived", "avis.test.history.json"), &rec)
	if rec.Content.Key.Count != 1 {
		t.Fatalf("the cache after the failed week holds a record of %d batches, want week 1's", rec.Content.Key.Count)
	}

	out = mustWeekly(t, dir, "week")
	week3 := weekBatch(t, out)
	batches := storeBatches(t, dir)
	if len(batches) != 3 {
		t.Fatalf("store batches = %q", batches)
	}
	week1 := batches[0]
	if got := publishedBatch(t, dir, "avis.test"); got != week3 {
		t.Errorf("avis.test is published from %s, want week 3's %s", got, week3)
	}
	// Week 2 is where CCBot was refused (stage 2 of the fixture web): the
	// change is between weeks 1 and 2, so a history that skipped week 2
	// shows none.
	var s struct {
		Changes []struct{ Batch, Previous string }
	}
	readJSONFile(t, filepath.Join(dir, "public", "sites", "avis.test", "signals.json"), &s)
	if len(s.Changes) != 1 || s.Changes[0].Batch != week2 || s.Changes[0].Previous != week1 {
		t.Errorf("avis.test's changes after week 3 = %+v, want one, from %s to %s", s.Changes, week1, week2)
	}
	changes, err := os.ReadFile(filepath.Join(dir, "public", "changes", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(changes), "CCBot") {
		t.Errorf("changes/ does not show week 2's change:\n%.2000s", changes)
	}
	readJSONFile(t, filepath.Join(dir, "cache", ".derived", "avis.test.history.json"), &rec)
	if rec.Content.Key.Count != 3 {
		t.Errorf("the record after week 3 folded %d batches, want 3", rec.Content.Key.Count)
	}
	// What week 3's publish job fetched: weeks 2 and 3 whole, and of week
	// 1 (folded in the record) only the manifests whose key the build checks.
	needs, err := os.ReadFile(filepath.Join(dir, "run", "publish", "needs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Fields(string(needs)) {
		if line == week1 {
			t.Errorf("week 3's publish job fetched week 1 whole, which the record had folded:\n%s", needs)
		}
	}
	for _, want := range []string{week2, week3, week1 + "/avis.test.json"} {
		if !slices.Contains(strings.Fields(string(needs)), want) {
			t.Errorf("week 3's publish job did not fetch %s:\n%s", want, needs)
		}
	}
	store := filepath.Join(dir, "run", "publish", "evidence-store", "batches")
	if warcs, _ := filepath.Glob(filepath.Join(store, week1, "*.warc.gz")); len(warcs) != 0 {
		t.Errorf("week 3's publish job fetched week 1's WARCs: %q", warcs)
	}
	onlyAdded(t, dir)

	// The record extended by two weeks gives the site a cold build of the
	// whole store gives, file for file.
	whole := filepath.Join(dir, "whole")
	if out, err := exec.Command("git", "clone", "--quiet", filepath.Join(dir, "store"), whole).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	cold := filepath.Join(dir, "cold")
	build := exec.Command(binary(t), "build", "-sites", weeklyList, "-batches", filepath.Join(whole, "batches"),
		"-content", "content", "-out", cold, "-base-url", "http://127.0.0.1:8080/")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("cold build: %v\n%s", err, out)
	}
	sameTree(t, "week 3's site against a cold build of the store", cold, filepath.Join(dir, "public"))
}

var treesFetched = regexp.MustCompile(`(\d+) batches listed \((\d+) trees fetched`)

// The publish job's fetch stays flat (issue 26, item 4): each batch's tree
// is fetched from the store once and read from the tree cache after that;
// a cache entry that does not make the tree the store names is fetched
// again, and the site is the same.
func TestWeeklyTreeCache(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for range 3 {
		mustWeekly(t, dir, "week")
	}
	out := mustWeekly(t, dir, "week")
	m := treesFetched.FindStringSubmatch(out)
	if m == nil || m[1] != "3" || m[2] != "1" {
		t.Fatalf("week 4's publish job listed %v (want 3 batches, 1 tree fetched: week 3's):\n%s", m, out)
	}
	cost := readCost(t, dir)
	// Weeks 2–4 fetch the same things: one batch tree, the manifests the
	// records folded last, and the store's commit, root and batches/ trees
	// (one line more each week). Had every batch's tree been fetched, week
	// 4 would fetch two batch trees more than week 2 (about 400 bytes
	// each on five sites).
	// Packs differ by some tens of bytes from week to week (dates in
	// commits, the vouched records' list), so the bound is both ways.
	if grew := cost[3] - cost[1]; grew < -200 || grew > 200 {
		t.Errorf("fetched by the publish job in weeks 2–4: %v bytes; week 4 fetched %d more than week 2", cost[1:], grew)
	}

	// Damage each cached tree listing: the next open fetches them all
	// again (the cache holds the batches before week 4's, which the next
	// open lists for the first time).
	// Beside them, built-on: the store's commit the last job built on
	// (TestWeeklyStoreRewritten).
	all, err := os.ReadDir(filepath.Join(dir, "trees"))
	var entries []os.DirEntry
	for _, e := range all {
		if e.Name() != "built-on" {
			entries = append(entries, e)
		}
	}
	if err != nil || len(entries) != 3 || len(all) != 4 {
		t.Fatalf("the tree cache holds %d tree listings and %d entries in all (%v), want one per batch before the newest, and built-on", len(entries), len(all), err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, "trees", e.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, bytes.Replace(data, []byte("avis.test.json"), []byte("avis.tesu.json"), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before, err := os.ReadFile(filepath.Join(dir, "public", "sites", "avis.test", "signals.json"))
	if err != nil {
		t.Fatal(err)
	}
	out = mustWeekly(t, dir, "publish") // week 4 again: nothing new to keep
	if m := treesFetched.FindStringSubmatch(out); m == nil || m[2] != "4" {
		t.Fatalf("with every cached tree damaged the open fetched %v trees, want 4:\n%s", m, out)
	}
	after, err := os.ReadFile(filepath.Join(dir, "public", "sites", "avis.test", "signals.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("a damaged tree cache changed avis.test's page")
	}
	listing, err := os.ReadFile(filepath.Join(dir, "run", "publish", "evidence-store", "batches", ".listing"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(listing, []byte("avis.tesu")) {
		t.Error("the listing holds a name from the damaged cache")
	}
}

// readCost is the bytes the publish job fetched, per run (DIR/cost.tsv).
func readCost(t *testing.T, dir string) []int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "cost.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, "\t")
		n, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatalf("cost.tsv: %q: %v", line, err)
		}
		out = append(out, n)
	}
	return out
}

// keep refuses a file the store holds with other bytes, without the
// merge in front of it: the store's own guard, in a store opened in part.
func TestEvidenceStoreKeepRefusesAChange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := mustWeekly(t, dir, "week")
	batch := weekBatch(t, out)
	commits := storeGit(t, dir, "rev-list", "main")
	work := t.TempDir()
	store := func(args ...string) (string, error) {
		cmd := exec.Command("bash", append([]string{".github/evidence-store.sh"}, args...)...)
		cmd.Env = append(os.Environ(), "EVIDENCE_URL=file://"+filepath.Join(dir, "store"), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	es := filepath.Join(work, "es")
	if out, err := store("open", es, "manifests", filepath.Join(work, "trees")); err != nil {
		t.Fatalf("open: %v\n%s", err, out)
	}
	needs := filepath.Join(work, "needs.txt")
	os.WriteFile(needs, []byte(batch+"/avis.test.json\n"), 0o644)
	if out, err := store("fetch", es, needs); err != nil {
		t.Fatalf("fetch: %v\n%s", err, out)
	}
	manifest := filepath.Join(es, "batches", batch, "avis.test.json")
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(manifest, append(data, ' '), 0o644)
	os.WriteFile(filepath.Join(es, "batches", batch, "new.test.json"), []byte("{}"), 0o644)
	out, err = store("keep", es, batch)
	if err == nil || !strings.Contains(out, "batches/"+batch+"/avis.test.json") {
		t.Errorf("keep of a changed file: %v, want a refusal naming it:\n%s", err, out)
	}
	if got := storeGit(t, dir, "rev-list", "main"); got != commits {
		t.Error("keep made a commit although it refused a file")
	}
	// The same bytes again, and a file that is new: kept, nothing else.
	os.WriteFile(manifest, data, 0o644)
	if out, err := store("keep", es, batch); err != nil {
		t.Fatalf("keep of a new file: %v\n%s", err, out)
	}
	tree := storeTree(t, dir)
	if _, ok := tree["batches/"+batch+"/new.test.json"]; !ok {
		t.Error("keep did not add the new file")
	}
	onlyAdded(t, dir)
}
