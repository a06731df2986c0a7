package e2e_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/sites"
)

// These tests run the real binary as a child process against the fixture
// web served (over TLS) by the test process, and judge it from the fixture
// server's own request log.

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// binary builds cmd/crawlsignals once for the tests of this file.
func binary(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL and the process tests need a Unix")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "crawlsignals-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "crawlsignals")
		out, err := exec.Command("go", "build", "-o", binPath, "./cmd/crawlsignals").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// fixtureWeb serves the fixture web for a child crawler: the server, the
// demo list written to a file, and the flags that map every reviewed host to
// the server and trust its CA.
type fixtureWeb struct {
	srv   *fixture.Server
	list  *sites.List
	sites string // path of sites.toml
	flags []string
}

func startFixtureWeb(t *testing.T) *fixtureWeb {
	t.Helper()
	srv, err := fixture.New(crawlsignals.FixtureWeb())
	if err != nil {
		t.Fatal(err)
	}
	addr, _, err := srv.StartTLS()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	dir := t.TempDir()
	w := &fixtureWeb{srv: srv, sites: filepath.Join(dir, "sites.toml")}
	if err := os.WriteFile(w.sites, crawlsignals.DemoSites(), 0o644); err != nil {
		t.Fatal(err)
	}
	if w.list, err = sites.Load(w.sites); err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, srv.CAPEM(), 0o644); err != nil {
		t.Fatal(err)
	}
	w.flags = []string{"-sites", w.sites, "-ca", ca}
	for _, s := range w.list.Sites {
		for _, h := range s.Hosts {
			w.flags = append(w.flags, "-resolve", h+"="+addr)
		}
	}
	return w
}

