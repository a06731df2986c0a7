package crawl

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// A local failure is ours, not the site's: the process ran out of open
// files, memory for sockets or local ports before a request left the
// machine. It must never become a gap on a site's page ("no answer",
// "robots.txt unavailable"). A request that fails so is tried again after a
// pause (it was never sent, so the site saw nothing); if it keeps failing,
// the site fails loudly (no manifest, the crawl exits 1, -resume continues
// it).

// errLocal marks a request that could not be made for a local reason.
var errLocal = errors.New("local resource exhausted (not the site's doing)")

// localRetries are the pauses before each new attempt of a request that
// failed locally: about 6 s in all, long enough for other sites' requests
// to finish and give their descriptors back.
var localRetries = []time.Duration{50 * time.Millisecond, 200 * time.Millisecond, 750 * time.Millisecond, 2 * time.Second, 3 * time.Second}

// isLocal says whether err is a local resource failure.
func isLocal(err error) bool {
	for _, e := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM, syscall.EADDRNOTAVAIL} {
		if errors.Is(err, e) {
			return true
		}
	}
	// The resolver reports some failures as text only.
	msg := err.Error()
	return strings.Contains(msg, "too many open files") || strings.Contains(msg, "cannot assign requested address")
}

// pause waits d unless ctx ends first.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Descriptor budget. Each request on the wire holds a socket, each
// evidence file being written a descriptor (Crawler.files bounds them to
// one per worker), and the idle connections kept for reuse one each; the
// rest of the process (standard streams, the PDF reader's pipes, the
// resolver, batch records) is kept within reserveFiles.
const reserveFiles = 64

// IdleConnsFor returns how many idle connections a crawl with workers
// requests in flight and openSites sites in progress (0: SitesPerCore for
// each processor) may keep under an open-files limit of limit (0: not
// known), or an error when even none would fit.
//
// A site keeps its connection while it waits for its next turn, one per
// host: a new connection for every request costs the crawler about a fifth
// of its CPU (and the site a handshake; over TLS a whole one). So the pool
// holds up to one connection for each site in progress, as far as half the
// spare descriptors allow; a connection that finds the pool full is
// closed. Memory then follows the sites in progress (about 1 KB an idle
// connection: it holds no buffer), which -open-sites bounds, not the
// number of hosts on the list.
func IdleConnsFor(workers, openSites int, limit uint64) (int, error) {
	idle, _, err := spareDescriptors(workers, openSites, limit)
	return idle, err
}

// HeldFilesFor returns how many sites in progress may keep their evidence
// file open between requests (evidence.Writer.Hold) under the same limit:
// the other half of the spare descriptors. Opening it for each exchange
// cost a twentieth of the crawler's CPU. An unknown limit holds none.
func HeldFilesFor(workers, openSites int, limit uint64) (int, error) {
	_, held, err := spareDescriptors(workers, openSites, limit)
	return held, err
}

func spareDescriptors(workers, openSites int, limit uint64) (idle, held int, err error) {
	if openSites <= 0 {
		openSites = SitesPerCore * runtime.GOMAXPROCS(0)
	}
	if limit == 0 {
		return min(openSites, 1024), 0, nil
	}
	need := uint64(2*workers + reserveFiles)
	if limit < need {
		return 0, 0, fmt.Errorf("the open-files limit (%d) is too low for %d workers: they need at least %d descriptors; raise it (ulimit -n) or lower -workers", limit, workers, need)
	}
	spare := limit - need
	idle = int(min(uint64(openSites), spare/2))
	held = int(min(uint64(openSites), spare-uint64(idle)))
	return idle, held, nil
}

// OpenFilesLimit is the process's limit on open files (the soft limit,
// which Go raises to the hard one at start), or 0 when it cannot be read.
func OpenFilesLimit() uint64 {
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl) != nil || rl.Cur == ^uint64(0) {
		return 0
	}
	return rl.Cur
}
