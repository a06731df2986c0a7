//go:build unix

package crawlsignals_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals"
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
