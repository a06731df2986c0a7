package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nlnwa/gowarc/v3"
)

// Verify re-reads every record of every site's WARC in batchDir, checking
// every digest and every gzip member, and checks that every exchange in
// each manifest points at a record that is there, with the ID, target,
// status and payload digest the manifest says. It returns one error per
// problem, each naming the file and the record or offset; none means the
// batch is intact.
func Verify(batchDir string) []error {
	sites, err := Sites(batchDir)
	if err != nil {
		return []error{err}
	}
	v := &verifier{scans: map[string]*warcScan{}}
	var errs []error
	for _, site := range sites {
		errs = append(errs, v.site(batchDir, site)...)
	}
	orphans, err := Undescribed(batchDir)
	if err != nil {
		return append(errs, err)
	}
	for _, site := range orphans {
		errs = append(errs, fmt.Errorf("evidence: %s: a WARC without its manifest %s (the crawl stopped between writing the two); crawl -resume %s sets it aside and reuses its answers",
			filepath.Join(batchDir, warcName(site)), manifestName(site), filepath.Base(filepath.Clean(batchDir))))
	}
	return errs
}

// verifier scans each WARC of a batch once: a file holding answers shared
// with other sites is read for its own site and checked against every
// manifest that points into it, and its damage is reported once.
type verifier struct {
	scans map[string]*warcScan
}

// scan returns the scan of path and the problems found in it that were not
// reported before.
func (v *verifier) scan(path string) (*warcScan, []error) {
	if s, ok := v.scans[path]; ok {
		return s, nil
	}
	s := scanWARC(path)
	v.scans[path] = s
	return s, s.errs
}

func (v *verifier) site(batchDir, site string) []error {
	s, err := OpenSite(batchDir, site)
	if err != nil {
		return []error{err}
	}
	var errs []error
	scanOf := func(x Exchange) (*warcScan, error) {
		file, err := s.RecordFile(x)
		if err != nil {
			return nil, err
		}
		sc, found := v.scan(file)
		errs = append(errs, found...)
		return sc, nil
	}
	// The site's own WARC is scanned whatever its manifest points at.
	scanOf(Exchange{})
	manifestErrs := checkManifest(filepath.Join(batchDir, manifestName(site)), s.Manifest, scanOf)
	// A record too damaged to read has no ID to report; the manifests
	// know which record should have been there.
	for _, err := range errs {
		if re, ok := err.(*RecordError); ok && re.RecordID == "" {
			re.RecordID = responseIDAt(s.Manifest, re.File, re.Offset, s.RecordFile)
		}
	}
	errs = append(errs, manifestErrs...)
	// Every record reads and matches: what is left to change unseen are
	// the bytes around the records (gzip header flags, time, OS), which the
	// whole file's digest covers. Damage already named is not reported
	// twice.
	if want := s.Manifest.WARCSHA256; want != "" && len(errs) == 0 {
		if got, err := fileSHA256(s.WARCPath); err != nil {
			errs = append(errs, err)
		} else if got != want {
			errs = append(errs, fmt.Errorf("%w: %s: every record reads and matches its digests, but the file has sha256 %s and its manifest says %s: bytes outside the records (gzip headers) changed after it was written", ErrDigest, s.WARCPath, got, want))
		}
	}
	return errs
}

// responseIDAt is the ID of the response record m places at offset of file.
func responseIDAt(m *Manifest, file string, offset int64, fileOf func(Exchange) (string, error)) string {
	for _, a := range m.Addresses {
		for _, x := range a.Exchanges {
			if f, err := fileOf(x); err == nil && f == file && x.HasResponse() && x.ResponseOffset == offset {
				return x.ResponseID
			}
		}
	}
	return ""
}

