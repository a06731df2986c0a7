package guard

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"reflect"
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

// Timeouts are the guarded client's limits on one request. PolicyTimeouts are
// the promises of design §2.2; lower values exist for tests of the fixture web
// only (see Options.Timeouts).
type Timeouts struct {
	Connect time.Duration // TCP connect, name resolution included
	TLS     time.Duration // TLS handshake
	Header  time.Duration // from the request sent to the response headers
	Request time.Duration // the whole request, body included
	// A body that brings fewer than MinBytes in a Window (counted from the
	// headers, window after window) is abandoned as too slow.
	Window   time.Duration
	MinBytes int64
}

// PolicyTimeouts returns the timeouts every request to the real web gets.
func PolicyTimeouts() Timeouts {
	return Timeouts{
		Connect: ConnectTimeout, TLS: TLSTimeout, Header: HeaderTimeout, Request: RequestTimeout,
		Window: policy.TransferWindow, MinBytes: policy.TransferMinBytes,
	}
}

// orPolicy fills the zero fields of t from the policy.
func (t Timeouts) orPolicy() Timeouts {
	p := PolicyTimeouts()
	for _, f := range []struct{ v, def *time.Duration }{
		{&t.Connect, &p.Connect}, {&t.TLS, &p.TLS}, {&t.Header, &p.Header}, {&t.Request, &p.Request}, {&t.Window, &p.Window},
	} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	if t.MinBytes <= 0 {
		t.MinBytes = p.MinBytes
	}
	return t
}

// Resolver looks up a host's addresses; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Options configure the guarded client; the zero value is the client of
// the real web, with the policy's limits and the system's roots.
type Options struct {
	// Resolve maps a reviewed host to the address to dial instead of asking
	// DNS (the fixture web). Mapped hosts are exempt from the address guard.
	Resolve map[string]string
	// RootCAs, when set, replaces the system roots (the fixture web's own CA).
	RootCAs *x509.CertPool
	// Resolver answers DNS questions for hosts that are not mapped; nil:
	// net.DefaultResolver. Tests give a fake one to show the guard.
	Resolver Resolver

	// Timeouts, for tests only, replaces the policy timeouts (its zero fields
	// keep the policy value) for requests that cannot leave the machine: to a
	// host mapped by Resolve to a loopback address, or through Transport.
	// Every other request keeps the policy timeouts, whatever this says.
	Timeouts Timeouts
	// Transport, for tests only (and crawl -plan, whose transport refuses
	// every request), carries every request instead of the network
	// (fixture.Server.Transport, which also works inside a
	// testing/synctest bubble). Nothing is dialed, so the address guard has
	// nothing to check; the timeouts and the transfer floor still apply.
	Transport http.RoundTripper
	// MaxIdleConns bounds the idle connections kept for reuse over all
	// hosts (0: 64), at most one per host: a site keeps its connection
	// while it waits its turn. crawl.IdleConnsFor sizes it from the sites in
	// progress and the process's open-files limit, so that neither
	// descriptors nor memory grow with the number of hosts on the list.
	MaxIdleConns int
}

// NewClient returns the honest client of design §2.2: HTTP/1.1, certificate
// checks on, no cookies, no automatic redirects or decompression (both are
// done by hand so that every hop is checked and every byte is counted), the
// timeouts of the policy and a floor on the transfer rate, and a dial-time
// guard against private and loopback addresses.
func NewClient(opts Options) *http.Client {
	g := &roundTripper{
		resolve:  map[string]string{},
		loopback: map[string]bool{},
		resolver: opts.Resolver,
		policy:   PolicyTimeouts(),
		test:     opts.Timeouts.orPolicy(),
		maxIdle:  opts.MaxIdleConns,
	}
	if g.maxIdle <= 0 {
		g.maxIdle = 64
	}
	if g.resolver == nil {
		g.resolver = net.DefaultResolver
	}
	for h, to := range opts.Resolve {
		h = strings.ToLower(h)
		g.resolve[h] = to
		g.loopback[h] = LoopbackTarget(to)
	}
	if opts.Transport != nil {
		g.memory = opts.Transport
	} else {
		g.real = g.transport(g.policy, opts.RootCAs)
		if g.test != g.policy {
			g.testReal = g.transport(g.test, opts.RootCAs)
		}
	}
	c := &http.Client{
		Transport:     g,
		CheckRedirect: useLastResponse,
		// No Client.Timeout: roundTripper.RoundTrip keeps the whole-request limit
		// of the request's destination, body included, and says so in its
		// error. Jar nil: no cookies are kept.
	}
	g.client = c
	return c
}

