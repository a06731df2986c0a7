// Package evidence is the write-once store of a crawl batch (design §4).
//
// A batch is a folder batches/BATCH/ (BATCH is the UTC start time,
// 20261201T060000Z). For each site it holds SITE.warc.gz, every exchange
// with any of the site's reviewed hosts as WARC 1.1 records (per-record gzip,
// sha256 digests), and SITE.json, the manifest: every address the crawler
// planned for the site, what became of it, and where its records are.
// SITE is the host of the site's home page, the key the whole product uses.
// An answer of a host shared by several sites is stored once, in the WARC of
// the site that asked first; the other sites' manifests name that site
// (Exchange.StoredBy), and the reader and Verify follow them there.
//
// Files are written under a temporary name and renamed when complete, so a
// manifest that exists describes a WARC that exists; nothing is rewritten.
package evidence

import "time"

// BatchLayout is the time layout of a batch name.
const BatchLayout = "20060102T150405Z"

// Manifest describes one site's part of a batch.
type Manifest struct {
	Site  string `json:"site"`  // host of the site's home page
	Name  string `json:"name"`  // the site's name in sites.toml
	Batch string `json:"batch"` // batch folder name
	WARC  string `json:"warc"`  // file name of the WARC, relative to the batch folder
	// WARCSHA256 is the hex sha256 of the whole WARC file as written: the
	// records' digests do not cover the gzip headers around them (flags,
	// time, OS), this does. Empty in manifests written before it was kept.
	WARCSHA256 string    `json:"warc_sha256,omitempty"`
	Started    time.Time `json:"started"`
	Finished   time.Time `json:"finished"`
	// Blocked is set when the site is blocked in sites.toml: no request was sent.
	Blocked      bool   `json:"blocked,omitempty"`
	BlockedSince string `json:"blocked_since,omitempty"`
	// Hosts records, per reviewed host contacted, how its robots.txt answered.
	Hosts     []HostRobots `json:"hosts"`
	Addresses []Address    `json:"addresses"`
}

// HostRobots is the robots.txt outcome for one host, as the crawler applied it.
type HostRobots struct {
	Host    string `json:"host"`
	URL     string `json:"url"`
	Status  int    `json:"status,omitempty"` // HTTP status of the final answer; 0 when none
	Outcome string `json:"outcome"`          // rules | none | disallow-all | not-read
	Reason  string `json:"reason,omitempty"` // a §2.4 reason when Outcome is disallow-all or not-read
	Detail  string `json:"detail,omitempty"`
	// CrawlDelay is the delay robots.txt asked of us, in seconds (0 when none).
	CrawlDelay float64 `json:"crawl_delay_seconds,omitempty"`
}

// Address is one planned address and what became of it.
type Address struct {
	URL      string `json:"url"`
	FoundVia string `json:"found_via"` // robots | home | footer | hop | well-known | llms | robots-named | approved
	LinkText string `json:"link_text,omitempty"`
	From     string `json:"from,omitempty"` // the page whose link planned it

	// Outcome is "read" when a 2xx answer of a content type we read was
	// stored, "gap" otherwise (Reason says why, in the §2.4 vocabulary).
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
	Detail  string `json:"detail,omitempty"`

	// Alternates are the same document in other languages (hreflang
	// alternates, or the address under a language switch) that were
	// therefore not read: a document is read once. Never gaps.
	Alternates []string `json:"alternates,omitempty"`

	Status      int       `json:"status,omitempty"` // status of the final answer
	FinalURL    string    `json:"final_url,omitempty"`
	ContentType string    `json:"content_type,omitempty"`
	FetchedAt   time.Time `json:"fetched_at,omitzero"`

	// Exchanges are the request/response pairs made for this address, in
	// order: one per redirect hop, one more for a retry.
	Exchanges []Exchange `json:"exchanges,omitempty"`
}

// Exchange locates one request/response pair in the site's WARC file, or,
// when StoredBy is set, in the WARC of another site of the same batch.
type Exchange struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
	// StoredBy names the site whose WARC in this batch holds the records,
	// when that is not this site: a host reviewed for several sites is
	// asked for each address once per batch (design §2), its records are
	// stored once, by the site whose run asked first, and every other site
	// that planned the address points at them. Empty: this site's WARC.
	StoredBy string `json:"stored_by,omitempty"`
	// RequestOffset and ResponseOffset are byte offsets of the gzip members
	// holding the records in the WARC file.
	RequestOffset  int64  `json:"request_offset"`
	ResponseOffset int64  `json:"response_offset"`
	ResponseID     string `json:"response_id"`    // WARC-Record-ID of the response record
	PayloadSHA256  string `json:"payload_sha256"` // hex sha256 of the body as received
}

// HasResponse reports whether the exchange got an answer. Without one
// (ResponseID is empty; the WARC then holds only the request and a metadata
// record saying why) ResponseOffset, Status and PayloadSHA256 mean nothing.
// ResponseID is the record ID without the angle brackets WARC puts around
// it, e.g. "urn:uuid:…".
func (x Exchange) HasResponse() bool { return x.ResponseID != "" }

// Outcomes of an address.
const (
	OutcomeRead = "read"
	OutcomeGap  = "gap"
)
