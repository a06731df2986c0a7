package guard

import (
	"crypto/tls"
	"errors"
	"net"
	"os"
	"time"
)

// A kept TLS connection is reused only when nothing of the server's is left
// in it. Bytes past the end of an answer (a Content-Length that counted
// characters rather than bytes, an answer sent twice) may sit in three
// places: the socket (quiet sees them), bufio's buffer (connBody.end sees
// it), and inside tls.Conn, which reads whole records and keeps what the
// reader has not taken yet. tls.Conn shows none of that, so recordConn,
// under it, hands it one record at a time and knows when a record is begun
// and not finished, and tlsDrained asks tls.Conn, without waiting, for
// whatever it holds already decrypted.

// recordHeaderLen is the length of a TLS record header: type, version,
// and the length of what follows.
const recordHeaderLen = 5

// recordConn is the socket under a tls.Conn: it never returns bytes past
// the end of the record being read, so tls.Conn never buffers the start of
// the next one unseen.
type recordConn struct {
	net.Conn
	head [recordHeaderLen]byte
	got  int // bytes of the current record's header read
	left int // bytes of the current record's body still to come
}

func (c *recordConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if c.got < recordHeaderLen {
		n, err := c.Conn.Read(p[:min(len(p), recordHeaderLen-c.got)])
		copy(c.head[c.got:], p[:n])
		c.got += n
		if c.got == recordHeaderLen {
			c.left = int(c.head[3])<<8 | int(c.head[4])
			if c.left == 0 {
				c.got = 0
			}
		}
		return n, err
	}
	n, err := c.Conn.Read(p[:min(len(p), c.left)])
	c.left -= n
	if c.left == 0 {
		c.got = 0
	}
	return n, err
}

// midRecord reports whether a record has begun and not ended.
func (c *recordConn) midRecord() bool { return c.got > 0 }

// tlsDrained reports whether a TLS connection holds nothing the server sent
// that has not been read: no decrypted bytes, no complete record, no record
// begun. It reads with a deadline already past, so only what tls.Conn holds
// is looked at (Go reads nothing from a socket past its deadline), and a
// deadline error leaves tls.Conn usable. Not TLS: true.
func tlsDrained(conn net.Conn) bool {
	tc, ok := conn.(*tls.Conn)
	if !ok {
		return true
	}
	if tc.SetReadDeadline(time.Unix(1, 0)) != nil {
		return false
	}
	var b [1]byte
	n, err := tc.Read(b[:])
	if n > 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		return false // bytes after the answer, an alert, or the connection's end
	}
	if tc.SetReadDeadline(time.Time{}) != nil {
		return false
	}
	rc, ok := tc.NetConn().(*recordConn)
	return ok && !rc.midRecord()
}
