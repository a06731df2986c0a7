package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"time"
)

// A PDF is read in a child process of the same binary: the PDF library
// can loop or allocate without bound on hostile input, and only a process
// boundary lets us stop it. The parent sends the bytes on stdin and reads
// one JSON answer on stdout.

// PDFLimits bound one child.
type PDFLimits struct {
	Timeout  time.Duration // wall time for the whole extraction
	MemoryMB int           // address-space ceiling of the child
	MaxPages int
}

// DefaultPDFLimits are the limits of a build.
var DefaultPDFLimits = PDFLimits{Timeout: 30 * time.Second, MemoryMB: 1024, MaxPages: DefaultMaxPDFPages}

// PDFChildEnv names the environment variable that makes a process act as
// a PDF child; its value is the page cap. A test binary's TestMain checks
// it so tests can run real children too.
const PDFChildEnv = "CRAWLSIGNALS_PDF_CHILD"

// ErrPDFLimit is returned when the child ran out of time or memory.
var ErrPDFLimit = errors.New("pdf reader stopped at its limit")

// ErrPDFTimeout is returned, with ErrPDFLimit, when the child gave no
// answer within its time limit. Unlike a crash, the same bytes read by the
// same code take as long again, so a build keeps that outcome (with the
// code version) rather than spend the limit on it at every build.
var ErrPDFTimeout = errors.New("no answer within the time limit")

type pdfAnswer struct {
	Text    string  `json:"text"`
	Info    PDFInfo `json:"info"`
	Err     string  `json:"err,omitempty"`
	NoLayer bool    `json:"no_layer,omitempty"`
}

// PDFIsolated extracts a PDF's text in a child process running command
// (normally the crawlsignals binary itself; args select the hidden child
// mode), under lim.
func PDFIsolated(ctx context.Context, command []string, body []byte, lim PDFLimits) (string, PDFInfo, error) {
	if lim.Timeout <= 0 {
		lim.Timeout = DefaultPDFLimits.Timeout
	}
	if lim.MemoryMB <= 0 {
		lim.MemoryMB = DefaultPDFLimits.MemoryMB
	}
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Env = append(os.Environ(), PDFChildEnv+"="+strconv.Itoa(lim.MaxPages), "CRAWLSIGNALS_PDF_MEMORY_MB="+strconv.Itoa(lim.MemoryMB))
	cmd.Stdin = bytes.NewReader(body)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		return "", PDFInfo{}, fmt.Errorf("%w: %w (%s)", ErrPDFLimit, ErrPDFTimeout, lim.Timeout)
	}
	if err != nil {
		tail := errb.String()
		if len(tail) > 300 {
			tail = tail[len(tail)-300:]
		}
		return "", PDFInfo{}, fmt.Errorf("%w: child failed (%v): %s", ErrPDFLimit, err, tail)
	}
	var a pdfAnswer
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		return "", PDFInfo{}, fmt.Errorf("%w: child answer unreadable: %v", ErrBadPDF, err)
	}
	switch {
	case a.NoLayer:
		return "", a.Info, ErrNoTextLayer
	case a.Err != "":
		return "", a.Info, fmt.Errorf("%w: %s", ErrBadPDF, a.Err)
	}
	return a.Text, a.Info, nil
}

// RunPDFChild is the child's side: it caps its own memory, reads the PDF
// from stdin and writes its answer to stdout. It returns the exit status.
func RunPDFChild(stdin io.Reader, stdout io.Writer) int {
	maxPages, _ := strconv.Atoi(os.Getenv(PDFChildEnv))
	if mb, _ := strconv.Atoi(os.Getenv("CRAWLSIGNALS_PDF_MEMORY_MB")); mb > 0 {
		limit := uint64(mb) << 20
		// The soft limit makes the collector work hard as the ceiling
		// nears; the watchdog ends this child (and only it) past the
		// ceiling. An address-space rlimit would be simpler but the Go
		// runtime reserves address space it never uses, so any rlimit
		// tight enough to matter makes healthy children fail at random.
		debug.SetMemoryLimit(int64(limit) * 3 / 4)
		go watchMemory(limit)
	}
	// A child lives for one PDF, its heap starting near empty: at the
	// default GOGC the collector ran again and again as a PDF's objects
	// piled up, a quarter of a child's CPU on the real PDFs. The memory
	// limit above still bounds what a hostile PDF can hold.
	debug.SetGCPercent(400)
	body, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
	if err != nil {
		return 2
	}
	var a pdfAnswer
	a.Text, a.Info, err = PDFExtract(body, maxPages)
	switch {
	case errors.Is(err, ErrNoTextLayer):
		a.NoLayer = true
	case err != nil:
		a.Err = err.Error()
	}
	if err := json.NewEncoder(stdout).Encode(a); err != nil {
		return 2
	}
	return 0
}

// watchMemory exits the child when the memory the runtime holds from the
// system passes limit: the parent reports ErrPDFLimit.
func watchMemory(limit uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	for tick := time.Tick(20 * time.Millisecond); ; <-tick {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > limit {
			fmt.Fprintf(os.Stderr, "pdf child: memory above %d MB, stopping\n", limit>>20)
			os.Exit(3)
		}
	}
}
