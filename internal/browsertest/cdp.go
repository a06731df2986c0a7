// Package browsertest drives a headless Chromium through the Chrome DevTools
// Protocol, over the pipe Chromium opens with --remote-debugging-pipe (file
// descriptors 3 and 4, messages ended by a NUL byte). That needs no
// WebSocket and no module beyond the standard library. Its test loads the
// demo website at phone and desktop widths, saves screenshots, and fails on
// console errors, failed requests and horizontal overflow.
package browsertest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Flags are the command-line flags every run uses: headless, no sandbox
// (CI runs as root), and nothing that calls home.
var Flags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--disable-default-apps", "--disable-extensions", "--mute-audio", "--hide-scrollbars",
	"--remote-debugging-pipe",
}

// FindChromium returns the path of a Chromium binary, or "" when there is
// none: $CHROMIUM, then the usual names on PATH.
func FindChromium() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Event is a protocol event, for the session it belongs to.
type Event struct {
	Session string
	Method  string
	Params  json.RawMessage
}

type message struct {
	ID        int64           `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    any             `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// Browser is one running Chromium.
type Browser struct {
	cmd    *exec.Cmd
	toB    io.WriteCloser
	fromB  io.ReadCloser
	stderr *limitedBuffer

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan message
	events  chan Event
	done    chan struct{}
	readErr error
}

// Launch starts Chromium with Flags and its own new profile folder.
func Launch(ctx context.Context, path, profile string) (*Browser, error) {
	// fd 3: Chromium reads our commands; fd 4: it writes its answers.
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	args := append(append([]string{}, Flags...), "--user-data-dir="+profile, "about:blank")
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.ExtraFiles = []*os.File{cmdR, outW}
	b := &Browser{cmd: cmd, toB: cmdW, fromB: outR, stderr: &limitedBuffer{max: 64 << 10},
		pending: map[int64]chan message{}, events: make(chan Event, 1024), done: make(chan struct{})}
	cmd.Stderr = b.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	cmdR.Close()
	outW.Close()
	go b.read()
	return b, nil
}

func (b *Browser) read() {
	r := bufio.NewReaderSize(b.fromB, 1<<20)
	for {
		frame, err := r.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.readErr = err
			for id, ch := range b.pending {
				close(ch)
				delete(b.pending, id)
			}
			b.mu.Unlock()
			close(b.done)
			close(b.events)
			return
		}
		var m message
		if err := json.Unmarshal(frame[:len(frame)-1], &m); err != nil {
			continue
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.pending[m.ID]
			delete(b.pending, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		raw, _ := json.Marshal(m.Params)
		select {
		case b.events <- Event{Session: m.SessionID, Method: m.Method, Params: raw}:
		default: // nobody is listening that fast: drop, never block the reader
		}
	}
}

// Events delivers protocol events until the browser exits.
func (b *Browser) Events() <-chan Event { return b.events }

// Call sends one command (in a session when session is not "") and decodes
// its result into out, which may be nil.
func (b *Browser) Call(ctx context.Context, session, method string, params, out any) error {
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan message, 1)
	b.pending[id] = ch
	b.mu.Unlock()
	if params == nil {
		params = struct{}{}
	}
	data, err := json.Marshal(message{ID: id, SessionID: session, Method: method, Params: params})
	if err != nil {
		return err
	}
	if _, err := b.toB.Write(append(data, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: browser closed the pipe (%v); stderr: %s", method, b.readErr, b.stderr)
		}
		if m.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if out != nil {
			return json.Unmarshal(m.Result, out)
		}
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.pending, id)
		b.mu.Unlock()
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Close asks the browser to quit and waits for it, killing it after a while.
func (b *Browser) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = b.Call(ctx, "", "Browser.close", nil, nil)
	b.toB.Close()
	waited := make(chan error, 1)
	go func() { waited <- b.cmd.Wait() }()
	select {
	case err := <-waited:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil // closed by us; its exit status says nothing
		}
		return err
	case <-time.After(10 * time.Second):
		b.cmd.Process.Kill()
		return <-waited
	}
}

// limitedBuffer keeps the first max bytes of the browser's stderr, for
// error messages.
type limitedBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.max - len(l.buf); room > 0 {
		l.buf = append(l.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}
