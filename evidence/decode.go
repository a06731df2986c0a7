package evidence

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// ErrTooLarge is returned by DecodedBody when the decoded body is larger
// than the limit asked for.
var ErrTooLarge = errors.New("evidence: decoded body is over the size limit")

// ErrUnsupportedEncoding is returned by DecodedBody for a Content-Encoding
// it cannot undo (br, zstd, compress ...).
var ErrUnsupportedEncoding = errors.New("evidence: unsupported Content-Encoding")

// DecodedBody returns the body with its Content-Encoding undone (gzip,
// deflate, identity, or a list of them), reading at most max decoded bytes:
// a larger body is ErrTooLarge. Bodies are stored as received, so this is
// where a compressed body is opened, and where a small body that inflates
// hugely is stopped.
func (r *StoredResponse) DecodedBody(max int64) ([]byte, error) {
	body, more, err := DecodePrefix(r.Body, r.Header.Values("Content-Encoding"), max)
	if err != nil {
		return nil, fmt.Errorf("evidence: record %s: %w", r.RecordID, err)
	}
	if more {
		return nil, fmt.Errorf("%w: record %s is over %d bytes decoded", ErrTooLarge, r.RecordID, max)
	}
	return body, nil
}

// DecodedPrefix is the body with its Content-Encoding undone, as far as
// max decoded bytes (see DecodePrefix). robots.txt is read so, by the
// crawler and by the build alike: its first bytes, however long the file
// or however compressed, and what came before a break in the stream.
func (r *StoredResponse) DecodedPrefix(max int64) (body []byte, more bool, err error) {
	return DecodePrefix(r.Body, r.Header.Values("Content-Encoding"), max)
}

// DecodePrefix undoes the codings of body (Content-Encoding values, in the
// order they were applied: gzip, deflate zlib-wrapped or raw, identity)
// and returns its first max decoded bytes; more reports that the decoded
// body goes on past them (nothing past them is decoded, so a bomb costs
// no more than max). On a stream that breaks, what came before the break
// is returned with the error. The crawler decodes what it receives with
// it, and the build what was stored: the two read every body alike.
func DecodePrefix(body []byte, encodings []string, max int64) (out []byte, more bool, err error) {
	codings := contentCodings(encodings)
	if len(codings) == 0 {
		// Nothing to undo: the body itself, copied once at its size
		// rather than grown through a reader (a fiftieth of a cold build).
		// Appended to an empty slice, the copy's memory is not zeroed
		// first, as make would (a percent of the crawl's CPU).
		n := min(int64(len(body)), max+1)
		out = append([]byte{}, body[:n]...)
		if n > max {
			return out[:max], true, nil
		}
		return out, false, nil
	}
	br := bytes.NewReader(body)
	defer br.Reset(nil) // the pooled decompressors keep no body
	var src io.Reader = br
	// Codings are listed in the order they were applied: undo the last first.
	for i := len(codings) - 1; i >= 0; i-- {
		var release func()
		if src, release, err = decoder(codings[i], src); err != nil {
			return nil, false, err
		}
		defer release()
	}
	out, err = readPrefix(src, max+1, sizeHint(body, codings, max+1))
	if int64(len(out)) > max {
		return out[:max], true, nil
	}
	if err != nil {
		return out, false, fmt.Errorf("decoding %s: %w", strings.Join(codings, ", "), err)
	}
	return out, false, nil
}

// HasContentCoding reports whether DecodePrefix would undo anything for
// these Content-Encoding values (identity and empty values are nothing to
// undo). A caller that only reads the body can then use it as it is
// instead of the copy DecodePrefix returns.
func HasContentCoding(encodings []string) bool {
	return len(contentCodings(encodings)) > 0
}

// contentCodings flattens Content-Encoding header values into a list of
// lower-case codings, dropping identity, which changes nothing.
func contentCodings(values []string) []string {
	var codings []string
	for _, v := range values {
		for c := range strings.SplitSeq(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			if c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
	return codings
}

// readPrefix is io.ReadAll(io.LimitReader(src, limit)), read into a slice
// of size hint first (0: none known): grown by append from 512 bytes, as
// ReadAll does it, a decoded page was copied some ten times over, and
// allocated half again (the bytes read, and where each Read stops, are
// the same).
func readPrefix(src io.Reader, limit int64, hint int) ([]byte, error) {
	if hint <= 0 {
		return io.ReadAll(io.LimitReader(src, limit))
	}
	out := make([]byte, 0, hint)
	for int64(len(out)) < limit {
		if len(out) == cap(out) {
			// Full at the size the stream gave: most likely it ends here.
			// A byte's read tells, before the slice is grown for more.
			var one [1]byte
			n, err := src.Read(one[:])
			out = append(out, one[:n]...)
			if err != nil {
				return out, eofIsEnd(err)
			}
			continue
		}
		n, err := src.Read(out[len(out):min(int64(cap(out)), limit)])
		out = out[:len(out)+n]
		if err != nil {
			return out, eofIsEnd(err)
		}
	}
	return out, nil
}

func eofIsEnd(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}

// sizeHint is the size body decodes to, as far as limit, when it is one
// gzip stream: its trailer's ISIZE (the size modulo 2^32), which a stream
// may give wrong (a second member, a cut body) and which is then only a
// poor first guess. At most what deflate could make of body (1,032 bytes
// for one), so a small body cannot make a large allocation. 0 when unknown.
func sizeHint(body []byte, codings []string, limit int64) int {
	if len(codings) != 1 || (codings[0] != "gzip" && codings[0] != "x-gzip") || len(body) < 18 {
		return 0
	}
	isize := int64(binary.LittleEndian.Uint32(body[len(body)-4:]))
	return int(min(isize, limit, 1032*int64(len(body))))
}

// gzipReaders are reused gzip decompressors: each holds some 40 KB, made
// anew for every body a crawl or a build decodes.
var gzipReaders sync.Pool

// decoder undoes one coding of src; release returns what it borrowed, once
// its reading is done.
func decoder(coding string, src io.Reader) (io.Reader, func(), error) {
	switch coding {
	case "gzip", "x-gzip":
		zr, _ := gzipReaders.Get().(*gzip.Reader)
		var err error
		if zr == nil {
			zr, err = gzip.NewReader(src)
		} else {
			err = zr.Reset(src)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("gzip: %w", err)
		}
		return zr, func() { gzipReaders.Put(zr) }, nil
	case "deflate":
		r, err := deflateReader(src)
		return r, func() {}, err
	default:
		return nil, nil, fmt.Errorf("%w %q", ErrUnsupportedEncoding, coding)
	}
}

// deflateReader reads "deflate", which RFC 9110 defines as zlib-wrapped but
// which some servers send as raw deflate: the first two bytes tell which.
func deflateReader(src io.Reader) (io.Reader, error) {
	br := bufio.NewReader(src)
	head, err := br.Peek(2)
	if err == nil && isZlibHeader(head) {
		zr, err := zlib.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("deflate: %w", err)
		}
		return zr, nil
	}
	return flate.NewReader(br), nil
}

func isZlibHeader(b []byte) bool {
	return b[0]&0x0f == 8 && b[0]>>4 <= 7 && (uint16(b[0])<<8|uint16(b[1]))%31 == 0
}
