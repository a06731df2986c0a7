package pdf

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"time"
)

// A PDF is read in a child process of the same binary: the PDF library
// can loop or allocate without bound on hostile input, and only a process
// boundary lets us stop it. The parent sends each PDF on stdin, as its
// length (8 bytes, big-endian) and its bytes, and reads one JSON answer
// per PDF, one line each, on stdout (Pool); the child exits when its
// stdin ends.

// Limits bound one child.
type Limits struct {
	Timeout  time.Duration // wall time for the whole extraction
	MemoryMB int           // memory the child's runtime may hold from the system (not an rlimit; see RunChild)
	MaxPages int
}

// DefaultLimits are the limits of a build.
var DefaultLimits = Limits{Timeout: 30 * time.Second, MemoryMB: 1024, MaxPages: DefaultMaxPages}

// ChildEnv names the environment variable that makes a process act as
// a PDF child; its value is the page cap. A test binary's TestMain checks
// it so tests can run real children too.
const ChildEnv = "CRAWLSIGNALS_PDF_CHILD"

// ErrLimit is returned when the child ran out of time or memory.
var ErrLimit = errors.New("pdf reader stopped at its limit")

// ErrTimeout is returned, with ErrLimit, when the child gave no
// answer within its time limit. Unlike a crash, the same bytes read by the
// same code take as long again, so a build keeps that outcome (with the
// code version) rather than spend the limit on it at every build.
var ErrTimeout = errors.New("no answer within the time limit")

type pdfAnswer struct {
	Text    string `json:"text"`
	Info    Info   `json:"info"`
	Err     string `json:"err,omitempty"`
	NoLayer bool   `json:"no_layer,omitempty"`
	// Retire is set when the child still holds much memory after a PDF:
	// the parent ends it rather than give it the next one.
	Retire bool `json:"retire,omitempty"`
}

// pdfTimeoutEnv gives the child its time limit a PDF, so a child whose
// parent is gone stops on its own (the parent kills it at the limit).
const pdfTimeoutEnv = "CRAWLSIGNALS_PDF_TIMEOUT"

// maxPDFChildBody is the most of a PDF a child reads.
const maxPDFChildBody = 64 << 20

// retireAbove is the memory a child may still hold after a PDF and its
// collection and still read the next one; a fresh child holds under
// 10 MB.
const retireAbove = 64 << 20

// Isolated extracts a PDF's text in a child process of its own running
// command (normally the crawlsignals binary itself; args select the
// hidden child mode), under lim. A build or a crawl reads many PDFs
// through one Pool instead.
func Isolated(ctx context.Context, command []string, body []byte, lim Limits) (string, Info, error) {
	p := NewPool(command, lim, 0)
	defer p.Close()
	return p.Read(ctx, body)
}

// RunChild is the child's side: it caps its own memory, then reads
// each PDF from stdin and writes its answer to stdout, until stdin ends.
// It returns the exit status.
func RunChild(stdin io.Reader, stdout io.Writer) int {
	maxPages, _ := strconv.Atoi(os.Getenv(ChildEnv))
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
	// Each PDF's heap starts near empty (the one before is collected): at
	// the default GOGC the collector ran again and again as a PDF's
	// objects piled up, a quarter of a child's CPU on the real PDFs. The
	// memory limit above still bounds what a hostile PDF can hold.
	debug.SetGCPercent(400)
	timeout, _ := time.ParseDuration(os.Getenv(pdfTimeoutEnv))
	in, out := bufio.NewReader(stdin), bufio.NewWriter(stdout)
	for {
		var size [8]byte
		if _, err := io.ReadFull(in, size[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return 0 // the parent is done
			}
			return 2
		}
		n := binary.BigEndian.Uint64(size[:])
		if n > maxPDFChildBody {
			return 2
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(in, body); err != nil {
			return 2
		}
		var orphan *time.Timer
		if timeout > 0 {
			orphan = time.AfterFunc(timeout+10*time.Second, func() {
				fmt.Fprintln(os.Stderr, "pdf child: no answer within its time limit, stopping")
				os.Exit(4)
			})
		}
		var a pdfAnswer
		text, info, err := Extract(body, maxPages)
		a.Text, a.Info = text, info
		switch {
		case errors.Is(err, ErrNoTextLayer):
			a.NoLayer = true
		case err != nil:
			a.Err = err.Error()
		}
		if orphan != nil {
			orphan.Stop()
		}
		body, text = nil, ""
		a.Retire = !settle()
		if err := json.NewEncoder(out).Encode(a); err != nil {
			return 2
		}
		if err := out.Flush(); err != nil {
			return 2
		}
	}
}

// settle collects what the PDF just read left, returning memory to the
// system when much is still held; it reports whether the child is back
// under retireAbove.
func settle() bool {
	runtime.GC()
	if heldMemory() <= retireAbove {
		return true
	}
	debug.FreeOSMemory()
	return heldMemory() <= retireAbove
}

// heldMemory is what the runtime has mapped from the system and not
// returned to it.
func heldMemory() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 || sample[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64() - sample[1].Value.Uint64()
}

// watchMemory exits the child when the memory the runtime holds from the
// system (mapped, less what it has returned) passes limit: the parent
// reports ErrLimit.
func watchMemory(limit uint64) {
	for tick := time.Tick(20 * time.Millisecond); ; <-tick {
		if heldMemory() > limit {
			fmt.Fprintf(os.Stderr, "pdf child: memory above %d MB, stopping\n", limit>>20)
			os.Exit(3)
		}
	}
}