// useLastResponse keeps net/http from following a redirect: the crawler
// follows each hop itself, checked against robots.txt and paced.
func useLastResponse(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// Check returns why c is not a client NewClient made, or nil when it is
// one, still as made where the guard depends on it: its transport the
// guard's (not a copy of the client, not a transport around the guard's),
// no cookie jar, redirects not followed. The crawler refuses any other
// client, so that a plain *http.Client cannot silently drop the address
// guard, the limits, and the rule that no request is sent again unseen.
// It checks the client as it is when called; a client changed later is
// not checked again.
func Check(c *http.Client) error {
	if c == nil {
		return errors.New("no HTTP client")
	}
	if g, ok := c.Transport.(*roundTripper); !ok || g.client != c {
		return errors.New("the HTTP client is not the guard's (guard.NewClient): another would not check the addresses it dials, keep the timeouts and the transfer floor, or refrain from sending a request again by itself")
	}
	if c.Jar != nil {
		return errors.New("the guard's HTTP client was given a cookie jar: no cookies are kept")
	}
	if c.CheckRedirect == nil || reflect.ValueOf(c.CheckRedirect).Pointer() != reflect.ValueOf(useLastResponse).Pointer() {
		return errors.New("the guard's HTTP client was set to follow redirects: every hop is the crawler's to check and pace")
	}
	return nil
}

// roundTripper is the client's RoundTripper: it picks the timeouts of the request's
// destination, keeps the whole-request limit and the transfer floor, and
// dials through the address guard.
type roundTripper struct {
	resolve  map[string]string // host → IP:PORT (-resolve)
	loopback map[string]bool   // mapped hosts whose target is loopback
	resolver Resolver
	policy   Timeouts
	test     Timeouts // for requests that cannot leave the machine
	maxIdle  int      // idle connections kept over all hosts

	real     *connTransport    // policy timeouts
	testReal *connTransport    // test timeouts, for loopback-mapped hosts; nil when the same
	memory   http.RoundTripper // Options.Transport

	client *http.Client // the client NewClient made around it (see Check)
}

// timeoutsFor returns the limits of a request to host: the policy's, unless
// the request cannot leave the machine.
func (g *roundTripper) timeoutsFor(host string) Timeouts {
	if g.memory != nil || g.loopback[strings.ToLower(host)] {
		return g.test
	}
	return g.policy
}

// transport carries requests with timeouts t: HTTP/1.1 only (no ALPN is
// offered), certificates checked against roots (nil: the system's), never
// through a proxy (the guard must see the real address), bodies never
// decompressed on the way.
func (g *roundTripper) transport(t Timeouts, roots *x509.CertPool) *connTransport {
	return newConnTransport(g.dial, &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}, t, g.maxIdle)
}

// idleConnTimeout is how long a connection waits idle for its host's next
// request. Long enough for the 2 s floor; shorter than the 5 s after which
// the most common server default (Apache's KeepAliveTimeout) closes it, so
// that we close first. A request is never sent again on a new connection
// by this package: a kept connection found closed (or holding anything)
// before the request is written is not used, and the request is written
// once, on a new one; a close that comes while the request is on its way
// fails it with ErrStale, and sending it again is the crawler's, after the
// host's delay (see connTransport.RoundTrip and ErrStale).
const idleConnTimeout = 4 * time.Second

// Errors of the guard; the crawler records them as no-answer.
var (
	errForbiddenAddress = errors.New("address is not public")
	errHeaderTimeout    = errors.New("no response headers before the timeout")
	errRequestTimeout   = errors.New("the whole request took too long")
	errTooSlow          = errors.New("the body arrived too slowly")
)

func (g *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	t := g.timeoutsFor(req.URL.Hostname())
	ctx, cancel := context.WithCancelCause(req.Context())
	whole := time.AfterFunc(t.Request, func() {
		cancel(fmt.Errorf("%w (limit %s)", errRequestTimeout, t.Request))
	})
	stopAll := func() { whole.Stop(); cancel(context.Canceled) }

	var rt http.RoundTripper
	var headers *time.Timer
	switch {
	case g.memory != nil:
		// Nothing is dialed in memory: the whole wait is for the headers.
		rt = g.memory
		headers = time.AfterFunc(t.Header, func() {
			cancel(fmt.Errorf("%w (limit %s)", errHeaderTimeout, t.Header))
		})
	case g.testReal != nil && g.loopback[strings.ToLower(req.URL.Hostname())]:
		rt = g.testReal
	default:
		rt = g.real
	}
	resp, err := rt.RoundTrip(req.WithContext(ctx))
	if headers != nil {
		headers.Stop()
	}
	if err != nil {
		err = guardCause(ctx, err)
		stopAll()
		return nil, err
	}
	resp.Body = newFloorBody(resp.Body, ctx, cancel, stopAll, t)
	return resp, nil
}

// dial connects to addr through the guard: a mapped host goes to its mapped
// target; any other name is resolved here, and every address it resolves to
// must be public, checked again on the very address dialed (so a name that
// re-resolves to a private address, DNS rebinding, is caught).
func (g *roundTripper) dial(ctx context.Context, network, addr string, timeout time.Duration) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if to, ok := g.resolve[strings.ToLower(host)]; ok {
		var d net.Dialer
		return d.DialContext(ctx, network, to)
	}
	guarded := &net.Dialer{Control: refusePrivate}
	if ip, err := netip.ParseAddr(host); err == nil {
		return guarded.DialContext(ctx, network, netip.AddrPortFrom(ip, mustPort(port)).String())
	}
	lookup := "ip"
	switch network {
	case "tcp4":
		lookup = "ip4"
	case "tcp6":
		lookup = "ip6"
	}
	ips, err := g.resolver.LookupNetIP(ctx, lookup, host)
	if err != nil {
		return nil, fmt.Errorf("looking up %s: %w", host, err)
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("looking up %s: no address", host)
	}
	for _, ip := range ips {
		if !PublicAddr(ip) {
			return nil, fmt.Errorf("%s resolves to %s: %w", host, ip, errForbiddenAddress)
		}
	}
	var last error
	for _, ip := range ips {
		c, err := guarded.DialContext(ctx, network, netip.AddrPortFrom(ip, mustPort(port)).String())
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

func mustPort(p string) uint16 {
	var n uint16
	fmt.Sscanf(p, "%d", &n)
	return n
}

// refusePrivate runs on the very address being dialed, after resolution.
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
