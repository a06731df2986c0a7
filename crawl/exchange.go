package crawl

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/policy"
)

// MaxBody is the most we read of one answer, before and after decoding (design §2.2).
const MaxBody = policy.MaxBody

// errEvidence marks a failure to write evidence: the run must not go on
// reading what it cannot keep.
var errEvidence = errors.New("evidence not written")

// answer is one response as the crawler saw it.
type answer struct {
	url         string
	status      int
	contentType string
	location    string        // set for a redirect status with a Location
	retryAfter  time.Duration // for 429/503: -1 when not given
	body        []byte        // decoded, at most MaxBody
	tooLarge    bool
	encodingErr string
}

// exchange makes one paced GET and records it as evidence. The body is read
// only when we will read its content type (decided from the headers first),
// or always for robots.txt.
func (r *siteRun) exchange(ctx context.Context, a *evidence.Address, rawURL, host string, always bool) (*answer, error) {
	if r.werr != nil {
		return nil, r.werr
	}
	done, err := r.c.pacer.wait(ctx, host)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		done(0)
		return nil, err
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("From", r.contact())
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/plain;q=0.9,application/pdf;q=0.8,*/*;q=0.5")
	req.Header.Set("Accept-Encoding", "gzip")
	var remote string
	req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(ci httptrace.GotConnInfo) { remote = ci.Conn.RemoteAddr().String() },
	}))

	started := time.Now().UTC()
	r.requests++
	resp, err := r.c.cfg.Client.Do(req)
	raw := evidence.RawExchange{Time: started, Request: req, IP: remote, Meta: map[string]string{
		"found-via": a.FoundVia, "address": a.URL,
	}}
	if err != nil {
		done(0)
		raw.Err = err.Error()
		r.record(a, raw)
		return nil, fmt.Errorf("%s: %w", rawURL, unwrapURLError(err))
	}
	ans := &answer{url: rawURL, status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), retryAfter: -1}
	if isRedirect(resp.StatusCode) {
		ans.location = resp.Header.Get("Location")
	}
	hold := time.Duration(0)
	if resp.StatusCode == 429 || resp.StatusCode == 503 {
		ans.retryAfter = retryAfter(resp.Header.Get("Retry-After"), time.Now())
		hold = ans.retryAfter
		if hold < 0 {
			hold = NoHeaderRetry
		}
	}
	readIt := always || !(resp.StatusCode >= 200 && resp.StatusCode < 300 && extract.Kind(ans.contentType) == "")
	var body []byte
	var readErr error
	if readIt {
		body, raw.Truncated, readErr = readCapped(resp.Body, MaxBody)
	} else {
		raw.Meta["body"] = "not read: content type we do not read"
	}
	resp.Body.Close()
	done(hold)
	raw.IP = remote
	raw.Response, raw.Body = resp, body
	if readErr != nil {
		raw.Err = "reading body: " + readErr.Error()
	}
	if err := r.record(a, raw); err != nil {
		return nil, err
	}
	if readErr != nil {
		return nil, fmt.Errorf("%s: reading body: %w", rawURL, readErr)
	}
	ans.tooLarge = raw.Truncated
	if !ans.tooLarge && len(body) > 0 {
		ans.body, ans.tooLarge, ans.encodingErr = decode(body, resp.Header.Get("Content-Encoding"))
	}
	return ans, nil
}

func (r *siteRun) record(a *evidence.Address, raw evidence.RawExchange) error {
	ex, err := r.w.Record(raw)
	if err != nil {
		r.werr = fmt.Errorf("%w: %v", errEvidence, err)
		return r.werr
	}
	a.Exchanges = append(a.Exchanges, ex)
	return nil
}

func (r *siteRun) contact() string {
	if c := r.c.list.Global.Contact; c != "" {
		return c
	}
	return "crawler@crawlsignals.com"
}

func isRedirect(status int) bool {
	switch status {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// readCapped reads at most max bytes; truncated reports that more followed.
func readCapped(r io.Reader, max int64) (body []byte, truncated bool, err error) {
	body, err = io.ReadAll(io.LimitReader(r, max+1))
	if int64(len(body)) > max {
		return body[:max], true, err
	}
	return body, false, err
}

// decode undoes the Content-Encoding we accept, stopping at MaxBody so a
// decompression bomb costs no more than the cap.
func decode(body []byte, encoding string) (out []byte, tooLarge bool, problem string) {
	var rd io.Reader
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "", "identity":
		return body, false, ""
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, false, "gzip body cannot be read: " + err.Error()
		}
		rd = zr
	case "deflate":
		rd = flate.NewReader(bytes.NewReader(body))
	default:
		return nil, false, "content encoding " + encoding
	}
	out, truncated, err := readCapped(rd, MaxBody)
	if truncated {
		return nil, true, ""
	}
	if err != nil {
		return nil, false, "compressed body cannot be read: " + err.Error()
	}
	return out, false, ""
}

// unwrapURLError drops the "Get URL:" prefix the client adds; we name the
// address ourselves.
func unwrapURLError(err error) error {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			return inner
		}
	}
	return err
}
