//go:build unix

package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A WARC that is a FIFO, or a symbolic link to one, is refused with a
// clear error; opening it to read would block until a writer came.
func TestNonRegularWARCRefused(t *testing.T) {
	for _, link := range []bool{false, true} {
		name := "fifo"
		if link {
			name = "symlink to a fifo"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			m := writeSite(t, dir, "a.test", get(t, "https://a.test/", 200, nil, []byte("a")))
			warc := filepath.Join(dir, "a.test.warc.gz")
			if err := os.Remove(warc); err != nil {
				t.Fatal(err)
			}
			fifo := warc
			if link {
				fifo = filepath.Join(t.TempDir(), "elsewhere")
			}
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			if link {
				if err := os.Symlink(fifo, warc); err != nil {
					t.Fatal(err)
				}
			}
			done := make(chan []string)
			go func() {
				var msgs []string
				for _, err := range Verify(dir) {
					msgs = append(msgs, err.Error())
				}
				if _, err := OpenSite(dir, "a.test"); err != nil {
					msgs = append(msgs, err.Error())
				}
				if _, err := ReadPartial(warc); err != nil {
					msgs = append(msgs, err.Error())
				}
				s := &Site{Manifest: &m, WARCPath: warc}
				if _, err := s.Response(m.Addresses[0].Exchanges[0]); err != nil {
					msgs = append(msgs, err.Error())
				}
				done <- msgs
			}()
			select {
			case msgs := <-done:
				if len(msgs) != 4 {
					t.Fatalf("want four refusals (verify, open, partial read, response), got %q", msgs)
				}
				for _, m := range msgs {
					if !strings.Contains(m, "not a regular file") {
						t.Errorf("error %q does not say it is not a regular file", m)
					}
				}
			case <-time.After(time.Minute):
				// Only reached when a reader blocks on the FIFO.
				t.Fatal("reading a FIFO as a WARC blocked")
			}
		})
	}
}
