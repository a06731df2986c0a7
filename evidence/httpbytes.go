package evidence

import (
	"bytes"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// requestHead rebuilds the HTTP/1.1 request head (request line and headers,
// ending in the blank line) from the request as the crawler sent it.
//
// Go never gives us the bytes it put on the wire, so this is a faithful
// rebuild rather than a capture: the request line carries path and query,
// the Host header comes first (as HTTP/1.1 requires), then the headers the
// crawler set, in sorted order so the same request always gives the same
// record. Headers the transport adds on its own (Accept-Encoding when the
// crawler did not set it, Content-Length, Connection) are not in
// Request.Header and so are not recorded; the crawler sets the headers
// that matter (User-Agent, From, Accept-Encoding) itself.
func requestHead(req *http.Request) []byte {
	var b bytes.Buffer
	b.Grow(512) // our requests' heads are 300–400 bytes
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	b.WriteString(method)
	b.WriteByte(' ')
	b.WriteString(req.URL.RequestURI())
	b.WriteString(" HTTP/1.1\r\n")

	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	writeHeaderLine(&b, "Host", host)
	writeHeaders(&b, req.Header, "Host")
	b.WriteString("\r\n")
	return b.Bytes()
}

// responseHead rebuilds the response's status line and headers as received.
//
// Go has already undone chunked transfer coding (the body we store is the
// de-chunked one), so a Transfer-Encoding header would describe bytes we do
// not have and would make every WARC reader mis-parse the body; it is left
// out, and the metadata record says it was there. Content-Encoding is kept:
// the body is stored still encoded. Go keeps no header order, so headers are
// written sorted by name, each name's values in the order received.
//
// Trailer fields (sent after a chunked body) have no place in a message
// whose body is stored whole, so they are written with the headers, where
// a reader of the record (the build reading X-Robots-Tag) finds them, and
// the metadata record names them as trailers (see trailerFields); those
// that would change how the stored body reads are not merged but kept in
// the metadata alone.
func responseHead(resp *http.Response) []byte {
	var b bytes.Buffer
	b.Grow(512)
	proto := resp.Proto
	if _, _, ok := http.ParseHTTPVersion(proto); !ok {
		proto = "HTTP/1.1"
	}
	b.WriteString(proto)
	b.WriteByte(' ')
	b.WriteString(statusText(resp))
	b.WriteString("\r\n")
	h := resp.Header
	if merged, _ := trailerFields(resp); len(merged) > 0 {
		h = h.Clone()
		for _, name := range merged {
			h[name] = append(h[name], resp.Trailer[name]...)
		}
	}
	writeHeaders(&b, h, "Transfer-Encoding")
	b.WriteString("\r\n")
	return b.Bytes()
}

// unmergedTrailers are fields that describe the body's framing or form: as
// trailers they are not merged into the stored head (they would say
// something of the stored body that the head does not).
var unmergedTrailers = map[string]bool{
	"Content-Length": true, "Transfer-Encoding": true, "Content-Encoding": true, "Content-Type": true,
	"Content-Range": true, "Trailer": true, "Te": true, "Connection": true, "Keep-Alive": true, "Upgrade": true, "Host": true,
}

// trailerFields splits the response's trailer fields that have values into
// those merged into the stored head and the others, each sorted.
func trailerFields(resp *http.Response) (merged, kept []string) {
	for name, vs := range resp.Trailer {
		if len(vs) == 0 {
			continue // announced, never sent
		}
		if unmergedTrailers[http.CanonicalHeaderKey(name)] {
			kept = append(kept, name)
		} else {
			merged = append(merged, name)
		}
	}
	slices.Sort(merged)
	slices.Sort(kept)
	return merged, kept
}

// statusText is "200 OK": resp.Status when it is well formed, else built
// from the code, because a WARC reader parses the code from this line.
func statusText(resp *http.Response) string {
	code := strconv.Itoa(resp.StatusCode)
	if resp.Status == code || strings.HasPrefix(resp.Status, code+" ") {
		return resp.Status
	}
	if text := http.StatusText(resp.StatusCode); text != "" {
		return code + " " + text
	}
	return code
}

func writeHeaders(b *bytes.Buffer, h http.Header, skip string) {
	names := make([]string, 0, len(h))
	for name := range h {
		if !strings.EqualFold(name, skip) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range h[name] {
			writeHeaderLine(b, name, v)
		}
	}
}

// writeHeaderLine writes one header line. Go's parser never hands us a value
// with CR or LF in it, but a header set by our own code could; such bytes
// would end the line early and forge a header, so they become spaces.
func writeHeaderLine(b *bytes.Buffer, name, value string) {
	b.WriteString(name)
	b.WriteString(": ")
	b.WriteString(oneLine(value))
	b.WriteString("\r\n")
}

// oneLine replaces CR and LF (and other ASCII controls but tab) with spaces,
// so a value cannot break the line-based formats we write it into.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return ' '
		}
		return r
	}, s)
}

func isControl(r rune) bool {
	return (r < 0x20 && r != '\t') || r == 0x7f
}
