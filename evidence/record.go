package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nlnwa/gowarc/v3"
)

// RawExchange is one request and what came back, as the crawler saw it.
type RawExchange struct {
	Time      time.Time      // when the request started
	Request   *http.Request  // as sent (method, URL, headers incl. User-Agent and From)
	Response  *http.Response // nil when there was no answer (then Err says why)
	Body      []byte         // the body bytes as received (content-encoding NOT undone), possibly cut at a cap
	Truncated bool           // true when Body stopped at the cap
	Err       string         // transport error, if any
	IP        string         // remote address, if known
	// Meta holds extra fields for the metadata record (found_via, link
	// text, outcome ...). Keys must be header-style tokens.
	Meta map[string]string
}

// ErrRecordRefused marks an exchange that could not be made into valid WARC
// records (the record builder refused it). Nothing of it was written and the
// Writer is still usable: the exchange is lost as evidence, the file is not.
var ErrRecordRefused = errors.New("record refused")

// Record writes x as a request record, a response record when there was an
// answer, and a metadata record, each its own gzip member, and returns where
// they are. Only the response body is held in memory (the caller's Body,
// at most 10 MB), and it is written as it is, never copied.
//
// After an error the WARC may hold a partial record: the Writer then refuses
// further records and Close, and the caller should Abort.
func (w *Writer) Record(x RawExchange) (Exchange, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return Exchange{}, fmt.Errorf("evidence: %s: writer is closed", w.site)
	}
	if w.err != nil {
		return Exchange{}, w.err
	}
	if x.Request == nil || x.Request.URL == nil {
		return Exchange{}, fmt.Errorf("evidence: %s: exchange without a request URL", w.site)
	}
	for k := range x.Meta {
		if err := checkFieldName(k); err != nil {
			return Exchange{}, fmt.Errorf("evidence: %s: metadata of %s: %w", w.site, x.Request.URL, err)
		}
	}
	if x.Time.IsZero() {
		x.Time = time.Now()
	}
	target := x.Request.URL.String()
	ex := Exchange{URL: target}
	reqID, err := newRecordID()
	if err != nil {
		return Exchange{}, err
	}
	date := x.Time.UTC().Format(time.RFC3339Nano)
	ip := warcIP(x.IP)
	httpFields := func(typ, id string) []field {
		f := []field{{"WARC-Type", typ}, {"WARC-Target-URI", target}, {"WARC-Date", date},
			{"Content-Type", "application/http;msgtype=" + typ}}
		if ip != "" {
			f = append(f, field{"WARC-IP-Address", ip})
		}
		return append(f, field{"WARC-Record-ID", "<" + id + ">"})
	}

	// Every record is built before anything is written, so an error here
	// leaves no half-recorded exchange in the file. What no WARC reader
	// could parse is refused: that costs the exchange, never the file.
	if strings.ContainsFunc(target, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return Exchange{}, fmt.Errorf("evidence: %s: %q: %w: white space or a control character in the address", w.site, target, ErrRecordRefused)
	}
	head := requestHead(x.Request)
	if err := checkHead(head); err != nil {
		return Exchange{}, fmt.Errorf("evidence: %s: request record for %s: %w: %w", w.site, target, ErrRecordRefused, err)
	}
	req := member{fields: httpFields("request", reqID), block: [][]byte{head}, payload: emptyPayload}
	var resp *member
	refersTo := reqID
	if x.Response != nil {
		respID, err := newRecordID()
		if err != nil {
			return Exchange{}, err
		}
		head := responseHead(x.Response)
		if err := checkHead(head); err != nil {
			return Exchange{}, fmt.Errorf("evidence: %s: response record for %s: %w: %w", w.site, target, ErrRecordRefused, err)
		}
		sum := sha256.Sum256(x.Body)
		resp = &member{fields: httpFields("response", respID), block: [][]byte{head, x.Body}, payload: sha256Label(sum[:])}
		switch {
		case x.Truncated:
			resp.fields = append(resp.fields, field{"WARC-Truncated", "length"})
		case x.Err != "":
			// An error after the head arrived: the body may be cut short
			// for a reason we cannot name more exactly.
			resp.fields = append(resp.fields, field{"WARC-Truncated", "unspecified"})
		}
		req.fields = append(req.fields, field{"WARC-Concurrent-To", "<" + respID + ">"})
		resp.fields = append(resp.fields, field{"WARC-Concurrent-To", "<" + reqID + ">"})
		ex.PayloadSHA256 = hex.EncodeToString(sum[:])
		ex.Status = x.Response.StatusCode
		ex.ResponseID = respID
		refersTo = respID
	}
	meta, err := w.metadata(target, date, x, refersTo)
	if err != nil {
		return Exchange{}, err
	}

	switch {
	case w.file == nil:
		if err := w.openFile(); err != nil {
			w.err = err
			return Exchange{}, err
		}
	case w.buf == nil: // held open (Hold)
		w.takeBuffer()
	}
	// Each whole exchange reaches the file before the next request: a
	// process killed later (kill -9) leaves it readable in the .open file,
	// so a resumed batch reuses it instead of asking the site again.
	defer w.release()
	if ex.RequestOffset, err = w.writeRaw(req); err != nil {
		return Exchange{}, err
	}
	w.requests[ex.RequestOffset] = true
	if resp != nil {
		if ex.ResponseOffset, err = w.writeRaw(*resp); err != nil {
			return Exchange{}, err
		}
		w.responses[ex.ResponseOffset] = ex.ResponseID
	}

	if _, err := w.writeRaw(meta); err != nil {
		return Exchange{}, err
	}
	if err := w.release(); err != nil {
		return Exchange{}, err
	}
	return ex, nil
}

