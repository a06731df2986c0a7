package evidence

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/crawlsignals/crawlsignals/policy"
)

// quickResponse reads the response record of x from f, the way a build
// reads it for every page of every site: one gzip member, the WARC header
// parsed in place, both digests and the manifest's payload digest checked.
// It accepts only a record it can check completely and that is exactly as
// this package writes one (writeRaw); ok is false for anything else, a
// damaged record among them, and Response then reads the record the careful
// way, through gowarc, which names what is wrong. So the answer is never
// less checked than gowarc's; it is only cheaper (gowarc opens the file
// again, builds a new decompressor and validates every header's syntax for
// each record: a fifth of a cold build).
func quickResponse(wf *warcFile, x Exchange) (resp *StoredResponse, ok bool) {
	var member []byte
	if off := x.ResponseOffset; off >= 0 && off < int64(len(wf.data)) {
		member, ok = readMember(nil, wf.data[off:])
	} else {
		member, ok = readMember(io.NewSectionReader(wf.f, off, 1<<62), nil)
	}
	if !ok {
		return nil, false
	}
	return parseResponse(member, x)
}

// readers are reused decompressors and read buffers.
var readers = sync.Pool{New: func() any { return new(memberReader) }}

type memberReader struct {
	buf  *bufio.Reader
	mem  bytes.Reader
	gz   gzip.Reader
	head [headRead]byte
}

// maxMember bounds a record read whole: the body as received, which the
// crawler cuts a byte past the cap, and room for the heads (Go's client
// takes at most 1 MB of response head). A larger record goes the careful
// way.
const maxMember = policy.MaxBody + 2<<20

// headRead is how much of a record is decompressed before its size is
// known: its WARC header, which writeRaw keeps under 1 KiB unless the
// target URI is very long, and the start of its block.
const headRead = 8 << 10

// readMember decompresses the one gzip member at r's position, or at the
// start of data when r is nil, checking its CRC and length. The bytes are
// the caller's to keep.
//
// The record is decompressed into a slice of its own size, found from the
// Content-Length of its WARC header (the record is that header, the block
// and "\r\n\r\n"). Read into a growing buffer and copied out, as before,
// the growth and the copy were a fifth of what a cold build of real pages
// allocated. A record whose header gives no size, or whose length is not
// the one it gives, is refused: Response reads it the careful way.
func readMember(r io.Reader, data []byte) ([]byte, bool) {
	m := readers.Get().(*memberReader)
	defer readers.Put(m)
	var src io.Reader
	if r == nil {
		m.mem.Reset(data)
		src = &m.mem
		defer m.mem.Reset(nil) // the pool keeps no file's bytes
	} else {
		if m.buf == nil {
			m.buf = bufio.NewReaderSize(r, 32<<10)
		} else {
			m.buf.Reset(r)
		}
		src = m.buf
	}
	if m.gz.Reset(src) != nil {
		return nil, false
	}
	m.gz.Multistream(false)
	n, err := io.ReadFull(&m.gz, m.head[:])
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		// The whole record, the member ended cleanly: a gzip Reader says
		// io.EOF only once the trailer's CRC and length are checked.
		return bytes.Clone(m.head[:n]), true
	}
	if err != nil {
		return nil, false
	}
	size, ok := recordSize(m.head[:])
	if !ok || size < len(m.head) || size > maxMember {
		return nil, false
	}
	rec := make([]byte, size)
	copy(rec, m.head[:])
	if _, err := io.ReadFull(&m.gz, rec[len(m.head):]); err != nil {
		return nil, false
	}
	// The member must end here, and its trailer check out.
	if n, err := m.gz.Read(m.head[:1]); n != 0 || err != io.EOF {
		return nil, false
	}
	return rec, true
}

// recordSize is the length of a whole record as its WARC header, at the
// start of head, says it: the header, Content-Length bytes of block, and
// the "\r\n\r\n" after them. ok is false when head holds no whole
// header or it gives no plain decimal Content-Length.
func recordSize(head []byte) (int, bool) {
	end := bytes.Index(head, []byte("\r\n\r\n"))
	if end < 0 {
		return 0, false
	}
	header := head[:end+2] // each line with its CRLF
	_, after, found := bytes.Cut(header, []byte("\r\nContent-Length: "))
	if !found {
		return 0, false
	}
	digits, _, found := bytes.Cut(after, []byte("\r\n"))
	if !found || len(digits) == 0 || len(digits) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = 10*n + int(c-'0')
	}
	return end + 4 + n + 4, true
}

