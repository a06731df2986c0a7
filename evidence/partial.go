package evidence

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nlnwa/gowarc/v3"
)

// StoredExchange is one request and its answer read back from a WARC that
// was never completed (an interrupted attempt's .open or .aborted.N file).
// Only exchanges whose response record is whole and checked are returned:
// a resumed batch reuses them instead of asking the site again.
type StoredExchange struct {
	File     string      // the file it was read from
	Time     time.Time   // WARC-Date: when the request started
	Request  http.Header // the request headers as sent
	IP       string      // WARC-IP-Address, if recorded
	Response *StoredResponse
	// For a request that got no answer (Response nil): its address and
	// the transport error recorded with it (a timeout, a reset).
	URL, Err string
}

// InterruptedField is the metadata field (RawExchange.Meta) of a request
// that the crawl itself cut off when it was stopped: its failure is no
// answer of the host's, and a resumed run asks it again.
const InterruptedField = "interrupted"

// Address is the address asked, answered or not.
func (x StoredExchange) Address() string {
	if x.Response != nil {
		return x.Response.URL
	}
	return x.URL
}

// Unfinished returns the files an interrupted attempt at site left in
// batchDir: the .aborted.N files moved aside by later attempts, in order,
// then the .open file, if any. They are evidence too and are never changed.
func Unfinished(batchDir, site string) ([]string, error) {
	if err := checkSite(site); err != nil {
		return nil, err
	}
	aborted, err := filepath.Glob(filepath.Join(batchDir, glob(warcName(site))+abortedSuffix+".*"))
	if err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	num := func(p string) int {
		var n int
		_, _ = fmt.Sscanf(p[strings.LastIndexByte(p, '.')+1:], "%d", &n)
		return n
	}
	slices.SortFunc(aborted, func(a, b string) int { return num(a) - num(b) })
	open := filepath.Join(batchDir, openName(site))
	if there, err := exists(open); err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	} else if there {
		aborted = append(aborted, open)
	}
	return aborted, nil
}

// glob escapes the pattern characters of a file name for filepath.Glob.
func glob(name string) string {
	var b strings.Builder
	for _, r := range name {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ReadPartial reads the whole exchanges of a WARC file that may end in the
// middle of a record (the process writing it was killed). Records are read
// from the start; reading stops quietly at the first record that is not
// whole, since that is where the writer stopped. A response whose body was
// cut for any reason other than our size cap (WARC-Truncated other than
// "length") is not returned: it is not an answer to reuse. A record whose
// digests do not match is an error: the file is damaged, not merely cut.
func ReadPartial(path string) ([]StoredExchange, error) {
	if err := checkRegular(path); err != nil {
		return nil, err
	}
	gowarcOptionsMu.Lock()
	r, err := gowarc.NewWarcFileReader(path, 0, readOptions()...)
	gowarcOptionsMu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	defer r.Close()
	var out []StoredExchange
	requests := map[string]StoredExchange{} // by request record ID
	for {
		rec, err := r.Next()
		if err != nil {
			_ = rec.Close()
			if errors.Is(err, io.EOF) || rec.WarcRecord == nil {
				return out, nil
			}
			return out, nil // a member cut short: the end of what was written
		}
		x, keep, rerr := partialRecord(path, rec, requests)
		_ = rec.Close()
		if rerr != nil {
			return out, rerr
		}
		if keep {
			out = append(out, x)
		}
	}
}

// partialRecord notes a request record in requests, and returns the
// exchange a response record completes.
func partialRecord(path string, rec gowarc.Record, requests map[string]StoredExchange) (StoredExchange, bool, error) {
	wr := rec.WarcRecord
	if problems := checkRecord(rec); len(problems) > 0 {
		return StoredExchange{}, false, &RecordError{File: path, Offset: rec.Offset, RecordID: wr.RecordId(), Err: errors.Join(problems...)}
	}
	date, _ := wr.Date()
	switch wr.Type() {
	case gowarc.Request:
		block, ok := wr.Block().(gowarc.HttpRequestBlock)
		if !ok {
			return StoredExchange{}, false, nil
		}
		var h http.Header
		if p := block.HttpHeader(); p != nil {
			h = p.Clone()
		}
		requests[wr.RecordId()] = StoredExchange{File: path, Time: date, Request: h, IP: wr.WarcHeader().Get(gowarc.WarcIPAddress)}
	case gowarc.Metadata:
		// The metadata of a request that got no answer is concurrent to
		// the request itself, and names the error: a failure that
		// happened, kept so a resumed run counts it as the run did.
		x, found := concurrentRequest(wr, requests)
		if !found {
			return StoredExchange{}, false, nil
		}
		raw, err := wr.Block().RawBytes()
		if err != nil {
			return StoredExchange{}, false, nil
		}
		block, err := io.ReadAll(io.LimitReader(raw, 64<<10))
		if err != nil {
			return StoredExchange{}, false, nil
		}
		for line := range strings.SplitSeq(string(block), "\r\n") {
			if strings.HasPrefix(line, InterruptedField+": ") {
				return StoredExchange{}, false, nil // ended by us, not by the host
			}
			if e, ok := strings.CutPrefix(line, "error: "); ok {
				x.URL, x.Err = wr.WarcHeader().Get(gowarc.WarcTargetURI), e
			}
		}
		return x, x.Err != "", nil
	case gowarc.Response:
		if t := wr.WarcHeader().Get(gowarc.WarcTruncated); t != "" && t != "length" {
			return StoredExchange{}, false, nil
		}
		x, found := concurrentRequest(wr, requests)
		if !found {
			return StoredExchange{}, false, nil
		}
		block, ok := wr.Block().(gowarc.HttpResponseBlock)
		if !ok {
			return StoredExchange{}, false, nil
		}
		payload, err := block.PayloadBytes()
		if err != nil {
			return StoredExchange{}, false, &RecordError{File: path, Offset: rec.Offset, RecordID: wr.RecordId(), Err: err}
		}
		body, err := io.ReadAll(payload)
		if err != nil {
			return StoredExchange{}, false, &RecordError{File: path, Offset: rec.Offset, RecordID: wr.RecordId(), Err: err}
		}
		var header http.Header
		if h := block.HttpHeader(); h != nil {
			header = h.Clone()
		}
		x.Response = &StoredResponse{
			Status: block.HttpStatusCode(), Header: header, Body: body, RecordID: wr.RecordId(), Date: date,
			URL: wr.WarcHeader().Get(gowarc.WarcTargetURI), Truncated: wr.WarcHeader().Has(gowarc.WarcTruncated),
		}
		return x, true, nil
	}
	return StoredExchange{}, false, nil
}

// ModTime is the modification time of a file: for an interrupted WARC, a
// moment no earlier than the end of the last request it records.
func ModTime(path string) (time.Time, error) {
	st, err := os.Stat(path)
	if err != nil {
		return time.Time{}, fmt.Errorf("evidence: %w", err)
	}
	return st.ModTime(), nil
}

// concurrentRequest is the stored request a record is concurrent to.
func concurrentRequest(wr gowarc.WarcRecord, requests map[string]StoredExchange) (StoredExchange, bool) {
	for _, id := range wr.WarcHeader().GetAll(gowarc.WarcConcurrentTo) {
		if x, ok := requests[strings.Trim(id, "<>")]; ok {
			return x, true
		}
	}
	return StoredExchange{}, false
}
