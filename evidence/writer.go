package evidence

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc/v3"
)

// Writer writes one site's WARC file for one batch, then its manifest.
//
// We do not use gowarc's WarcFileWriter: we serialise the records
// ourselves (member.go) and write the gzip members to our own file. WarcFileWriter runs
// its writes on goroutines and, on Close, discards the errors of the final
// close and renames the .open file to its final name with os.Rename (no
// fsync of the data first, and replacing any file already there). That is
// the opposite of what this store promises: a failed write must be seen,
// an aborted file must keep its .open name, and nothing may be replaced.
// Writing the members ourselves also gives each record's offset directly,
// and no name generator is involved at all, so nothing can dial out to
// find a local address.
//
// A Writer is safe for concurrent use; records are written in call order.
type Writer struct {
	mu sync.Mutex

	site         string
	batch        string // base name of the batch folder
	openPath     string // the WARC while it is written
	warcPath     string // the WARC once complete
	manifestPath string

	// The file is open only while records are written (see openFile): a
	// site waiting out its hosts' clocks holds no descriptor and no buffer,
	// so a batch of ten thousand sites in progress needs descriptors only
	// for the records being written. Unless the Writer holds it (Hold),
	// when the process has descriptors to spare.
	file *os.File
	hold bool
	buf  *bufio.Writer   // set while the file is open
	out  *countingWriter // counts bytes written: the file offset

	info       map[string]string // the warcinfo record's fields, written by begin
	warcinfoID string

	// What was written, so Close can refuse a manifest that points at
	// records this WARC does not have.
	requests  map[int64]bool
	responses map[int64]string // offset -> record ID

	err    error // first write error; the file is then unusable
	closed bool  // no more records: sealed or aborted
	sealed bool  // the WARC has its final name
	done   bool  // the manifest was written
}

// gzipPool shares compressors between Writers: a gzip.Writer holds about a
// megabyte, and a large batch has a thousand sites open at once, each
// writing a record only every few seconds.
//
// Evidence is kept for years, so size matters; but at thousands of hosts
// compression is a large part of each request's cost. klauspost's deflate
// compresses about as well as the standard library's and several times
// faster, and its output is plain gzip that any reader takes. Its fastest
// level costs little size: the demo's WARCs grow 3.5% (144 → 150 KB),
// BenchmarkRecordSmall's ratio goes 1.51 → 1.39, while BenchmarkRecord
// doubles (99 → 202 MB/s) and the crawl's CPU per request falls by a
// quarter (make bench, 2,000 hosts: 571–601 → 425–445 µs).
var gzipPool = sync.Pool{New: func() any {
	gz, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return gz
}}

// storeBelow is the size under which a record is stored in its gzip member
// without compression. The request and metadata records of every exchange
// are about 600–900 bytes; compressing them saved 200–300 bytes each but
// cost most of the compressor's time (a Huffman table built for each tiny
// member). Stored, they cost about half a kilobyte more per exchange: a
// few percent of a real page's evidence.
const storeBelow = 1 << 10

var storedPool = sync.Pool{New: func() any {
	gz, _ := gzip.NewWriterLevel(nil, gzip.NoCompression)
	return gz
}}

// gowarcOptionsMu serialises gowarc's option constructors: each one writes
// a package-wide uuid setting, which is a data race when sites write and
// read evidence concurrently. Every gowarc.New… call here holds it.
var gowarcOptionsMu sync.Mutex

// newRecordID makes a WARC-Record-ID (a random UUID URN) without the uuid
// package's shared pool, which gowarc's default generator reads unlocked.
func newRecordID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	return uuidURN(b), nil
}

// uuidURN is urn:uuid: and b in 8-4-4-4-12 lower-case hex digits, spelt
// out rather than through fmt (three IDs an exchange; fmt was half of
// their cost).
func uuidURN(b [16]byte) string {
	const prefix, digits = "urn:uuid:", "0123456789abcdef"
	var id [len(prefix) + 36]byte
	at := copy(id[:], prefix)
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			id[at] = '-'
			at++
		}
		id[at], id[at+1] = digits[c>>4], digits[c&0x0f]
		at += 2
	}
	return string(id[:])
}

