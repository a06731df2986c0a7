// Package guard is the crawler's only way onto the network: an HTTP client
// (NewClient) that keeps, below the crawler, the promises of design §2.2
// that a request cannot keep for itself. It exists for politeness and for
// the evidence (that its transport also costs less processor time than
// net/http's at thousands of hosts is a bonus).
//
// Every request it sends is one the crawler asked for. net/http's Transport
// sends a GET a second time, by itself, when a kept-alive connection turns
// out closed under it: a request the crawler's pacer never sees, so neither
// the host's clock nor the evidence would count it. This package's own
// transport never sends a request again. A kept connection is used only when
// nothing is waiting in it (no answer the server sent unasked, no close);
// when the server closes it under a request all the same, the request fails
// with ErrStale, and whether it goes again, and when, is the crawler's to
// say (after the host's delay, like any request). Redirects are not
// followed and bodies are not decompressed, for the same reason: the
// crawler makes every hop itself, checked against robots.txt and paced, and
// counts every byte.
//
// Every address it dials is public, but for hosts mapped by hand. A name
// is resolved here, and every
// address it resolves to must not be loopback, private, link-local,
// multicast, unspecified or shared (100.64.0.0/10) (PublicAddr); the address
// dialed is checked again at dial time, so a name that re-resolves to a
// private address (DNS rebinding) is refused too. Only the hosts mapped by
// Options.Resolve (the fixture web, the -resolve flag) skip this check and
// go to their mapped address. The guard checks addresses, not names: that
// only the reviewed hosts are asked for is the crawler's rule (its plan and
// its redirects), and crawl.New accepts no client but this one (Check).
//
// Every request has an end. The timeouts of the policy (connect 10 s, TLS
// 10 s, headers 15 s, the whole request 60 s) hold for every request that
// can leave the machine, whatever Options say; lower ones reach only hosts
// mapped to loopback and the in-memory transport of tests. A transfer floor
// (1 KiB in every 5 s window, counted from the headers) ends a trickle, so
// that a server sending a byte a second holds its host 5 s, not 60. A
// request cut off fails with an error naming the limit it met. A request
// given up before its answer ended is closed with a reset rather than the
// orderly close, so that a server still sending stops at its next write.
// The politeness floor between requests (2 s) is the crawler's pacer, not
// this package's.
//
// Every answer recorded is the answer to its request. A kept connection is
// reused only when the answer before ended cleanly and nothing of the
// server's is left after it: not in the socket, not in the read buffer, and
// not inside the TLS layer, which reads whole records and would hold the
// start of a second answer unseen (the guard hands it the socket's bytes
// one record at a time, so it knows). Bytes after an answer (a Content-Length that counted
// characters, an answer sent twice, a 408 sent as the server closes an idle
// connection) would otherwise be read as the answer to our next request and
// kept as its evidence. A head as received is kept too: a Content-Length Go
// removes beside chunked encoding is put back.
//
// And the client is honest (design §2.2): HTTP/1.1 only (no ALPN offered),
// certificates checked (against Options.RootCAs when given: the fixture web's
// own authority), no cookies kept, no proxy (the guard must see the real
// address), heads of at most MaxHeadBytes. At most one idle connection is
// kept per host, closed after 4 s, before the 5 s after which the most
// common server default closes it: a site keeps its connection while it
// waits out the 2 s floor.
package guard
