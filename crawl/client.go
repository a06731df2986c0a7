package crawl

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"

	"github.com/crawlsignals/crawlsignals/policy"
)

// Timeouts of design §2.2.
const (
	ConnectTimeout = policy.ConnectTimeout
	TLSTimeout     = policy.TLSTimeout
	HeaderTimeout  = policy.HeaderTimeout
	RequestTimeout = policy.RequestTimeout
)

// ClientOptions configure the guarded client.
type ClientOptions struct {
	// Resolve maps a reviewed host to the address to dial instead of asking
	// DNS (the fixture web). Mapped hosts are exempt from the address guard.
	Resolve map[string]string
	// RootCAs, when set, replaces the system roots (the fixture web's own CA).
	RootCAs *x509.CertPool
}

// NewClient returns the honest client of design §2.2: HTTP/1.1, certificate
// checks on, no cookies, no automatic redirects or decompression (both are
// done by hand so that every hop is checked and every byte is counted), and
// a dial-time guard against private and loopback addresses.
func NewClient(opts ClientOptions) *http.Client {
	guarded := &net.Dialer{Timeout: ConnectTimeout, Control: refusePrivate}
	mapped := &net.Dialer{Timeout: ConnectTimeout}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if to, ok := opts.Resolve[strings.ToLower(host)]; ok {
			return mapped.DialContext(ctx, network, to)
		}
		return guarded.DialContext(ctx, network, addr)
	}
	transport := &http.Transport{
		DialContext:           dial,
		TLSClientConfig:       &tls.Config{RootCAs: opts.RootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   TLSTimeout,
		ResponseHeaderTimeout: HeaderTimeout,
		DisableCompression:    true,
		ForceAttemptHTTP2:     false,
		// A non-nil empty map turns HTTP/2 off: one plain exchange at a time.
		TLSNextProto:        map[string]func(string, *tls.Conn) http.RoundTripper{},
		MaxIdleConnsPerHost: 1,
		IdleConnTimeout:     30 * time.Second,
	}
	return &http.Client{
		Transport: transport,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
		Timeout: RequestTimeout,
	}
}

// errForbiddenAddress is returned when a name resolves to an address we
// never contact (loopback, private, link-local, shared, multicast …).
var errForbiddenAddress = errors.New("address is not public")

// refusePrivate runs after DNS resolution, on the very address being dialed,
// so a name that re-resolves to a private address (DNS rebinding) is caught.
func refusePrivate(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("dial %s: %w", address, err)
	}
	if !PublicAddr(ap.Addr()) {
		return fmt.Errorf("dial %s: %w", address, errForbiddenAddress)
	}
	return nil
}

var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// PublicAddr reports whether ip is an address a crawler may contact.
func PublicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid(), ip.IsLoopback(), ip.IsPrivate(), ip.IsLinkLocalUnicast(),
		ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast(), ip.IsMulticast(),
		ip.IsUnspecified(), sharedSpace.Contains(ip):
		return false
	}
	return true
}

// LoopbackTarget reports whether a -resolve target (IP:PORT) is on loopback.
func LoopbackTarget(target string) bool {
	ap, err := netip.ParseAddrPort(target)
	return err == nil && ap.Addr().Unmap().IsLoopback()
}