// parseResponse checks one decompressed response record against x.
func parseResponse(rec []byte, x Exchange) (*StoredResponse, bool) {
	rest, ok := bytes.CutPrefix(rec, []byte("WARC/1.1\r\n"))
	if !ok {
		return nil, false
	}
	fields := map[string]string{}
	for {
		line, after, found := bytes.Cut(rest, []byte("\r\n"))
		if !found {
			return nil, false
		}
		rest = after
		if len(line) == 0 {
			break
		}
		name, value, found := bytes.Cut(line, []byte(": "))
		if !found || len(name) == 0 || bytes.ContainsAny(name, " \t") {
			return nil, false // a continuation line or other syntax: the careful way
		}
		if _, twice := fields[string(name)]; twice {
			return nil, false
		}
		fields[string(name)] = string(value)
	}
	if !responseFields(fields, x) {
		return nil, false
	}
	size, err := strconv.Atoi(fields["Content-Length"])
	if err != nil || size < 0 || len(rest) != size+4 || !bytes.Equal(rest[size:], []byte("\r\n\r\n")) {
		return nil, false
	}
	block := rest[:size]
	if !sha256Is(fields["WARC-Block-Digest"], block) {
		return nil, false
	}
	// The HTTP head ends at its first empty line, as gowarc ends it.
	end := 0
	for {
		i := bytes.IndexByte(block[end:], '\n')
		if i < 0 {
			return nil, false
		}
		line := block[end : end+i+1]
		end += i + 1
		if len(line) < 3 {
			break
		}
	}
	head, body := block[:end], block[end:]
	sum := sha256.Sum256(body)
	if fields["WARC-Payload-Digest"] != "sha256:"+x.PayloadSHA256 || hex.EncodeToString(sum[:]) != x.PayloadSHA256 {
		return nil, false
	}
	hr, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(head)), nil)
	if err != nil || hr.StatusCode != x.Status {
		return nil, false
	}
	date, err := time.Parse(time.RFC3339, fields["WARC-Date"])
	if err != nil {
		return nil, false
	}
	_, truncated := fields["WARC-Truncated"]
	return &StoredResponse{
		Status:    hr.StatusCode,
		Header:    hr.Header,
		Body:      body,
		RecordID:  x.ResponseID,
		Date:      date,
		URL:       x.URL,
		Truncated: truncated,
	}, true
}

// responseFields reports whether fields are exactly those writeRaw and
// Record give a response record, each with a value of the form they give
// it: what they never write, gowarc is to judge.
func responseFields(fields map[string]string, x Exchange) bool {
	for name, value := range fields {
		var good bool
		switch name {
		case "WARC-Type":
			good = value == "response"
		case "WARC-Record-ID":
			good = value == "<"+x.ResponseID+">"
		case "WARC-Target-URI":
			good = value == x.URL
		case "Content-Type":
			good = value == "application/http;msgtype=response"
		case "WARC-Date":
			_, err := time.Parse(time.RFC3339, value)
			good = err == nil
		case "WARC-IP-Address":
			good = net.ParseIP(value) != nil
		case "WARC-Concurrent-To", "WARC-Warcinfo-ID":
			good = isRecordID(value)
		case "WARC-Truncated":
			good = value == "length" || value == "unspecified"
		case "Content-Length", "WARC-Block-Digest", "WARC-Payload-Digest":
			good = true // checked against the block
		}
		if !good {
			return false
		}
	}
	for _, name := range []string{"WARC-Type", "WARC-Record-ID", "WARC-Target-URI", "Content-Type", "WARC-Date",
		"Content-Length", "WARC-Block-Digest", "WARC-Payload-Digest"} {
		if _, ok := fields[name]; !ok {
			return false
		}
	}
	return true
}

// isRecordID reports whether v is a record ID as newRecordID makes one,
// in angle brackets: <urn:uuid:8-4-4-4-12 lower-case hex digits>.
func isRecordID(v string) bool {
	id, ok := strings.CutPrefix(v, "<urn:uuid:")
	if !ok || len(id) != 37 || id[36] != '>' {
		return false
	}
	for i, c := range id[:36] {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
	}
	return true
}

// sha256Is reports whether label, as a WARC header writes a digest, is the
// sha256 of data in lower-case hex, as writeRaw writes it.
func sha256Is(label string, data []byte) bool {
	want, ok := bytes.CutPrefix([]byte(label), []byte("sha256:"))
	if !ok || len(want) != 2*sha256.Size {
		return false
	}
	sum := sha256.Sum256(data)
	var got [2 * sha256.Size]byte
	hex.Encode(got[:], sum[:])
	return bytes.Equal(got[:], want)
}
