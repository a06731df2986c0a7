package pdf

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// Pool reads PDFs in child processes that each read one PDF after
// another, so a build or a crawl starts a child per worker rather than
// per PDF. Starting one cost about 16 ms of CPU (half a real PDF's whole
// cost; a fifth of a cold build's CPU was children on make bench's
// pages); reading the next PDF in a running child costs none of that.
//
// A child keeps what a child for one PDF had: its own time limit per PDF
// (the parent kills it at the limit), its memory ceiling (its watchdog),
// its page cap. It answers each PDF from that PDF's bytes alone: the
// reader holds no state between PDFs, and a child whose memory stays high
// after a PDF retires rather than carry it into the next. A child that
// dies, or runs out of time, fails only the PDF it was reading; the next
// PDF gets a new child.
type Pool struct {
	command []string
	lim     Limits
	keep    int           // idle children kept for the next PDF
	turns   chan struct{} // one per child running at once; nil: no bound

	mu      sync.Mutex
	idle    []*pdfChild
	closed  bool
	started int // children started, for tests
}

// NewPool is a pool of children running command (normally the
// crawlsignals binary and its hidden child command) under lim, keeping
// up to keep idle children between PDFs and running at most keep at once
// (a PDF waits for a child to be free); keep 0 starts a child for each
// PDF, with no bound.
//
// The bound is what makes the pool pay in a crawl: thousands of sites
// read their documents in the same rounds, so PDFs come several at once,
// and a pool that started a child for each PDF beyond those kept spent
// the start it was meant to save (on make bench's crawl, 16-35 ms of CPU
// a PDF against 10 ms for the reading itself).
func NewPool(command []string, lim Limits, keep int) *Pool {
	if lim.Timeout <= 0 {
		lim.Timeout = DefaultLimits.Timeout
	}
	if lim.MemoryMB <= 0 {
		lim.MemoryMB = DefaultLimits.MemoryMB
	}
	p := &Pool{command: append([]string(nil), command...), lim: lim, keep: keep}
	if keep > 0 {
		p.turns = make(chan struct{}, keep)
	}
	return p
}

// Read extracts a PDF's text in a child, as Text would in process but
// under the pool's limits. Its time limit starts when a child takes the
// PDF, not while it waits for one.
func (p *Pool) Read(ctx context.Context, body []byte) (string, Info, error) {
	if p.turns != nil {
		select {
		case p.turns <- struct{}{}:
		case <-ctx.Done():
			return "", Info{}, fmt.Errorf("%w: %w (waiting for a child)", ErrLimit, ctx.Err())
		}
		defer func() { <-p.turns }()
	}
	c, reused, err := p.get()
	if err != nil {
		return "", Info{}, fmt.Errorf("%w: child not started: %v", ErrLimit, err)
	}
	a, err := c.read(ctx, body, p.lim.Timeout)
	if err != nil && reused && !errors.Is(err, ErrTimeout) && ctx.Err() == nil {
		// A child that read PDFs before may have died between them (killed
		// from outside): this PDF is read once more, by a new child, so
		// that only a PDF that fails a child of its own fails.
		if c, err = p.start(); err != nil {
			return "", Info{}, fmt.Errorf("%w: child not started: %v", ErrLimit, err)
		}
		a, err = c.read(ctx, body, p.lim.Timeout)
	}
	if err != nil {
		return "", Info{}, err
	}
	if a.Retire {
		c.close()
	} else {
		p.put(c)
	}
	switch {
	case a.NoLayer:
		return "", a.Info, ErrNoTextLayer
	case a.Err != "":
		return "", a.Info, fmt.Errorf("%w: %s", ErrUnreadable, a.Err)
	}
	return a.Text, a.Info, nil
}

// Close ends the idle children; a child still reading ends when its PDF
// is done. The pool must not be used after.
func (p *Pool) Close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, c := range idle {
		c.close()
	}
}