// metadata builds the record of what the HTTP records cannot hold: the
// fetch time, the address, the transport error, the cut at the cap, what we
// changed in the stored head, and the crawler's own fields (Meta). It
// refers to the response, or to the request when there was no answer.
func (w *Writer) metadata(target, date string, x RawExchange, refersTo string) (member, error) {
	var f fields
	f.add("fetch-time", x.Time.UTC().Format(time.RFC3339Nano))
	if x.IP != "" {
		f.add("ip", x.IP)
	}
	if x.Err != "" {
		f.add("error", x.Err)
	}
	if x.Response != nil {
		f.add("body-bytes", strconv.Itoa(len(x.Body)))
		if x.Truncated {
			f.add("truncated", "true")
		}
		if te := x.Response.TransferEncoding; len(te) > 0 {
			// Dropped from the stored head, see responseHead.
			f.add("http-transfer-encoding-removed", strings.Join(te, ", "))
		}
		merged, kept := trailerFields(x.Response)
		if len(merged) > 0 {
			// Written with the headers, see responseHead.
			f.add("http-trailer-fields-in-head", strings.Join(merged, ", "))
		}
		for _, name := range kept {
			for _, v := range x.Response.Trailer[name] {
				f.add("http-trailer", name+": "+v)
			}
		}
		if x.Response.Uncompressed {
			// Go's transport decoded the body and removed
			// Content-Encoding: what is stored is not what was sent.
			f.add("http-body-decoded-by-client", "true")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(x.Meta)) {
		f.add(k, x.Meta[k])
	}
	id, err := newRecordID()
	if err != nil {
		return member{}, err
	}
	var block bytes.Buffer
	if err := f.writeTo(&block); err != nil {
		return member{}, err
	}
	return member{
		fields: []field{{"WARC-Type", "metadata"}, {"WARC-Target-URI", target}, {"WARC-Date", date},
			{"Content-Type", gowarc.ApplicationWarcFields}, {"WARC-Concurrent-To", "<" + refersTo + ">"}, {"WARC-Record-ID", "<" + id + ">"}},
		block: [][]byte{block.Bytes()},
	}, nil
}

// emptyPayload is the WARC-Payload-Digest of a request, which has no body.
var emptyPayload = func() string {
	none := sha256.Sum256(nil)
	return sha256Label(none[:])
}()

// warcIP returns the IP address of addr ("1.2.3.4", "1.2.3.4:443",
// "[::1]:443") for WARC-IP-Address, or "" when it holds none (the raw value
// still goes to the metadata record).
func warcIP(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	if ip := net.ParseIP(addr); ip != nil {
		return ip.String()
	}
	return ""
}
