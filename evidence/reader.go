package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nlnwa/gowarc/v3"
)

// ReadManifest reads a manifest file. Unknown fields are allowed, so a
// manifest written by a later version stays readable; trailing data is not.
func ReadManifest(path string) (*Manifest, error) {
	if err := checkRegular(path); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("evidence: %s: %w", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("evidence: %s: data after the manifest", path)
	}
	if m.Site == "" {
		return nil, fmt.Errorf("evidence: %s: manifest names no site", path)
	}
	return &m, nil
}

// Site is one site's evidence in one batch: its manifest, and its WARC to
// read records from.
type Site struct {
	Manifest *Manifest
	WARCPath string // path of the site's WARC file

	// The WARC files read so far (the site's own, and another site's for a
	// shared answer), kept open until Close: a build reads five to ten
	// records of each site, and opening the file for each was a twentieth
	// of its CPU. A small file's bytes are read once, when its first
	// record is (see warcFile): every record is checked against its
	// digests as it is read from them, and a file changed after that is
	// found by the next Site to read it.
	mu    sync.Mutex
	files map[string]*warcFile
}

// warcFile is an open WARC file, and its bytes when it is small enough to
// hold: a record is then decompressed from memory, which klauspost's
// inflate reads a seventh faster than through a buffered reader of the
// file, and the file is read in one call rather than 32 KiB at a time.
// Evidence is never changed once written, so the bytes read stay true.
type warcFile struct {
	f    *os.File
	data []byte // the whole file as opened, or nil
}

// wholeFileMax is the largest WARC a Site holds in memory: a site's is
// some 300 KB of real pages, and one with several large PDFs is read from
// the file instead.
const wholeFileMax = 16 << 20

// openWARC opens the WARC file at path (a regular file only) and reads it
// whole when it is small enough.
func openWARC(path string) (*warcFile, error) {
	if err := checkRegular(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	wf := &warcFile{f: f}
	if fi, err := f.Stat(); err == nil && fi.Size() <= wholeFileMax {
		data := make([]byte, fi.Size())
		if n, err := f.ReadAt(data, 0); err == nil || errors.Is(err, io.EOF) {
			wf.data = data[:n]
		}
	}
	return wf, nil
}

// Close closes the WARC files the Site opened to read records. Reading
// again afterwards opens them again.
func (s *Site) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, wf := range s.files {
		errs = append(errs, wf.f.Close())
	}
	s.files = nil
	return errors.Join(errs...)
}

// open returns the open WARC file at path, opening it (a regular file
// only) the first time.
func (s *Site) open(path string) (*warcFile, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if wf := s.files[path]; wf != nil {
		return wf, nil
	}
	wf, err := openWARC(path)
	if err != nil {
		return nil, err
	}
	if s.files == nil {
		s.files = map[string]*warcFile{}
	}
	s.files[path] = wf
	return wf, nil
}

// OpenSite reads the manifest of site in batchDir and checks that it names
// this site and that its WARC is there.
func OpenSite(batchDir, site string) (*Site, error) {
	if err := checkSite(site); err != nil {
		return nil, err
	}
	path := filepath.Join(batchDir, manifestName(site))
	m, err := ReadManifest(path)
	if err != nil {
		return nil, err
	}
	if m.Site != site {
		return nil, fmt.Errorf("evidence: %s: manifest is for site %q", path, m.Site)
	}
	// The manifest's WARC name is ours to choose and always the same; any
	// other name (say "../x") is not to be followed.
	if m.WARC != warcName(site) {
		return nil, fmt.Errorf("evidence: %s: manifest names WARC %q, want %q", path, m.WARC, warcName(site))
	}
	s := &Site{Manifest: m, WARCPath: filepath.Join(batchDir, m.WARC)}
	if err := checkRegular(s.WARCPath); err != nil {
		return nil, fmt.Errorf("evidence: %s: %w", path, err)
	}
	checked := map[string]bool{}
	for _, a := range m.Addresses {
		for _, x := range a.Exchanges {
			if x.StoredBy == "" || checked[x.StoredBy] {
				continue
			}
			checked[x.StoredBy] = true
			file, err := s.RecordFile(x)
			if err != nil {
				return nil, fmt.Errorf("evidence: %s: address %s: %w", path, a.URL, err)
			}
			if _, err := os.Stat(file); err != nil {
				return nil, fmt.Errorf("evidence: %s: address %s: records stored by %s: %w", path, a.URL, x.StoredBy, err)
			}
		}
	}
	return s, nil
}

