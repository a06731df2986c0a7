package evidence

import (
	"crypto/sha256"
	"encoding/hex"
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

// Record writes x as a request record, a response record when there was an
// answer, and a metadata record, each its own gzip member, and returns where
// they are. Only the response body is held in memory (the caller's Body);
// gowarc buffers each record's block, spilling to a temporary file beyond
// 1 MiB, so bodies of 10 MB are fine.
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

	// Build both HTTP records before writing either, so each can name the
	// other in WARC-Concurrent-To (gowarc assigns IDs in Build).
	req, err := w.buildHTTP(gowarc.Request, target, x, requestHead(x.Request), nil)
	if err != nil {
		return Exchange{}, err
	}
	defer req.Close()
	var resp gowarc.WarcRecord
	if x.Response != nil {
		resp, err = w.buildHTTP(gowarc.Response, target, x, responseHead(x.Response), x.Body)
		if err != nil {
			return Exchange{}, err
		}
		defer resp.Close()
		req.WarcHeader().AddId(gowarc.WarcConcurrentTo, resp.RecordId())
		resp.WarcHeader().AddId(gowarc.WarcConcurrentTo, req.RecordId())

		sum := sha256.Sum256(x.Body)
		ex.PayloadSHA256 = hex.EncodeToString(sum[:])
		ex.Status = x.Response.StatusCode
		ex.ResponseID = resp.RecordId()
		// Our digest and gowarc's must agree, or the payload gowarc saw
		// is not the body we were given (a head/body split gone wrong).
		if got := resp.WarcHeader().Get(gowarc.WarcPayloadDigest); got != "sha256:"+ex.PayloadSHA256 {
			return Exchange{}, fmt.Errorf("evidence: %s: %s: payload digest %s, want sha256:%s", w.site, target, got, ex.PayloadSHA256)
		}
	}

	// The metadata record too is built before anything is written, so an
	// error here leaves no half-recorded exchange in the file.
	meta, err := w.buildMetadata(target, x, req, resp)
	if err != nil {
		return Exchange{}, err
	}
	defer meta.Close()

	if err := w.openFile(); err != nil {
		w.err = err
		return Exchange{}, err
	}
	// Each whole exchange reaches the file before the next request: a
	// process killed later (kill -9) leaves it readable in the .open file,
	// so a resumed batch reuses it instead of asking the site again.
	defer w.detach()
	if ex.RequestOffset, err = w.writeMember(req); err != nil {
		return Exchange{}, err
	}
	w.requests[ex.RequestOffset] = true
	if resp != nil {
		if ex.ResponseOffset, err = w.writeMember(resp); err != nil {
			return Exchange{}, err
		}
		w.responses[ex.ResponseOffset] = ex.ResponseID
	}

	if _, err := w.writeMember(meta); err != nil {
		return Exchange{}, err
	}
	if err := w.detach(); err != nil {
		return Exchange{}, err
	}
	return ex, nil
}

// buildHTTP builds a request or response record whose block is head
// followed by body.
func (w *Writer) buildHTTP(typ gowarc.RecordType, target string, x RawExchange, head, body []byte) (gowarc.WarcRecord, error) {
	gowarcOptionsMu.Lock()
	rb := gowarc.NewRecordBuilder(typ, recordOptions()...)
	gowarcOptionsMu.Unlock()
	rb.AddWarcHeader(gowarc.WarcTargetURI, target)
	rb.AddWarcHeaderTime(gowarc.WarcDate, x.Time)
	rb.AddWarcHeader(gowarc.ContentType, "application/http;msgtype="+strings.ToLower(typ.String()))
	if ip := warcIP(x.IP); ip != "" {
		rb.AddWarcHeader(gowarc.WarcIPAddress, ip)
	}
	if typ == gowarc.Response {
		switch {
		case x.Truncated:
			rb.AddWarcHeader(gowarc.WarcTruncated, "length")
		case x.Err != "":
			// An error after the head arrived: the body may be cut short
			// for a reason we cannot name more exactly.
			rb.AddWarcHeader(gowarc.WarcTruncated, "unspecified")
		}
	}
	_, err := rb.Write(head)
	if err == nil && len(body) > 0 {
		_, err = rb.Write(body)
	}
	if err != nil {
		_ = rb.Close()
		return nil, fmt.Errorf("evidence: %s: %s record for %s: %w", w.site, typ, target, err)
	}
	rec, err := build(rb)
	if err != nil {
		return nil, fmt.Errorf("evidence: %s: %s record for %s: %w", w.site, typ, target, err)
	}
	return rec, nil
}

// buildMetadata records what the HTTP records cannot hold: the fetch time,
// the address, the transport error, the cut at the cap, what we changed in
// the stored head, and the crawler's own fields (Meta). It refers to the
// response, or to the request when there was no answer.
func (w *Writer) buildMetadata(target string, x RawExchange, req, resp gowarc.WarcRecord) (gowarc.WarcRecord, error) {
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
		if x.Response.Uncompressed {
			// Go's transport decoded the body and removed
			// Content-Encoding: what is stored is not what was sent.
			f.add("http-body-decoded-by-client", "true")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(x.Meta)) {
		f.add(k, x.Meta[k])
	}

	gowarcOptionsMu.Lock()
	rb := gowarc.NewRecordBuilder(gowarc.Metadata, recordOptions()...)
	gowarcOptionsMu.Unlock()
	rb.AddWarcHeader(gowarc.WarcTargetURI, target)
	rb.AddWarcHeaderTime(gowarc.WarcDate, x.Time)
	rb.AddWarcHeader(gowarc.ContentType, gowarc.ApplicationWarcFields)
	refersTo := req
	if resp != nil {
		refersTo = resp
	}
	rb.AddWarcHeader(gowarc.WarcConcurrentTo, "<"+refersTo.RecordId()+">")
	if err := f.writeTo(rb); err != nil {
		_ = rb.Close()
		return nil, err
	}
	rec, err := build(rb)
	if err != nil {
		return nil, fmt.Errorf("evidence: %s: metadata record for %s: %w", w.site, target, err)
	}
	return rec, nil
}

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
