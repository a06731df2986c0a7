package pdf

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// poolPDFs are the PDFs a pool test reads: the fixture web's, and the
// real PDFs of ../shared/realweb where that folder is present.
func poolPDFs(t *testing.T) map[string][]byte {
	t.Helper()
	paths := []string{"../../testdata/web/butikk.test/kjopsbetingelser.pdf"}
	real, _ := filepath.Glob("../../../shared/realweb/pdf/*.pdf")
	paths = append(paths, real...)
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	// Bytes that are no PDF get an error answer, and the child goes on.
	out["not a pdf"] = []byte("<html>not a pdf</html>")
	return out
}

// TestPDFPoolReadsLikeInProcess: PDFs read one after another by the
// children of one pool, from several goroutines, give what Text gives
// each PDF alone, and the pool starts no more children than read at once.
func TestPDFPoolReadsLikeInProcess(t *testing.T) {
	pdfs := poolPDFs(t)
	p := NewPool(self(t), Limits{Timeout: 20 * time.Second, MemoryMB: 512}, 2)
	defer p.Close()
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for round := range 2 {
				for name, body := range pdfs {
					want, wantErr := Text(body, 0)
					got, _, err := p.Read(context.Background(), body)
					if got != want || (err == nil) != (wantErr == nil) {
						t.Errorf("worker %d, round %d, %s: child gave %d chars (err %v), in process %d chars (err %v)", g, round, name, len(got), err, len(want), wantErr)
					}
				}
			}
		})
	}
	wg.Wait()
	p.mu.Lock()
	started := p.started
	p.mu.Unlock()
	if reads := 4 * len(pdfs); started < 1 || started > 2 {
		t.Errorf("%d reads by 2 goroutines started %d children, want 1 or 2", reads, started)
	}
}

// TestPDFPoolChildKilledBetweenPDFs: a child that died while idle costs
// the next PDF nothing; a child killed while reading fails that PDF alone.
func TestPDFPoolChildKilledBetweenPDFs(t *testing.T) {
	body, err := os.ReadFile("../../testdata/web/butikk.test/kjopsbetingelser.pdf")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Text(body, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPool(self(t), Limits{Timeout: 20 * time.Second, MemoryMB: 512}, 1)
	defer p.Close()
	if got, _, err := p.Read(context.Background(), body); err != nil || got != want {
		t.Fatalf("first read: %d chars, %v", len(got), err)
	}
	p.mu.Lock()
	idle := p.idle[0]
	p.mu.Unlock()
	if err := idle.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if got, _, err := p.Read(context.Background(), body); err != nil || got != want {
		t.Errorf("the read after the idle child died: %d chars, %v", len(got), err)
	}
	if p.started != 2 {
		t.Errorf("started %d children, want 2 (one to replace the dead one)", p.started)
	}
}

// TestPDFPoolTimeoutThenNext: a child that does not answer in time is
// killed and reported; the pool's next PDF gets a child of its own.
func TestPDFPoolTimeoutThenNext(t *testing.T) {
	p := NewPool([]string{"sleep", "30"}, Limits{Timeout: 200 * time.Millisecond}, 1)
	defer p.Close()
	for i := range 2 {
		_, _, err := p.Read(context.Background(), []byte("%PDF-"))
		if !errors.Is(err, ErrLimit) || !errors.Is(err, ErrTimeout) {
			t.Fatalf("read %d: err = %v, want the time limit", i, err)
		}
	}
	if p.started != 2 || len(p.idle) != 0 {
		t.Errorf("started %d, idle %d: a child that ran out of time must not be used again", p.started, len(p.idle))
	}
}

// TestPDFPoolCloseEndsChildren: the children a pool keeps between PDFs
// exit when it is closed (their stdin ends); none is left running.
func TestPDFPoolCloseEndsChildren(t *testing.T) {
	body, err := os.ReadFile("../../testdata/web/butikk.test/kjopsbetingelser.pdf")
	if err != nil {
		t.Fatal(err)
	}
	p := NewPool(self(t), Limits{Timeout: 20 * time.Second, MemoryMB: 512}, 2)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if _, _, err := p.Read(context.Background(), body); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	p.mu.Lock()
	kept := append([]*pdfChild(nil), p.idle...)
	p.mu.Unlock()
	if len(kept) == 0 {
		t.Fatal("no child kept between PDFs")
	}
	p.Close()
	for i, c := range kept {
		select {
		case <-c.done:
			if c.err != nil {
				t.Errorf("child %d ended with %v, want a clean exit", i, c.err)
			}
		case <-time.After(time.Minute): // a bound, not a measure
			t.Errorf("child %d still running a minute after Close", i)
		}
	}
}

// TestPDFPoolBoundsChildren: PDFs that come several at once wait for one
// of the pool's children rather than each start one.
func TestPDFPoolBoundsChildren(t *testing.T) {
	body, err := os.ReadFile("../../testdata/web/butikk.test/kjopsbetingelser.pdf")
	if err != nil {
		t.Fatal(err)
	}
	p := NewPool(self(t), Limits{Timeout: 20 * time.Second, MemoryMB: 512}, 1)
	defer p.Close()
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			if _, _, err := p.Read(context.Background(), body); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if p.started != 1 {
		t.Errorf("6 PDFs at once started %d children, want 1", p.started)
	}
}
