package crawl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"slices"
	"strings"
	"time"

	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/policy"
	"github.com/crawlsignals/crawlsignals/robots"
)

// MaxBody is the most we read of one answer, before and after decoding (design §2.2).
const MaxBody = policy.MaxBody

// hangUpGrace is added to the end of a request we hung up on before its
// body ended (over the cap, a type we do not read, too slow, an error): the
// server learns of it only when our reset reaches it and its next write
// fails, so its side of the request ends a moment after ours. The host's
// clock counts from the later end, so the floor holds on the server's side.
const hangUpGrace = 500 * time.Millisecond

// errEvidence marks a failure to write evidence: the run must not go on
// reading what it cannot keep.
var errEvidence = errors.New("evidence not written")

// errNotRecorded marks one exchange the WARC library refused to record:
// that address becomes a gap; the site's evidence goes on.
var errNotRecorded = errors.New("the exchange could not be kept as evidence")

// answer is one response as the crawler saw it.
type answer struct {
	url         string
	status      int
	header      http.Header
	contentType string
	location    string        // set for a redirect status with a Location
	retryAfter  time.Duration // for 429/503: -1 when not given
	body        []byte        // decoded, at most MaxBody
	tooLarge    bool
	encodingErr string
	challenge   string // the marker of a bot challenge or block page; "" when none

	// The answer as received, so another site sharing the host can read
	// it as its own request would have been read (see sharedAnswers).
	raw          []byte
	rawTruncated bool
	received     time.Time
}

// wait is how long a 429 or 503 asks us to wait before the retry.
func (a *answer) wait() time.Duration {
	if a.retryAfter < 0 {
		return NoHeaderRetry
	}
	return a.retryAfter
}

// ask makes one paced GET and records it as evidence. The body is read
// only when we will read its content type (decided from the headers first),
// or always for robots.txt. The host's turn is held from the start of the
// request to the end of its body; a request slot of the batch (Workers) only
// while the request is on the wire, not while the host's clock is waited out.
func (r *siteRun) ask(ctx context.Context, a *evidence.Address, rawURL, host string, always bool) (*answer, error) {
	if r.werr != nil {
		return nil, r.werr
	}
	resent := false
	for i := 0; ; {
		var ans *answer
		var err error
		if x, ok := r.seed.take(rawURL); ok {
			// Stored already (an interrupted attempt, or a robots.txt
			// younger than RobotsMaxAge): not asked again.
			ans, err = r.reuse(a, rawURL, host, x, always)
		} else {
			ans, err = r.send(ctx, a, rawURL, host, always)
		}
		if err != nil && errors.Is(err, guard.ErrStale) && !resent {
			// A kept connection closed under the request: the server may
			// have read it, so it was counted and recorded as sent. It goes
			// once more, on a new connection, when the host's clock allows
			// (send waits it like any request).
			resent = true
			continue
		}
		if err == nil || !errors.Is(err, errLocal) {
			return ans, err
		}
		if i == len(localRetries) {
			r.werr = err // the site fails loudly: never a gap for our own failure
			return nil, err
		}
		r.c.cfg.Logger.Warn("local failure; trying the request again", "url", rawURL, "err", err)
		if err := pause(ctx, localRetries[i]); err != nil {
			return nil, err
		}
		i++
	}
}