// Create starts the WARC of site in batchDir (created if needed): the file,
// under a temporary name, begins with a warcinfo record holding info
// (software, batch, politeness settings...). The file itself is made when
// the first record is written (or at Seal, for a site with none): when a
// crawl starts thousands of sites at once, their first requests go out
// before their files are made, and a site stopped before it asked anything
// leaves no file behind.
//
// It fails with ErrExists when the site already has a manifest in this
// batch. A .open file left by an earlier attempt that never finished (a
// crash or Abort), or a complete SITE.warc.gz whose manifest was never
// written, is moved aside to SITE.warc.gz.aborted.N, kept for inspection
// and read by Unfinished, so an interrupted batch can be resumed.
func Create(batchDir, site string, info map[string]string) (*Writer, error) {
	if err := checkSite(site); err != nil {
		return nil, err
	}
	for k := range info {
		if err := checkFieldName(k); err != nil {
			return nil, fmt.Errorf("evidence: warcinfo: %w", err)
		}
	}
	if err := os.MkdirAll(batchDir, 0o755); err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	w := &Writer{
		site:         site,
		batch:        filepath.Base(filepath.Clean(batchDir)),
		openPath:     filepath.Join(batchDir, openName(site)),
		warcPath:     filepath.Join(batchDir, warcName(site)),
		manifestPath: filepath.Join(batchDir, manifestName(site)),
		requests:     map[int64]bool{},
		responses:    map[int64]string{},
	}
	there, err := exists(w.manifestPath)
	if err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	if there {
		return nil, fmt.Errorf("%w %s", ErrExists, w.manifestPath)
	}
	// A complete WARC without its manifest is what a crash or a full disk
	// between Close's rename and its manifest write leaves: whole evidence
	// that nothing describes. It is moved aside like an abandoned .open
	// file (never changed), so a resumed batch reuses its answers.
	// Unless another site's manifest already points at its records (a
	// host shared by several sites, and a crash between their manifests):
	// moving it would break evidence that is complete, so that is refused.
	if there, err := exists(w.warcPath); err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	} else if there {
		if other := storedFor(batchDir, site); other != "" {
			return nil, fmt.Errorf("evidence: %s is complete but has no manifest, and the manifest of %s points at its records; "+
				"it cannot be set aside without breaking that evidence: crawl the batch's sites sharing a host again as a new batch", w.warcPath, other)
		}
	}
	if err := moveAside(w.warcPath, w.warcPath); err != nil {
		return nil, err
	}
	if err := moveAside(w.openPath, w.warcPath); err != nil {
		return nil, err
	}
	w.info = info
	return w, nil
}

// begin makes the WARC file (never replacing one) and writes its warcinfo
// record; the file is left open for the records that follow.
func (w *Writer) begin() error {
	f, err := openFile(w.openPath, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	w.out = &countingWriter{file: hashedFile{hash: sha256.New()}} // the whole file's digest, across reopenings
	w.attach(f)
	if err := w.writeWarcinfo(w.info); err != nil {
		w.err = err
		return err
	}
	return nil
}

// bufPool shares write buffers between Writers: a buffer is needed only
// while records are written.
var bufPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 32<<10) }}

// attach makes f the file records are written to, through a pooled buffer.
func (w *Writer) attach(f *os.File) {
	w.file = f
	w.takeBuffer()
}

// takeBuffer gives the open file a pooled write buffer. The file's digest
// is taken of what the buffer writes to the file, in its large writes,
// rather than of every write into it: the compressor writes a record in
// pieces of some 250 bytes, and a hash call for each was a percent of the
// crawl's CPU.
func (w *Writer) takeBuffer() {
	w.buf = bufPool.Get().(*bufio.Writer)
	w.out.file.f = w.file
	w.buf.Reset(&w.out.file)
	w.out.w = w.buf
}

// dropBuffer flushes the write buffer to the file and returns it to the
// pool.
func (w *Writer) dropBuffer() error {
	err := w.buf.Flush()
	w.buf.Reset(nil)
	bufPool.Put(w.buf)
	w.buf, w.out.w, w.out.file.f = nil, nil, nil
	return err
}

// openFile opens the WARC to append records, making it first if needed.
func (w *Writer) openFile() error {
	if w.out == nil {
		return w.begin()
	}
	f, err := openFile(w.openPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	w.attach(f)
	return nil
}

// Hold keeps the WARC open from one record to the next, until the Writer
// is sealed or aborted, instead of opening it for each exchange: the
// caller has a descriptor to spare for it (see crawl.HeldFilesFor).
func (w *Writer) Hold() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.hold = true
}

// release ends the writing of an exchange: what was written reaches the
// file, which is closed unless the Writer holds it. A held file keeps no
// buffer while the site waits.
func (w *Writer) release() error {
	if !w.hold || w.file == nil {
		return w.detach()
	}
	if w.buf != nil {
		if err := w.dropBuffer(); err != nil && w.err == nil {
			w.err = fmt.Errorf("evidence: %s: %w", w.openPath, err)
		}
	}
	return w.err
}

