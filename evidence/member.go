package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// The records of each exchange are serialised here rather than through
// gowarc's record builder and marshaler. We build every byte of them
// ourselves (the HTTP heads in httpbytes.go, the warc-fields blocks in
// fields.go), so the builder's work — parsing the block we just built to
// find its payload, digesting it again, validating the target URI — only
// repeated what we knew; at thousands of hosts it was a fifth of the cost
// of a request. The digests are computed once, over the bytes written.
// Records are read back, and every digest checked, by gowarc (reader.go,
// verify.go), and the writer's tests read each record back.

// member is one WARC record: its header fields, in the order written, and
// its block in parts (an HTTP head, then a body).
type member struct {
	fields  []field
	block   [][]byte
	payload string // WARC-Payload-Digest of request and response records
}

// sha256Label is a digest as WARC headers write it.
func sha256Label(sum []byte) string { return "sha256:" + hex.EncodeToString(sum) }

// headPool holds the buffers records' WARC headers are built in (500–900
// bytes each, three records an exchange).
var headPool = sync.Pool{New: func() any {
	b := new(bytes.Buffer)
	b.Grow(1 << 10)
	return b
}}

// writeRaw writes m as one gzip member, adding Content-Length and
// WARC-Block-Digest, and returns the offset at which the member starts.
// One record per member is what lets a reader seek straight to a record.
// Any error leaves a partial member in the file, so it makes the Writer
// unusable (only Abort is left).
func (w *Writer) writeRaw(m member) (int64, error) {
	if w.err != nil {
		return 0, w.err
	}
	var size int
	h := sha256.New()
	for _, p := range m.block {
		size += len(p)
		h.Write(p)
	}
	head := headPool.Get().(*bytes.Buffer)
	defer func() { head.Reset(); headPool.Put(head) }()
	head.WriteString("WARC/1.1\r\n")
	line := func(name, value string) {
		head.WriteString(name)
		head.WriteString(": ")
		head.WriteString(value)
		head.WriteString("\r\n")
	}
	for _, f := range m.fields {
		line(f.name, oneLine(f.value))
	}
	line("Content-Length", strconv.Itoa(size))
	line("WARC-Block-Digest", sha256Label(h.Sum(nil)))
	if m.payload != "" {
		line("WARC-Payload-Digest", m.payload)
	}
	if w.warcinfoID != "" {
		line("WARC-Warcinfo-ID", "<"+w.warcinfoID+">")
	}
	head.WriteString("\r\n")

	offset := w.out.n
	pool := &gzipPool
	if head.Len()+size < storeBelow {
		pool = &storedPool
	}
	gz := pool.Get().(*gzip.Writer)
	defer pool.Put(gz)
	gz.Reset(w.out)
	_, err := gz.Write(head.Bytes())
	for _, p := range m.block {
		if err == nil {
			_, err = gz.Write(p)
		}
	}
	if err == nil {
		_, err = gz.Write([]byte("\r\n\r\n"))
	}
	err = errors.Join(err, gz.Close())
	if err != nil {
		w.err = fmt.Errorf("evidence: %s: writing record at offset %d: %w", w.openPath, offset, err)
		return 0, w.err
	}
	return offset, nil
}

// checkHead makes sure an HTTP head ends where a reader will end it: at its
// first empty line, which must be its last. Otherwise the reader would take
// part of the head for the payload, and the payload digest would not match.
func checkHead(head []byte) error {
	if i := bytes.Index(head, []byte("\r\n\r\n")); i < 0 || i != len(head)-4 {
		return errors.New("the HTTP head has an empty line before its end")
	}
	return nil
}