// fileSHA256 is the hex sha256 of the whole file at path.
func fileSHA256(path string) (string, error) {
	if err := checkRegular(path); err != nil {
		return "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("evidence: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("evidence: %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// recordSummary is what the manifest check needs to know of a record.
type recordSummary struct {
	typ           gowarc.RecordType
	id            string
	target        string
	payloadDigest string
	status        int
}

type warcScan struct {
	path    string
	records map[int64]recordSummary // by offset of the gzip member
	broken  map[int64]bool          // offsets where a record could not be read
	// described holds the IDs of records a metadata record refers to.
	described map[string]bool
	errs      []error
}

// scanWARC reads the file from start to end. A record that cannot be read
// at all (a gzip or deflate error, a CRC mismatch, a broken header) leaves
// the reader lost inside the file; reading then resumes at the next offset
// where a record can be read, so one damaged record does not hide the
// state of all the records after it.
func scanWARC(path string) *warcScan {
	s := &warcScan{path: path, records: map[int64]recordSummary{}, broken: map[int64]bool{}, described: map[string]bool{}}
	if err := checkRegular(path); err != nil {
		s.errs = append(s.errs, err)
		return s
	}
	f, err := os.Open(path)
	if err != nil {
		s.errs = append(s.errs, fmt.Errorf("evidence: %w", err))
		return s
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		s.errs = append(s.errs, fmt.Errorf("evidence: %w", err))
		return s
	}
	size := info.Size()

	offset := int64(0)
	for {
		failedAt, err := s.scanFrom(f, size, offset)
		if err == nil {
			break
		}
		s.broken[failedAt] = true
		next, ok := nextReadable(f, size, failedAt+1)
		if !ok {
			s.errs = append(s.errs, &RecordError{File: path, Offset: failedAt, Err: fmt.Errorf("%w (no readable record after it)", err)})
			break
		}
		s.errs = append(s.errs, &RecordError{File: path, Offset: failedAt, Err: fmt.Errorf("%w (reading resumed at offset %d)", err, next)})
		offset = next
	}
	if first, ok := s.records[0]; !ok || first.typ != gowarc.Warcinfo {
		if !s.broken[0] {
			s.errs = append(s.errs, &RecordError{File: path, Offset: 0, Err: errors.New("file does not start with a warcinfo record")})
		}
	}
	return s
}

// scanFrom reads records from offset to the end of the file, noting each
// one and its problems. It stops at the first record it cannot read and
// returns that record's offset and the error.
func (s *warcScan) scanFrom(f *os.File, size, offset int64) (int64, error) {
	// A SectionReader seeks but does not close: the file stays ours.
	gowarcOptionsMu.Lock()
	r, err := gowarc.NewWarcFileReaderFromStream(io.NewSectionReader(f, 0, size), offset, readOptions()...)
	gowarcOptionsMu.Unlock()
	if err != nil {
		return offset, err
	}
	defer r.Close()
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) && rec.WarcRecord == nil {
			if rec.Offset < size {
				// gowarc also says EOF for a few stray bytes at the end
				// or a member that ends inside a WARC header.
				return rec.Offset, errors.New("data that is not a whole record")
			}
			return 0, nil
		}
		if err != nil {
			_ = rec.Close()
			return rec.Offset, err
		}
		s.note(rec)
		_ = rec.Close()
	}
}

func (s *warcScan) note(rec gowarc.Record) {
	wr := rec.WarcRecord
	sum := recordSummary{
		typ:           wr.Type(),
		id:            wr.RecordId(),
		target:        wr.WarcHeader().Get(gowarc.WarcTargetURI),
		payloadDigest: wr.WarcHeader().Get(gowarc.WarcPayloadDigest),
	}
	if b, ok := wr.Block().(gowarc.HttpResponseBlock); ok {
		sum.status = b.HttpStatusCode()
	}
	if sum.typ == gowarc.Metadata {
		for _, id := range wr.WarcHeader().GetAll(gowarc.WarcConcurrentTo) {
			s.described[strings.Trim(id, "<>")] = true
		}
	}
	s.records[rec.Offset] = sum
	for _, p := range checkRecord(rec) {
		s.errs = append(s.errs, &RecordError{File: s.path, Offset: rec.Offset, RecordID: sum.id, Err: p})
	}
}

// nextReadable finds the first offset at or after from where a gzip member
// starts and a whole record can be read from it. Candidates are found by
// the gzip magic bytes, which compressed data can also contain by chance;
// reading a record there tells the real starts from the false ones.
func nextReadable(f *os.File, size, from int64) (int64, bool) {
	magic := []byte{0x1f, 0x8b, 0x08}
	const chunk = 64 << 10
	buf := make([]byte, chunk+len(magic)-1)
	for pos := from; pos < size; pos += chunk {
		n, err := f.ReadAt(buf, pos)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, false
		}
		data := buf[:n]
		for i := 0; ; {
			j := bytes.Index(data[i:], magic)
			if j < 0 || i+j >= chunk {
				break
			}
			candidate := pos + int64(i+j)
			if readable(f, size, candidate) {
				return candidate, true
			}
			i += j + 1
		}
	}
	return 0, false
}