// detach flushes what was written and closes the file, returning its
// buffer to the pool. A failure makes the Writer unusable.
func (w *Writer) detach() error {
	if w.file == nil {
		return nil
	}
	var ferr error
	if w.buf != nil {
		ferr = w.dropBuffer()
	}
	cerr := w.file.Close()
	w.file = nil
	if err := errors.Join(ferr, cerr); err != nil && w.err == nil {
		w.err = fmt.Errorf("evidence: %s: %w", w.openPath, err)
	}
	return w.err
}

// SetAside moves an abandoned SITE.warc.gz.open in batchDir to the first
// free SITE.warc.gz.aborted.N, as Create would. A resumed batch sets aside
// every interrupted site's file before any site starts again, so that sites
// sharing a host can read each other's interrupted attempts (see
// Unfinished) without meeting a file still being written.
func SetAside(batchDir, site string) error {
	if err := checkSite(site); err != nil {
		return err
	}
	return moveAside(filepath.Join(batchDir, openName(site)), filepath.Join(batchDir, warcName(site)))
}

// moveAside renames path, when it exists, to the first free
// WARC.aborted.N name (warcPath being the site's WARC name), so a new
// attempt can start without destroying it.
func moveAside(path, warcPath string) error {
	there, err := exists(path)
	if err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	if !there {
		return nil
	}
	for n := 1; n < 1000; n++ {
		err := renameNoReplace(path, warcPath+abortedSuffix+"."+strconv.Itoa(n))
		if !errors.Is(err, ErrExists) {
			return err
		}
	}
	return fmt.Errorf("evidence: too many aborted attempts next to %s", path)
}

// storedFor names a site of the batch whose manifest points at records
// stored by site ("" when none does).
func storedFor(batchDir, site string) string {
	names, err := filepath.Glob(filepath.Join(batchDir, "*"+manifestSuffix))
	if err != nil {
		return ""
	}
	for _, n := range names {
		m, err := ReadManifest(n)
		if err != nil || m.Site == site {
			continue
		}
		for _, a := range m.Addresses {
			for _, x := range a.Exchanges {
				if x.StoredBy == site {
					return m.Site
				}
			}
		}
	}
	return ""
}

// writeWarcinfo writes the file's first record, describing the software and
// settings that made it. Every later record points at it (WARC-Warcinfo-ID).
func (w *Writer) writeWarcinfo(info map[string]string) error {
	var f fields
	f.add("format", "WARC File Format 1.1")
	f.add("conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/")
	for _, k := range slices.Sorted(maps.Keys(info)) {
		f.add(k, info[k]) // names checked by Create
	}
	var block bytes.Buffer
	if err := f.writeTo(&block); err != nil {
		return err
	}
	id, err := newRecordID()
	if err != nil {
		return err
	}
	rec := member{
		fields: []field{{"WARC-Type", "warcinfo"}, {"WARC-Date", time.Now().UTC().Format(time.RFC3339Nano)},
			{"WARC-Filename", warcName(w.site)}, {"Content-Type", gowarc.ApplicationWarcFields}, {"WARC-Record-ID", "<" + id + ">"}},
		block: [][]byte{block.Bytes()},
	}
	if _, err := w.writeRaw(rec); err != nil {
		return err
	}
	w.warcinfoID = id
	return nil
}

// Close completes the WARC (Seal, unless sealed already) and then writes
// the manifest m, so that a manifest that exists always describes a complete
// WARC. It sets m.WARC to the WARC's file name, fills m.Site and m.Batch
// when empty (and refuses them when they name another site or batch), and
// refuses a manifest whose exchanges point at records this Writer did not
// write (exchanges stored by another site are that site's to prove, see
// Verify). Nothing existing is replaced: if SITE.warc.gz or SITE.json
// appeared meanwhile, Close fails with ErrExists.
func (w *Writer) Close(m Manifest) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed && !w.sealed {
		return fmt.Errorf("evidence: %s: writer already closed", w.site)
	}
	if w.done {
		return fmt.Errorf("evidence: %s: manifest already written", w.site)
	}
	if w.err != nil {
		return fmt.Errorf("evidence: %s: cannot complete after a write error (use Abort): %w", w.site, w.err)
	}
	if err := w.ensureBegun(); err != nil {
		return err
	}
	data, err := w.finishManifest(&m)
	if err != nil {
		return err
	}
	if !w.sealed {
		if err := w.seal(); err != nil {
			return err
		}
	}
	w.done = true
	if err := writeFileNoReplace(w.manifestPath, data); err != nil {
		return fmt.Errorf("evidence: %s: %w", w.site, err)
	}
	return nil
}