// send makes one paced request and records it. A request that failed for
// a local reason (errLocal) never left the machine: it is not recorded,
// and the host's clock is not moved by it.
func (r *siteRun) send(ctx context.Context, a *evidence.Address, rawURL, host string, always bool) (*answer, error) {
	done, err := r.c.pacer.wait(ctx, host)
	if err != nil {
		return nil, err
	}
	select {
	case r.c.slots <- struct{}{}:
	case <-ctx.Done():
		done(0, 0)
		return nil, ctx.Err()
	}
	release := func(hold, settle time.Duration) {
		<-r.c.slots
		done(hold, settle)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		release(0, 0)
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
	r.wave.sent()
	resp, err := r.c.cfg.Client.Do(req)
	raw := evidence.RawExchange{Time: started, Request: req, IP: remote, Meta: map[string]string{
		"found-via": a.FoundVia, "address": a.URL,
	}}
	if err != nil && isLocal(err) {
		release(0, 0)
		r.requests--
		return nil, fmt.Errorf("%s: %w: %v", rawURL, errLocal, unwrapURLError(err))
	}
	if err != nil {
		release(0, hangUpGrace) // the server may still be working on it
		raw.Err = err.Error()
		if ctx.Err() != nil {
			raw.Meta[evidence.InterruptedField] = "the crawl was stopped during this request"
		}
		r.record(a, raw)
		return nil, fmt.Errorf("%s: %w", rawURL, unwrapURLError(err))
	}
	r.answered++
	received := time.Now()
	hold := time.Duration(0)
	if resp.StatusCode == 429 || resp.StatusCode == 503 {
		why := ""
		if hold = retryAfterFrom(resp.Header, received); hold < 0 {
			hold = NoHeaderRetry
			why = fmt.Sprintf("HTTP %d without Retry-After: we wait %s", resp.StatusCode, secondsWords(hold))
		} else {
			why = "Retry-After " + secondsWords(hold)
		}
		r.c.pacer.note(host, why) // for the status lines; the turn is ours until release
	}
	contentType := resp.Header.Get("Content-Type")
	// The Content-Type decides before a byte of the body is read: an answer
	// of a type we do not read costs nothing beyond its headers. (A challenge
	// marked in the headers is known here too.)
	readIt := always || !(resp.StatusCode >= 200 && resp.StatusCode < 300 && extract.Kind(contentType) == "")
	var body []byte
	var readErr error
	if readIt {
		body, raw.Truncated, readErr = readCapped(resp.Body, MaxBody, resp.ContentLength)
	} else {
		raw.Meta["body"] = "not read: content type we do not read"
	}
	resp.Body.Close()
	settle := time.Duration(0)
	if !readIt && resp.ContentLength != 0 || raw.Truncated || readErr != nil {
		settle = hangUpGrace // we hung up on a body still coming
	}
	release(hold, settle)
	if r.requests == 1 {
		r.wave.wait(ctx, r.c.cfg.MinDelay)
	}
	raw.IP = remote
	raw.Response, raw.Body = resp, body
	if readErr != nil {
		raw.Err = "reading body: " + readErr.Error()
	}
	if err := r.record(a, raw); err != nil {
		return nil, err
	}
	if readErr != nil {
		return nil, fmt.Errorf("%s: reading body: %w", rawURL, unwrapURLError(readErr))
	}
	return r.read(rawURL, resp.StatusCode, resp.Header, body, raw.Truncated, always, received), nil
}

// read makes the crawler's answer of a response, fresh or stored: its
// redirect, its Retry-After (counted from received), its body decoded to
// the cap, and whether it is a bot challenge.
func (r *siteRun) read(rawURL string, status int, header http.Header, body []byte, truncated, always bool, received time.Time) *answer {
	ans := &answer{url: rawURL, status: status, header: header, contentType: header.Get("Content-Type"), retryAfter: -1,
		raw: body, rawTruncated: truncated, received: received}
	if isRedirect(status) {
		ans.location = header.Get("Location")
	}
	if status == 429 || status == 503 {
		ans.retryAfter = retryAfterFrom(header, received)
	}
	ans.tooLarge = truncated
	if len(body) > 0 && (!truncated || always) {
		// A page past the cap is a gap, not decoded. robots.txt is read as
		// far as RFC 9309 reads it (its first 500 KiB, and a byte to know
		// there was more), however long or however compressed.
		limit := int64(MaxBody)
		if always {
			limit = robots.MaxBytes + 1
		}
		var big bool
		ans.body, big, ans.encodingErr = decode(body, header.Values("Content-Encoding"), limit)
		ans.tooLarge = ans.tooLarge || big && !always
	}
	ans.challenge, _ = challengeOf(ans.status, header, ans.body)
	return ans
}

func (r *siteRun) record(a *evidence.Address, raw evidence.RawExchange) error {
	r.c.files <- struct{}{}
	ex, err := r.w.Record(raw)
	<-r.c.files
	if errors.Is(err, evidence.ErrRecordRefused) {
		return fmt.Errorf("%w: %v", errNotRecorded, err)
	}
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

// readCapped reads at most max bytes; truncated reports that more followed
// (one byte past the cap is read to know it, never more). size is the
// announced length (-1 when unknown): when it fits under the cap the buffer
// is made once. The buffer never grows past max+1 bytes, so no body is held
// beyond the cap, however it is sent.
func readCapped(r io.Reader, max, size int64) (body []byte, truncated bool, err error) {
	limit := int(max) + 1
	start := 64 << 10
	if size >= 0 && size < int64(limit) {
		start = int(size) + 1 // +1: room to see EOF without growing
	}
	buf := make([]byte, 0, min(start, limit))
	for len(buf) < limit {
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(2*cap(buf), limit))
			copy(grown, buf)
			buf = grown
		}
		n, rerr := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			err = rerr
			break
		}
	}
	if len(buf) > int(max) {
		return buf[:max], true, err
	}
	return buf, false, err
}

// decode undoes the Content-Encoding of a body as the build will
// (evidence.DecodePrefix), stopping at limit bytes so a decompression bomb
// costs no more than the cap. Past the limit it returns the first limit
// bytes and tooLarge; on a broken stream, what came before the break and
// the problem.
//
// A body without a coding is returned as it is, cut at the limit, not
// copied as DecodePrefix copies it: the answer holds the body received
// (raw) and the body decoded, and what reads the decoded one only reads
// it. The copy of every page was a percent of the crawler's CPU and the
// page's size again in memory until the site moved on.
func decode(body []byte, encodings []string, limit int64) (out []byte, tooLarge bool, problem string) {
	if !evidence.HasContentCoding(encodings) {
		if int64(len(body)) > limit {
			return body[:limit:limit], true, ""
		}
		return slices.Clip(body), false, ""
	}
	out, tooLarge, err := evidence.DecodePrefix(body, encodings, limit)
	switch {
	case err == nil:
		return out, tooLarge, ""
	case errors.Is(err, evidence.ErrUnsupportedEncoding):
		return nil, false, "content encoding " + strings.Join(encodings, ", ")
	}
	return out, false, "compressed body cannot be read: " + err.Error()
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