func readable(f *os.File, size, offset int64) bool {
	gowarcOptionsMu.Lock()
	r, err := gowarc.NewWarcFileReaderFromStream(io.NewSectionReader(f, 0, size), offset, readOptions()...)
	gowarcOptionsMu.Unlock()
	if err != nil {
		return false
	}
	defer r.Close()
	rec, err := r.Next()
	defer rec.Close()
	return err == nil && rec.Offset == offset
}

// checkManifest checks each exchange of m against the records found in the
// file that holds it (scanOf). Offsets already reported as unreadable are
// not reported again.
func checkManifest(manifestPath string, m *Manifest, scanOf func(Exchange) (*warcScan, error)) []error {
	var errs []error
	for _, a := range m.Addresses {
		for i, x := range a.Exchanges {
			s, err := scanOf(x)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: address %s, exchange %d: %w", manifestPath, a.URL, i, err))
				continue
			}
			fail := func(format string, args ...any) {
				errs = append(errs, fmt.Errorf("%s: address %s, exchange %d: %s: %s", manifestPath, a.URL, i, s.path, fmt.Sprintf(format, args...)))
			}
			req, reqOK := s.records[x.RequestOffset]
			if !s.broken[x.RequestOffset] {
				switch {
				case !reqOK:
					fail("no record starts at request offset %d", x.RequestOffset)
				case req.typ != gowarc.Request:
					fail("record %s at request offset %d is a %s record", req.id, x.RequestOffset, req.typ)
				case req.target != x.URL:
					fail("request record %s at offset %d is for %s, not %s", req.id, x.RequestOffset, req.target, x.URL)
				}
			}
			if !x.HasResponse() {
				if reqOK && req.typ == gowarc.Request {
					s.checkDescribed(req.id, fail)
				}
				continue
			}
			if s.broken[x.ResponseOffset] {
				continue
			}
			switch resp, ok := s.records[x.ResponseOffset]; {
			case !ok:
				fail("no record starts at response offset %d (record %s)", x.ResponseOffset, x.ResponseID)
			case resp.typ != gowarc.Response:
				fail("record %s at response offset %d is a %s record, want response %s", resp.id, x.ResponseOffset, resp.typ, x.ResponseID)
			case resp.id != x.ResponseID:
				fail("record at response offset %d is %s, want %s", x.ResponseOffset, resp.id, x.ResponseID)
			case resp.target != x.URL:
				fail("response record %s is for %s, not %s", resp.id, resp.target, x.URL)
			case resp.payloadDigest != "sha256:"+x.PayloadSHA256:
				fail("response record %s has payload digest %s, manifest says sha256:%s", resp.id, resp.payloadDigest, x.PayloadSHA256)
			case resp.status != x.Status:
				fail("response record %s has status %d, manifest says %d", resp.id, resp.status, x.Status)
			default:
				s.checkDescribed(resp.id, fail)
			}
		}
	}
	return errs
}

// checkDescribed checks that a metadata record refers to the record id.
// Every exchange ends with one (fetch time, error, the crawler's notes),
// so one missing means records were lost, as when a file is cut short at a
// member boundary. Where a part of the file could not be read at all, that
// is the problem already reported, and the metadata may simply be in it.
func (s *warcScan) checkDescribed(id string, fail func(string, ...any)) {
	if len(s.broken) == 0 && !s.described[id] {
		fail("no metadata record refers to record %s", id)
	}
}
