// Package policy holds the promises of design §2.2 as values: who we say we
// are, how long we wait, what we fetch besides linked pages. The crawler
// keeps them; the about page prints them from here, so the two cannot drift.
package policy

import "time"

// Identity of the crawler.
const (
	Version   = "0.1"
	UserAgent = "crawlsignals/" + Version + " (+https://crawlsignals.com)"
	Token     = "crawlsignals" // our robots.txt product token
)

// Pacing and limits.
const (
	// MinDelay is the least time from the end of one request to a host to
	// the start of the next. It is lowered only for the fixture web on loopback.
	MinDelay = 2 * time.Second
	// MaxCrawlDelay is the default longest Crawl-delay we wait (sites.toml can change it).
	MaxCrawlDelay  = 300 * time.Second
	MaxRedirects   = 5
	MaxRetryWait   = 5 * time.Minute  // a longer Retry-After stops the host for the run
	NoHeaderRetry  = 60 * time.Second // wait once when 429/503 gives no Retry-After
	StopAfter      = 2                // consecutive timeouts or failures that stop a host
	MaxBody        = 10 << 20         // bytes of one answer, before and after decoding
	MaxRobotsBytes = 500 << 10        // bytes of robots.txt we parse
	ConnectTimeout = 10 * time.Second
	TLSTimeout     = 10 * time.Second
	HeaderTimeout  = 15 * time.Second
	RequestTimeout = 60 * time.Second
	// A body must bring at least TransferMinBytes in every TransferWindow after
	// the headers (about 200 bytes a second), or it is abandoned: a server that
	// trickles cannot hold a host for the whole RequestTimeout.
	TransferWindow   = 5 * time.Second
	TransferMinBytes = 1 << 10
)

// MaxSiteHost is the longest home host a site may have. The home host
// names the site's evidence files, and the longest of those names,
// ".HOST.text.jsonl.NNNNNNNNNN.tmp" while it is written, is the host and 27
// bytes; file systems hold names of at most 255 bytes. 200 leaves room for
// that and for a suffix yet to come, and no real home page is near it. A
// longer host is refused when the list is loaded, before any request.
const MaxSiteHost = 200

// WellKnown is the fixed list of design §2 item 5, fetched from the home host.
var WellKnown = []string{
	"/.well-known/security.txt",
	"/.well-known/tdmrep.json",
	"/.well-known/api-catalog",
	"/.well-known/gpc.json",
	"/llms.txt",
}

// Rules are the politeness rules in plain words, for the about page.
func Rules() []string {
	return []string{
		"We fetch robots.txt of a host first, before any other request to it, and obey it for every page and every redirect.",
		"One request at a time per host, and at least 2 seconds from the end of one request to the start of the next; longer when robots.txt asks with Crawl-delay. A Crawl-delay longer than 5 minutes means we do not read the host.",
		"We follow at most 5 redirects, by hand, each to a reviewed host that robots.txt allows.",
		"When a site answers 429 or 503 we wait exactly as long as Retry-After asks, never less, and retry once (after 60 s when it does not say); a longer wait than 5 minutes stops the host for the run.",
		"A host that fails to answer twice in a row is not tried again in the run.",
		"We read only text pages (HTML, plain text, JSON, XML) and PDF, at most 10 MB each, deciding from the Content-Type before reading the body.",
		"Timeouts: connect 10 s, TLS 10 s, response headers 15 s, whole request 60 s; a body that brings less than 1 KiB in 5 s is abandoned.",
		"No JavaScript, no cookies kept, no forms, no logins, no evasion. A page we are refused is never fetched another way.",
		"We contact only the hostnames reviewed for each site, never private or loopback addresses, and never a site that asked us to stop.",
		"At most 40 addresses per site in one batch.",
	}
}
