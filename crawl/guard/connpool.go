package guard

import (
	"crypto/tls"
	"net"
	"syscall"
	"time"
)

// The kept connections: at most one idle connection per host, each closed
// after idleConnTimeout unless its host asks again before.

// keptConn is a connection between exchanges.
type keptConn struct {
	conn  net.Conn
	key   string
	timer *time.Timer // closes it after idleConnTimeout
}

// quiet reports whether a kept connection is still open and has nothing
// to read: the server has sent nothing since the last answer. Some servers
// answer 408 on a connection they are about to close as idle; read after
// our next request, that answer would pass for the answer to it. Anything
// there, or the connection's end, and the connection is not used again.
func quiet(conn net.Conn) bool {
	if tc, ok := conn.(*tls.Conn); ok {
		conn = tc.NetConn()
	}
	if rc, ok := conn.(*recordConn); ok {
		conn = rc.Conn
	}
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return true // cannot tell (not a socket): as net/http would, use it
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	idle := false
	var b [1]byte
	err = rc.Read(func(fd uintptr) bool {
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		idle = err == syscall.EAGAIN || err == syscall.EWOULDBLOCK
		return true
	})
	return err == nil && idle
}

// take returns the kept connection for key, if any.
func (t *connTransport) take(key string) *keptConn {
	t.mu.Lock()
	defer t.mu.Unlock()
	kc := t.idle[key]
	if kc == nil {
		return nil
	}
	delete(t.idle, key)
	if !kc.timer.Stop() {
		return nil // closing already
	}
	return kc
}

// put keeps conn for its host's next request, unless the host has one kept
// already or the pool is full.
func (t *connTransport) put(key string, conn net.Conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.idle[key]; ok || len(t.idle) >= t.maxIdle {
		conn.Close()
		return
	}
	kc := &keptConn{conn: conn, key: key}
	kc.timer = time.AfterFunc(idleConnTimeout, func() { t.expire(kc) })
	t.idle[key] = kc
}

func (t *connTransport) expire(kc *keptConn) {
	t.mu.Lock()
	if t.idle[kc.key] == kc {
		delete(t.idle, kc.key)
	}
	t.mu.Unlock()
	kc.conn.Close()
}

// CloseIdleConnections closes every kept connection.
func (t *connTransport) CloseIdleConnections() {
	t.mu.Lock()
	kept := t.idle
	t.idle = map[string]*keptConn{}
	t.mu.Unlock()
	for _, kc := range kept {
		if kc.timer.Stop() {
			kc.conn.Close()
		}
	}
}