// get gives an idle child that is still running, else a new one.
func (p *Pool) get() (c *pdfChild, reused bool, err error) {
	p.mu.Lock()
	for len(p.idle) > 0 {
		c = p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		select {
		case <-c.done:
			continue // ended while idle
		default:
		}
		p.mu.Unlock()
		return c, true, nil
	}
	p.mu.Unlock()
	c, err = p.start()
	return c, false, err
}

func (p *Pool) start() (*pdfChild, error) {
	c, err := startPDFChild(p.command, p.lim)
	if err == nil {
		p.mu.Lock()
		p.started++
		p.mu.Unlock()
	}
	return c, err
}

func (p *Pool) put(c *pdfChild) {
	p.mu.Lock()
	if !p.closed && len(p.idle) < p.keep {
		p.idle = append(p.idle, c)
		c = nil
	}
	p.mu.Unlock()
	if c != nil {
		c.close()
	}
}

// pdfChild is one running child and its pipes.
type pdfChild struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *tailBuffer
	done   chan struct{} // closed when the process has been waited for
	err    error         // its exit, once done
}

func startPDFChild(command []string, lim Limits) (*pdfChild, error) {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = append(os.Environ(), ChildEnv+"="+strconv.Itoa(lim.MaxPages),
		"CRAWLSIGNALS_PDF_MEMORY_MB="+strconv.Itoa(lim.MemoryMB),
		pdfTimeoutEnv+"="+lim.Timeout.String())
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &pdfChild{cmd: cmd, in: in, out: bufio.NewReader(out), stderr: &tailBuffer{}, done: make(chan struct{})}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		c.err = cmd.Wait()
		close(c.done)
	}()
	return c, nil
}

// read sends one PDF and waits for its answer, at most timeout.
func (c *pdfChild) read(ctx context.Context, body []byte, timeout time.Duration) (pdfAnswer, error) {
	if len(body) > maxPDFChildBody {
		body = body[:maxPDFChildBody] // what a child for one PDF read of it
	}
	c.stderr.reset()
	type result struct {
		line []byte
		err  error
	}
	got := make(chan result, 1)
	go func() {
		var size [8]byte
		binary.BigEndian.PutUint64(size[:], uint64(len(body)))
		_, err := c.in.Write(size[:])
		if err == nil {
			_, err = c.in.Write(body)
		}
		var line []byte
		if err == nil {
			line, err = c.out.ReadBytes('\n')
		}
		got <- result{line, err}
	}()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var r result
	select {
	case r = <-got:
	case <-ctx.Done():
		c.stop()
		<-got // the pipes close with the process
		return pdfAnswer{}, fmt.Errorf("%w: %w (%s)", ErrLimit, ErrTimeout, timeout)
	}
	if r.err != nil {
		c.stop()
		return pdfAnswer{}, fmt.Errorf("%w: child failed (%v): %s", ErrLimit, c.exit(), c.stderr.tail())
	}
	var a pdfAnswer
	if err := json.Unmarshal(r.line, &a); err != nil {
		c.stop()
		return pdfAnswer{}, fmt.Errorf("%w: child answer unreadable: %v", ErrUnreadable, err)
	}
	return a, nil
}

// exit waits briefly for the process's exit status (the pipe closes just
// before the process is reaped).
func (c *pdfChild) exit() error {
	select {
	case <-c.done:
		return c.err
	case <-time.After(5 * time.Second):
		return errors.New("no exit status")
	}
}

// close ends a child between PDFs: with no more input, it exits (and the
// goroutine started with it reaps it).
func (c *pdfChild) close() {
	c.in.Close()
}

// stop kills a child (a timeout, a broken answer) and waits for it.
func (c *pdfChild) stop() {
	c.cmd.Process.Kill()
	c.in.Close()
	<-c.done
}

// tailBuffer keeps the last bytes a child wrote to stderr for the PDF it
// is reading.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const stderrTail = 300

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4*stderrTail {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-stderrTail:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) reset() {
	t.mu.Lock()
	t.buf = t.buf[:0]
	t.mu.Unlock()
}

func (t *tailBuffer) tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf[max(0, len(t.buf)-stderrTail):]))
}
