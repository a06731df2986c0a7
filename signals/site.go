// Package signals turns a site's evidence into the findings a reader comes
// for: what robots.txt says to each crawler, the documents read, the gaps,
// the quotes (each verified word for word), and Open by design. It never
// fetches: everything comes from stored evidence (design §4).
//
// The types here are the JSON export of design §6, a public contract:
// fields may be added, none renamed.
package signals

// Site is one site's findings: public/sites/HOST/signals.json.
type Site struct {
	Host         string   `json:"host"`
	Name         string   `json:"name"`
	URL          string   `json:"url"`
	Category     string   `json:"category"`
	Hosts        []string `json:"hosts"`
	Batch        string   `json:"batch"`   // empty when the site has not been crawled yet
	ReadAt       string   `json:"read_at"` // RFC 3339, when the batch read the site
	Blocked      bool     `json:"blocked"`
	BlockedSince string   `json:"blocked_since,omitempty"`
	Notes        string   `json:"notes,omitempty"`

	Robots       Robots      `json:"robots"`
	OtherRobots  []Robots    `json:"other_hosts_robots,omitempty"` // robots.txt of the site's other reviewed hosts
	Read         []Document  `json:"read"`
	NotRead      []Gap       `json:"not_read"`
	NotPublished []string    `json:"not_published"` // well-known files and llms.txt that answered 404/410
	Quotes       []Quote     `json:"quotes"`
	OpenByDesign OpenVerdict `json:"open_by_design"`
}

// Robots is what robots.txt of a host says, as our crawler got it.
type Robots struct {
	Host              string   `json:"host"`
	URL               string   `json:"url"`
	Status            int      `json:"status"`
	Outcome           string   `json:"outcome"` // rules | none | disallow-all | not-read
	Reason            string   `json:"reason,omitempty"`
	Detail            string   `json:"detail,omitempty"`
	Meaning           string   `json:"meaning"` // the outcome in plain words
	SHA256            string   `json:"sha256,omitempty"`
	CrawlDelaySeconds *float64 `json:"crawl_delay_seconds"`
	Sitemaps          []string `json:"sitemaps"`
	Agents            []Agent  `json:"agents"`
	CommentQuotes     []string `json:"comment_quotes"`
	LooksLikeHTML     bool     `json:"looks_like_html,omitempty"`
	Truncated         bool     `json:"truncated,omitempty"`
}

// Agent is robots.txt's verdict for one crawler of our agents list.
type Agent struct {
	Agent       string `json:"agent"`
	Operator    string `json:"operator"`
	Purpose     string `json:"purpose"`
	Category    string `json:"category"`
	Group       string `json:"group"` // own | star | none
	RootAllowed bool   `json:"root_allowed"`
	Line        int    `json:"line"`
}

// Document is an address we read.
type Document struct {
	URL         string `json:"url"`
	FinalURL    string `json:"final_url"`
	Status      int    `json:"status"`
	ContentType string `json:"content_type"`
	FoundVia    string `json:"found_via"`
	LinkText    string `json:"link_text,omitempty"`
	Title       string `json:"title,omitempty"`
	SHA256      string `json:"sha256"` // of the body as stored
	Chars       int    `json:"chars"`  // characters of visible text
	ReadAt      string `json:"read_at"`
	TextError   string `json:"text_error,omitempty"` // why no text could be taken from it
}

// Gap is a planned address we did not read, with its §2.4 reason.
type Gap struct {
	URL      string `json:"url"`
	Reason   string `json:"reason"`
	Detail   string `json:"detail"`
	FoundVia string `json:"found_via"`
	LinkText string `json:"link_text,omitempty"`
	Status   int    `json:"status,omitempty"`
}

// Quote is a sentence of a read page, checked word for word (design §2.5).
type Quote struct {
	URL      string `json:"url"`
	Text     string `json:"text"`
	Topic    string `json:"topic"`
	Source   string `json:"source"` // found | curated
	Verified bool   `json:"verified"`
	ReadAt   string `json:"read_at"`
}

// OpenVerdict is the Open by design finding (design §2.6).
type OpenVerdict struct {
	Verdict bool   `json:"verdict"`
	Why     string `json:"why"`
	API     *Quote `json:"api,omitempty"`     // the quote showing an open API, feed or export
	Licence *Quote `json:"licence,omitempty"` // the quote showing a licence or reuse grant
}

// Index is public/sites.json: every site of the directory in brief.
type Index struct {
	Generated string       `json:"generated"` // the newest batch used
	Sites     []IndexEntry `json:"sites"`
}

// IndexEntry is one row of the directory.
type IndexEntry struct {
	Host          string `json:"host"`
	Name          string `json:"name"`
	Category      string `json:"category"`
	Batch         string `json:"batch"`
	ReadAt        string `json:"read_at"`
	RobotsOutcome string `json:"robots_outcome"`
	AITraining    string `json:"ai_training"` // allowed | partly | disallowed | unknown
	Read          int    `json:"read"`
	NotRead       int    `json:"not_read"`
	OpenByDesign  bool   `json:"open_by_design"`
	Blocked       bool   `json:"blocked"`
	Signals       string `json:"signals"` // path of the site's signals.json
}