// run runs the binary to its end and returns its output; it fails the test
// on an exit status other than want.
func run(t *testing.T, want int, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != want {
		t.Fatalf("crawlsignals %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, out.String())
	}
	return out.String()
}

// crawlArgs is a crawling command with the fixture web's flags, then extra.
func (w *fixtureWeb) crawlArgs(cmd string, extra ...string) []string {
	args := append([]string{cmd}, w.flags...)
	return append(args, extra...)
}

// blockedHosts are the hosts of the sites that asked us to stop.
func (w *fixtureWeb) blockedHosts() map[string]bool {
	out := map[string]bool{}
	for _, s := range w.list.Sites {
		if s.Blocked {
			for _, h := range s.Hosts {
				out[h] = true
			}
		}
	}
	return out
}

func address(r fixture.Request) string { return r.Scheme + "://" + r.Host + r.Path }

func counts(log []fixture.Request) map[string]int {
	n := map[string]int{}
	for _, r := range log {
		n[address(r)]++
	}
	return n
}

// TestKillAndResume kills a crawl (SIGKILL, a real process) mid-batch,
// resumes it with crawl -resume, and judges the result from the fixture
// server's log and the evidence: no address is fetched more often than an
// uninterrupted crawl fetches it, except a request that was on the wire
// when the process died (it was never stored, so it is asked again);
// evidence verify passes; and the build equals the uninterrupted run's.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the crawler three times")
	}
	const batch = "20261201T060000Z"
	delay := []string{"-min-delay", "150ms"}

	// The uninterrupted run, for comparison.
	ref := startFixtureWeb(t)
	refDir := t.TempDir()
	run(t, 0, ref.crawlArgs("crawl", append(delay, "-batches", filepath.Join(refDir, "batches"), "-batch", batch)...)...)
	refLog := ref.srv.SettledLog(5 * time.Second)
	refCounts := counts(refLog)
	buildSettled(t, ref, filepath.Join(refDir, "batches"), filepath.Join(refDir, "public"))

	// The run killed after the first manifest of a site that is read.
	w := startFixtureWeb(t)
	dir := t.TempDir()
	batches := filepath.Join(dir, "batches")
	batchDir := filepath.Join(batches, batch)
	cmd := exec.Command(binary(t), w.crawlArgs("crawl", append(delay, "-batches", batches, "-batch", batch)...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	blocked := w.blockedHosts()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ms, _ := evidence.Sites(batchDir)
		read := slices.DeleteFunc(ms, func(s string) bool { return blocked[s] })
		// Well into the batch: a site complete, and half the requests made.
		if len(read) > 0 && len(w.srv.Log()) >= len(refLog)/2 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no manifest after 60 s:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	first := w.srv.SettledLog(5 * time.Second)
	complete, _ := evidence.Sites(batchDir)
	open, _ := filepath.Glob(filepath.Join(batchDir, "*.warc.gz.open"))
	if len(open) == 0 {
		t.Fatalf("the kill left no interrupted site (complete: %v); the test proves nothing", complete)
	}
	if done, _ := evidence.Done(batchDir, ""); done {
		t.Fatal("done.json written by a killed batch")
	}

	// What the killed run had stored: resuming must not ask for it again.
	stored := map[string]int{}
	for _, f := range open {
		xs, err := evidence.ReadPartial(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
		for _, x := range xs {
			stored[x.Response.URL]++
		}
	}

	resumeOut := run(t, 0, w.crawlArgs("crawl", append(delay, "-batches", batches, "-resume", batch)...)...)
	all := w.srv.SettledLog(5 * time.Second)
	second := all[len(first):]
	t.Logf("killed after %d requests (%d sites complete, %d interrupted); the resume made %d", len(first), len(complete), len(open), len(second))
	if !strings.Contains(resumeOut, "complete in this batch already") || !strings.Contains(resumeOut, "stored answers reused") {
		t.Errorf("resume output:\n%s", resumeOut)
	}

	// No address fetched twice: more often than the uninterrupted run
	// fetched it, allowing only for a request in flight at the kill (the
	// first run asked for it but never stored the answer).
	firstCounts, secondCounts := counts(first), counts(second)
	inFlight := map[string]int{} // per host
	for a, n := range secondCounts {
		total := firstCounts[a] + n
		if total <= refCounts[a] {
			continue
		}
		if firstCounts[a] > 0 && stored[a] < firstCounts[a] && total-refCounts[a] == 1 {
			inFlight[hostOf(a)]++
			continue
		}
		t.Errorf("%s fetched %d times (%d before the kill, %d stored; %d on resume); an uninterrupted run fetches it %d times", a, total, firstCounts[a], stored[a], n, refCounts[a])
	}
	for h, n := range inFlight {
		if n > 1 {
			t.Errorf("%s: %d addresses asked again; at most the one on the wire at the kill may be", h, n)
		}
	}
	for a, n := range refCounts {
		if firstCounts[a]+secondCounts[a] == 0 {
			t.Errorf("%s never fetched (the uninterrupted run fetched it %d times)", a, n)
		}
	}
	for _, r := range all {
		if blocked[r.Host] {
			t.Errorf("request to a blocked site: %s", address(r))
		}
	}

	// The batch is complete and its evidence sound.
	if done, _ := evidence.Done(batchDir, ""); !done {
		t.Error("no done.json after the resume")
	}
	if _, err := os.Stat(filepath.Join(batchDir, "batch.json")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(batchDir, "resume-1.json")); err != nil {
		t.Error(err)
	}
	aborted, _ := filepath.Glob(filepath.Join(batchDir, "*.warc.gz.aborted.*"))
	if len(aborted) != len(open) {
		t.Errorf("interrupted files kept aside: %v, want one for each of %v", aborted, open)
	}
	run(t, 0, "evidence", "verify", "-batches", batches)

	// The build equals the uninterrupted run's.
	buildSettled(t, w, batches, filepath.Join(dir, "public"))
	for _, s := range w.list.Sites {
		got := comparable(t, filepath.Join(dir, "public", "sites", s.Host, "signals.json"))
		want := comparable(t, filepath.Join(refDir, "public", "sites", s.Host, "signals.json"))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: signals.json differs from the uninterrupted run's: %s", s.Host, firstDiff("", got, want))
		}
	}
}

// buildSettled builds the website and fails if a PDF could not be read:
// the isolated reader must give the same text on every run.
func buildSettled(t *testing.T, w *fixtureWeb, batches, public string) {
	t.Helper()
	run(t, 0, "build", "-sites", w.sites, "-batches", batches, "-out", public, "-content", "content")
	for _, s := range w.list.Sites {
		data, _ := os.ReadFile(filepath.Join(public, "sites", s.Host, "signals.json"))
		if bytes.Contains(data, []byte(`"text_error"`)) {
			t.Errorf("%s: a document could not be read:\n%s", s.Host, data)
		}
	}
}

// ignored are the signals.json fields that legitimately differ between two
// crawls of the same web: when each thing was read (read_at, at every
// level), the batch names (batch, and a change's previous batch), and the
// WARC record IDs (record: random, a new one for every record written).
var ignored = map[string]bool{"read_at": true, "batch": true, "previous": true, "record": true}

func comparable(t *testing.T, path string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return strip(v)
}

func strip(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k := range x {
			if ignored[k] {
				delete(x, k)
			} else {
				x[k] = strip(x[k])
			}
		}
	case []any:
		for i := range x {
			x[i] = strip(x[i])
		}
	}
	return v
}

func hostOf(address string) string {
	_, rest, _ := strings.Cut(address, "://")
	host, _, _ := strings.Cut(rest, "/")
	return host
}

// firstDiff names the first place two decoded JSON values differ.
func firstDiff(path string, got, want any) string {
	switch g := got.(type) {
	case map[string]any:
		w, ok := want.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range g {
			keys[k] = true
		}
		for k := range w {
			keys[k] = true
		}
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			if !reflect.DeepEqual(g[k], w[k]) {
				return firstDiff(path+"."+k, g[k], w[k])
			}
		}
	case []any:
		w, ok := want.([]any)
		if !ok || len(w) != len(g) {
			break
		}
		for i := range g {
			if !reflect.DeepEqual(g[i], w[i]) {
				return firstDiff(fmt.Sprintf("%s[%d]", path, i), g[i], w[i])
			}
		}
	}
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	return fmt.Sprintf("%s: got %.300s, want %.300s", path, gj, wj)
}

// TestMain runs the end-to-end tests from the repository's root, where the
// README's commands run (testdata/, content/, cmd/, .ci/ are named as a
// user names them), and removes the binary built for the process tests and
// the shared crawl of the fixture web (pipeline_test.go), which outlive any
// one test.
func TestMain(m *testing.M) {
	if err := os.Chdir(".."); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: cannot reach the repository root:", err)
		os.Exit(2)
	}
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	if theRun != nil {
		os.RemoveAll(filepath.Dir(theRun.batches))
	}
	os.Exit(code)
}