// Seal completes the WARC without writing the manifest: flushed, synced and
// renamed to its final name; no record can be added after it. A site whose
// manifest points at records another site stores (Exchange.StoredBy) seals
// its own WARC, waits until those sites have sealed theirs, and only then
// writes its manifest with Close, so a manifest that exists never names a
// WARC that does not. Sealing waits for nothing, so sites that point at
// each other's records cannot wait on each other.
func (w *Writer) Seal() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return fmt.Errorf("evidence: %s: writer already closed", w.site)
	}
	if w.err != nil {
		return fmt.Errorf("evidence: %s: cannot complete after a write error (use Abort): %w", w.site, w.err)
	}
	return w.seal()
}

func (w *Writer) seal() error {
	if err := w.ensureBegun(); err != nil {
		return err
	}
	w.closed = true
	if err := w.closeFile(true); err != nil {
		return err
	}
	if err := renameNoReplace(w.openPath, w.warcPath); err != nil {
		return fmt.Errorf("evidence: %s: %w", w.site, err)
	}
	w.sealed = true
	return nil
}

// ensureBegun makes the WARC of a site that wrote no record: evidence of a
// site is always a WARC, if only its warcinfo record.
func (w *Writer) ensureBegun() error {
	if w.out != nil {
		return nil
	}
	if err := w.begin(); err != nil {
		return err
	}
	return w.detach()
}

// finishManifest checks m against what was written and encodes it.
func (w *Writer) finishManifest(m *Manifest) ([]byte, error) {
	switch m.Site {
	case "":
		m.Site = w.site
	case w.site:
	default:
		return nil, fmt.Errorf("evidence: manifest for site %q given to the writer of %q", m.Site, w.site)
	}
	switch m.Batch {
	case "":
		m.Batch = w.batch
	case w.batch:
	default:
		return nil, fmt.Errorf("evidence: %s: manifest names batch %q, but the WARC is in %q", w.site, m.Batch, w.batch)
	}
	m.WARC = warcName(w.site)
	m.WARCSHA256 = hex.EncodeToString(w.out.file.hash.Sum(nil))
	for _, a := range m.Addresses {
		for i, x := range a.Exchanges {
			if x.StoredBy != "" && x.StoredBy != w.site {
				if err := checkSite(x.StoredBy); err != nil {
					return nil, fmt.Errorf("evidence: %s: manifest address %s, exchange %d: stored_by: %w", w.site, a.URL, i, err)
				}
				continue
			}
			if !w.requests[x.RequestOffset] {
				return nil, fmt.Errorf("evidence: %s: manifest address %s, exchange %d: no request record was written at offset %d", w.site, a.URL, i, x.RequestOffset)
			}
			if x.HasResponse() && w.responses[x.ResponseOffset] != x.ResponseID {
				return nil, fmt.Errorf("evidence: %s: manifest address %s, exchange %d: no response record %s was written at offset %d", w.site, a.URL, i, x.ResponseID, x.ResponseOffset)
			}
		}
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("evidence: %s: manifest: %w", w.site, err)
	}
	return append(data, '\n'), nil
}

// Abort stops writing and leaves the WARC under its .open name for
// inspection; no manifest is written, so readers ignore the site for this
// batch. Abort after Close or Seal does nothing (a sealed WARC is final).
func (w *Writer) Abort() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	return w.closeFile(false)
}

// closeFile closes the file if a write left it open. When the WARC is to
// become evidence (durable is true) it is fsynced: the rename that follows
// must never point at data that is not yet on disk.
func (w *Writer) closeFile(durable bool) error {
	if durable && w.file != nil && w.buf == nil && w.err == nil {
		// Held open (Hold), everything written reached it: sync it as it is.
		serr := w.file.Sync()
		if err := errors.Join(serr, w.detach()); err != nil {
			return fmt.Errorf("evidence: %s: %w", w.openPath, err)
		}
		return nil
	}
	err := w.detach()
	if !durable || err != nil {
		return err
	}
	f, err := openFile(w.openPath, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	serr := f.Sync()
	if err := errors.Join(serr, f.Close()); err != nil {
		return fmt.Errorf("evidence: %s: %w", w.openPath, err)
	}
	return nil
}

// countingWriter counts the bytes written through it; the count is the
// offset in the WARC file of the next byte. What it writes goes through
// the write buffer to file.
type countingWriter struct {
	w    io.Writer // the write buffer, while the file is open
	n    int64
	file hashedFile
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// hashedFile writes to the WARC file and hashes what it wrote: once the
// file is complete, the hash is that of the whole file. Every byte the
// count counts reaches it, as the buffer is flushed before the file is
// closed or synced, and a failed write leaves the Writer unusable.
type hashedFile struct {
	f    *os.File
	hash hash.Hash
}

func (h *hashedFile) Write(p []byte) (int, error) {
	n, err := h.f.Write(p)
	h.hash.Write(p[:n])
	return n, err
}
