package evidence

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"
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
	var src io.Reader = bytes.NewReader(r.Body)
	codings := contentCodings(r.Header.Values("Content-Encoding"))
	// Codings are listed in the order they were applied: undo the last first.
	for i := len(codings) - 1; i >= 0; i-- {
		var err error
		if src, err = decoder(codings[i], src); err != nil {
			return nil, fmt.Errorf("evidence: record %s: %w", r.RecordID, err)
		}
	}
	body, err := io.ReadAll(io.LimitReader(src, max+1))
	if err != nil {
		return nil, fmt.Errorf("evidence: record %s: decoding %s: %w", r.RecordID, strings.Join(codings, ", "), err)
	}
	if int64(len(body)) > max {
		return nil, fmt.Errorf("%w: record %s is over %d bytes decoded", ErrTooLarge, r.RecordID, max)
	}
	return body, nil
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

func decoder(coding string, src io.Reader) (io.Reader, error) {
	switch coding {
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(src)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return zr, nil
	case "deflate":
		return deflateReader(src)
	default:
		return nil, fmt.Errorf("%w %q", ErrUnsupportedEncoding, coding)
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
