//go:build unix

package e2e_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/sites"
)

// endsWithin runs cmd to its end, failing the test if it is still running
// after limit (then it is killed): the bound is for a process that would
// otherwise never end, far beyond any slowness of a loaded machine.
func endsWithin(t *testing.T, cmd *exec.Cmd, limit time.Duration, signal func()) (int, string) {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if signal != nil {
		signal()
	}
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), out.String()
		}
		return 0, out.String()
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%s still running after %s\n%s", strings.Join(cmd.Args, " "), limit, out.String())
		return 0, ""
	}
}

// A WARC that is a FIFO (a symlink to one alike) is refused by evidence
// verify and build with a clear error, instead of hanging them.
func TestFIFOInBatchesRefused(t *testing.T) {
	bin := binary(t)
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	batches := filepath.Join(root, "batches")
	crawlInto(t, copyHosts(t, "kommune.test", "data.kommune.test"), list, batches, "20261201T060000Z")
	warc := filepath.Join(batches, "20261201T060000Z", "kommune.test.warc.gz")
	fifo := filepath.Join(root, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Remove(warc); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fifo, warc); err != nil {
		t.Fatal(err)
	}
	sitesFile := filepath.Join(root, "sites.toml")
	if err := os.WriteFile(sitesFile, crawlsignals.DemoSites(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"evidence", "verify", "-batches", batches},
		{"build", "-sites", sitesFile, "-batches", batches, "-content", filepath.Join(root, "none"), "-out", filepath.Join(root, "public")},
	} {
		code, out := endsWithin(t, exec.Command(bin, args...), time.Minute, nil)
		if code != 1 || !strings.Contains(out, "not a regular file") {
			t.Errorf("crawlsignals %s: exit %d, want 1 naming the file that is not a regular file\n%s", strings.Join(args, " "), code, out)
		}
	}
}

// SIGTERM stops a command stuck on something that never ends (here a
// sites.toml that is a FIFO nobody writes to).
func TestSIGTERMStopsAStuckCommand(t *testing.T) {
	bin := binary(t)
	fifo := filepath.Join(t.TempDir(), "sites.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	cmd := exec.Command(bin, "build", "-sites", fifo, "-batches", t.TempDir(), "-out", filepath.Join(t.TempDir(), "public"))
	code, out := endsWithin(t, cmd, time.Minute, func() {
		time.Sleep(300 * time.Millisecond) // started, and blocked on the FIFO
		cmd.Process.Signal(syscall.SIGTERM)
	})
	if code == 0 {
		t.Errorf("exit 0 after SIGTERM\n%s", out)
	}
}

// Ctrl-C (SIGINT) in the middle of a crawl: the sites cut short are not
// called FAILED (FAILED is for evidence that could not be written), and
// one line, the last, says the batch was interrupted, how many sites were
// done, and the exact command that continues it; that command does.
func TestSIGINTStopsACrawlAndSaysHowToResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the crawler twice")
	}
	bin := binary(t)
	w := startFixtureWeb(t)
	const batch = "20261201T060000Z"
	batches := filepath.Join(t.TempDir(), "batches")
	batchDir := filepath.Join(batches, batch)
	cmd := exec.Command(bin, w.crawlArgs("crawl", "-min-delay", "300ms", "-batches", batches, "-batch", batch)...)
	code, out := endsWithin(t, cmd, time.Minute, func() {
		// Some sites done, some still reading.
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			done, _ := evidence.Sites(batchDir)
			open, _ := filepath.Glob(filepath.Join(batchDir, "*.warc.gz.open"))
			if len(done) > 0 && len(open) > 0 {
				break
			}
		}
		cmd.Process.Signal(syscall.SIGINT)
	})
	done, _ := evidence.Sites(batchDir)
	if code != 1 {
		t.Errorf("exit %d after SIGINT, want 1 (an interrupted batch)\n%s", code, out)
	}
	if len(done) == 0 || len(done) == len(w.list.Sites) {
		t.Fatalf("%d of %d sites done when the crawl stopped: the test proves nothing\n%s", len(done), len(w.list.Sites), out)
	}
	for _, bad := range []string{"FAILED", "context canceled"} {
		if strings.Contains(out, bad) {
			t.Errorf("the interrupted crawl says %q:\n%s", bad, out)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	want := fmt.Sprintf("crawlsignals crawl: batch %s interrupted with %d of %d sites done; continue it with: %s crawl -resume %s ",
		batch, len(done), len(w.list.Sites), bin, batch)
	if !strings.HasPrefix(last, want) {
		t.Errorf("the last line is\n%s\nwant it to start with\n%s", last, want)
	}
	if n := strings.Count(out, "interrupted"); n != 1 {
		t.Errorf("%d lines say the crawl was interrupted, want one:\n%s", n, out)
	}

	// The command it names continues the batch to its end.
	_, resume, ok := strings.Cut(last, "continue it with: ")
	args := strings.Fields(resume)
	if !ok || len(args) < 2 {
		t.Fatalf("no command to continue the batch on the last line:\n%s", out)
	}
	again := exec.Command(args[0], args[1:]...)
	code, out = endsWithin(t, again, time.Minute, nil)
	if code != 0 {
		t.Fatalf("%s: exit %d\n%s", resume, code, out)
	}
	if ok, _ := evidence.Done(batchDir, ""); !ok {
		t.Errorf("the command named did not complete the batch:\n%s", out)
	}
}