// RecordFile is the WARC file holding x's records: the site's own, or, for
// an answer shared with another site of the batch, that site's WARC beside
// it. Only a plain site name is followed, never a path.
func (s *Site) RecordFile(x Exchange) (string, error) {
	if x.StoredBy == "" || x.StoredBy == s.Manifest.Site {
		return s.WARCPath, nil
	}
	if err := checkSite(x.StoredBy); err != nil {
		return "", fmt.Errorf("stored_by: %w", err)
	}
	return filepath.Join(filepath.Dir(s.WARCPath), warcName(x.StoredBy)), nil
}

// StoredResponse is a response record read back and checked.
type StoredResponse struct {
	Status   int
	Header   http.Header
	Body     []byte // as stored: as received, Content-Encoding not undone
	RecordID string
	Date     time.Time // WARC-Date: when the request started

	URL string // WARC-Target-URI
	// Truncated is set when the body is not complete (WARC-Truncated):
	// cut at the size cap, or the transfer broke off.
	Truncated bool
}

// RecordError is a problem with one record of a WARC file.
type RecordError struct {
	File     string
	Offset   int64
	RecordID string // empty when the record could not be read far enough
	Err      error
}

func (e *RecordError) Error() string {
	if e.RecordID == "" {
		return fmt.Sprintf("%s: offset %d: %v", e.File, e.Offset, e.Err)
	}
	return fmt.Sprintf("%s: offset %d: record %s: %v", e.File, e.Offset, e.RecordID, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// ErrDigest is wrapped by every error about stored bytes that no longer
// match their digest.
var ErrDigest = errors.New("digest mismatch")

// Response reads the response record of x (in the WARC RecordFile names)
// and checks it: the record must
// start at x.ResponseOffset, carry x.ResponseID, and its block and payload
// must match their WARC digests, and the payload x.PayloadSHA256 too. Any
// mismatch is a *RecordError naming the file, the offset and the record.
func (s *Site) Response(x Exchange) (*StoredResponse, error) {
	file, err := s.RecordFile(x)
	if err != nil {
		return nil, fmt.Errorf("evidence: %s: exchange for %s: %w", s.WARCPath, x.URL, err)
	}
	if !x.HasResponse() {
		return nil, fmt.Errorf("evidence: %s: exchange for %s has no response", file, x.URL)
	}
	if wf, err := s.open(file); err == nil {
		if resp, ok := quickResponse(wf, x); ok {
			return resp, nil
		}
	}
	return carefulResponse(file, x)
}

// carefulResponse reads the response record of x through gowarc, which
// validates everything and names what it finds wrong.
func carefulResponse(file string, x Exchange) (*StoredResponse, error) {
	fail := func(err error) error {
		return &RecordError{File: file, Offset: x.ResponseOffset, RecordID: x.ResponseID, Err: err}
	}
	rec, done, err := readRecordAt(file, x.ResponseOffset)
	if err != nil {
		return nil, fail(err)
	}
	defer done()
	if problems := checkRecord(rec); len(problems) > 0 {
		return nil, fail(errors.Join(problems...))
	}
	wr := rec.WarcRecord
	if wr.Type() != gowarc.Response {
		return nil, fail(fmt.Errorf("record %s is a %s record, not a response", wr.RecordId(), wr.Type()))
	}
	if id := wr.RecordId(); id != x.ResponseID {
		return nil, fail(fmt.Errorf("record at this offset is %s", id))
	}
	if u := wr.WarcHeader().Get(gowarc.WarcTargetURI); u != x.URL {
		return nil, fail(fmt.Errorf("record is for %s, not %s", u, x.URL))
	}
	block, ok := wr.Block().(gowarc.HttpResponseBlock)
	if !ok {
		return nil, fail(errors.New("block is not an HTTP response"))
	}
	payload, err := block.PayloadBytes()
	if err != nil {
		return nil, fail(err)
	}
	body, err := io.ReadAll(payload)
	if err != nil {
		return nil, fail(err)
	}
	sum := sha256.Sum256(body)
	if got := hex.EncodeToString(sum[:]); got != x.PayloadSHA256 {
		return nil, fail(fmt.Errorf("%w: body has sha256 %s, manifest says %s", ErrDigest, got, x.PayloadSHA256))
	}
	if block.HttpStatusCode() != x.Status {
		return nil, fail(fmt.Errorf("status is %d, manifest says %d", block.HttpStatusCode(), x.Status))
	}
	date, err := wr.Date()
	if err != nil {
		return nil, fail(err)
	}
	var header http.Header
	if h := block.HttpHeader(); h != nil {
		header = h.Clone()
	}
	return &StoredResponse{
		Status:    block.HttpStatusCode(),
		Header:    header,
		Body:      body,
		RecordID:  wr.RecordId(),
		Date:      date,
		URL:       x.URL,
		Truncated: wr.WarcHeader().Has(gowarc.WarcTruncated),
	}, nil
}

// readOptions make gowarc report, not ignore, everything it can find wrong
// in a record; the default ignores errors in HTTP heads and warc-fields
// blocks.
func readOptions() []gowarc.WarcRecordOption {
	return []gowarc.WarcRecordOption{
		gowarc.WithSyntaxErrorPolicy(gowarc.ErrWarn),
		gowarc.WithSpecViolationPolicy(gowarc.ErrWarn),
		gowarc.WithUnknownRecordTypePolicy(gowarc.ErrWarn),
		gowarc.WithBlockErrorPolicy(gowarc.ErrWarn),
	}
}

// readRecordAt reads the record whose gzip member starts at offset. gowarc
// checks the digests while reading (it reads the whole block to do so) and
// the gzip CRC when the member ends. done releases the record and the file.
func readRecordAt(path string, offset int64) (rec gowarc.Record, done func(), err error) {
	if err := checkRegular(path); err != nil {
		return gowarc.Record{}, nil, err
	}
	gowarcOptionsMu.Lock()
	r, err := gowarc.NewWarcFileReader(path, offset, readOptions()...)
	gowarcOptionsMu.Unlock()
	if err != nil {
		return gowarc.Record{}, nil, err
	}
	rec, err = r.Next()
	if err != nil {
		_ = rec.Close()
		_ = r.Close()
		if errors.Is(err, io.EOF) {
			err = errors.New("no record at this offset (end of file)")
		}
		return gowarc.Record{}, nil, err
	}
	done = func() {
		_ = rec.Close()
		_ = r.Close()
	}
	if rec.Offset != offset {
		done()
		// gowarc skips forward to the next record start it finds.
		return gowarc.Record{}, nil, fmt.Errorf("no record starts at this offset (the next one is at %d)", rec.Offset)
	}
	return rec, done, nil
}

// checkRecord returns what is wrong with a record read by gowarc: its
// validation findings (digest mismatches among them), and missing digests,
// since gowarc silently skips the check of a digest that is absent.
func checkRecord(rec gowarc.Record) []error {
	var problems []error
	for _, v := range rec.Validation {
		var de *gowarc.DigestError
		if errors.As(v, &de) {
			v = fmt.Errorf("%w: %v", ErrDigest, v)
		}
		problems = append(problems, v)
	}
	h := rec.WarcRecord.WarcHeader()
	if !h.Has(gowarc.WarcBlockDigest) {
		problems = append(problems, errors.New("no WARC-Block-Digest"))
	}
	switch rec.WarcRecord.Type() {
	case gowarc.Request, gowarc.Response:
		if !h.Has(gowarc.WarcPayloadDigest) {
			problems = append(problems, errors.New("no WARC-Payload-Digest"))
		}
	}
	return problems
}
