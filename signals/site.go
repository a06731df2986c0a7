// Package signals turns a site's evidence into the findings a reader comes
// for: what robots.txt says to each crawler, the documents read, the gaps,
// the quotes (each verified word for word), Open by design, AI use per
// purpose, RSL and licences. It never fetches: everything comes from
// stored evidence (design §4).
//
// It derives, and does nothing else: one batch's evidence of a site in,
// its findings out (FromBatch), and a site's batches folded, oldest first,
// into its history and the changes between them (History). It keeps
// nothing, reads no derived file and knows no cache: package derived
// decides when a kept finding can be used, and asks this package for the
// rest. Every file of this package is in the key of derived findings, so
// any change here re-derives every finding of every batch (go doc
// ./derived).
//
// The types here are the JSON export of design §6, a public contract:
// fields may be added, none renamed.
package signals

import (
	"slices"

	"github.com/crawlsignals/crawlsignals/robots"
)

// Site is one site's findings: public/sites/HOST/signals.json.
type Site struct {
	Host     string   `json:"host"`
	Name     string   `json:"name"`
	URL      string   `json:"url"`
	Category string   `json:"category"`
	Hosts    []string `json:"hosts"`
	Batch    string   `json:"batch"` // empty when the site has not been crawled yet
	// ReadAt is when the batch read the site (RFC 3339); nil when no request
	// was sent (a site that asked us to stop, or not crawled yet).
	ReadAt       *string `json:"read_at"`
	Blocked      bool    `json:"blocked"`
	BlockedSince string  `json:"blocked_since,omitempty"`
	Notes        string  `json:"notes,omitempty"`
	// Rechecked are the dates (YYYY-MM-DD) the site was re-checked at its
	// owner's request: sites.toml's rechecked, and recheck batches.
	Rechecked []string `json:"rechecked,omitempty"`

	Robots       Robots      `json:"robots"`
	OtherRobots  []Robots    `json:"other_hosts_robots,omitempty"` // robots.txt of the site's other reviewed hosts
	Read         []Document  `json:"read"`
	NotRead      []Gap       `json:"not_read"`
	NotPublished []string    `json:"not_published"` // well-known files and llms.txt that answered 404/410
	Quotes       []Quote     `json:"quotes"`
	OpenByDesign OpenVerdict `json:"open_by_design"`
	// AIUse is the answer to "does this site object to AI training?" from
	// every signal read (design §2.8).
	AIUse AIUse `json:"ai_use"`

	Signals  Signals   `json:"signals"`
	Licences []Licence `json:"licences"`
	// RSL is what became of each RSL file robots.txt's License lines name,
	// and what each file read says (design §2.8).
	RSL            []RSLFile       `json:"rsl"`
	APIs           []APIEvidence   `json:"apis"` // official APIs, feeds and exports described, with their access terms
	Contradictions []Contradiction `json:"contradictions"`
	// Changes since earlier batches, newest first.
	Changes []Change `json:"changes"`
	// History is what robots.txt said to each crawler of the agents list,
	// and the AI use verdict, in each batch that read the site, oldest
	// first: the trend across batches (agents.json is built from it).
	History []BatchVerdicts `json:"history"`

	// lastChanged is the newest batch whose findings changed, over every
	// batch (Changes shows the newest MaxHistory only); "" when none did
	// or it is not known (a Site made outside Build).
	lastChanged string
}

// BatchVerdicts are one batch's verdicts for a site: the crawlers of the
// agents list that robots.txt disallowed, those whose verdict was unknown,
// and (every other one) allowed. Kept as the exceptions, since most sites
// allow most crawlers: a site's history stays small however many batches.
type BatchVerdicts struct {
	Batch      string   `json:"batch"`
	AIUse      string   `json:"ai_use"`
	Disallowed []string `json:"disallowed"` // crawlers of the agents list robots.txt kept from "/"
	Unknown    []string `json:"unknown"`    // all of them when robots.txt was not read
}

// Verdict is what the batch's robots.txt said to the crawler token.
func (b BatchVerdicts) Verdict(token string) string {
	switch {
	case slices.Contains(b.Disallowed, token):
		return AgentDisallowed
	case slices.Contains(b.Unknown, token):
		return AgentUnknown
	}
	return AgentAllowed
}

// batchVerdicts sums up a site's findings of one batch for its history.
func batchVerdicts(batch string, s *Site) BatchVerdicts {
	b := BatchVerdicts{Batch: batch, AIUse: s.AIUse.Verdict, Disallowed: []string{}, Unknown: []string{}}
	verdicts := s.agentVerdicts("")
	for _, a := range robots.Agents() {
		switch verdicts[a.Token] {
		case AgentDisallowed:
			b.Disallowed = append(b.Disallowed, a.Token)
		case AgentUnknown:
			b.Unknown = append(b.Unknown, a.Token)
		}
	}
	return b
}

// Signals are the machine-readable statements a site makes, each with the
// address it came from.
type Signals struct {
	SecurityTxt *SecurityTxt `json:"security_txt"`
	LLMsTxt     *LLMsTxt     `json:"llms_txt"`
	APICatalog  *JSONFile    `json:"api_catalog"`
	GPC         *JSONFile    `json:"gpc"`
	// TDMReservation is the reservation that applies to the site's home
	// path after TDMRep's precedence (file, then header, then HTML meta);
	// TDM lists every statement found.
	TDMReservation *TDMRep        `json:"tdm_reservation"`
	TDM            []TDMRep       `json:"tdm"`
	Headers        []HeaderSignal `json:"headers"` // Content-Usage, X-Robots-Tag, tdm-* headers and robots meta values
	Problems       []string       `json:"problems,omitempty"`
}

// HeaderSignal is one reuse signal in a response header or HTML meta.
type HeaderSignal struct {
	URL    string `json:"url"`
	Record string `json:"record"` // WARC-Record-ID of the response it came from
	Source string `json:"source"` // header | meta
	Name   string `json:"name"`
	Value  string `json:"value"`
}

// Licence is a standard licence a read page names, with the quote that
// shows it; or one declared for programs (design §2.6): a rel="license"
// link element or Link header of a page read, or an RSL file, with the
// element, header or file line that declares it.
type Licence struct {
	Name    string `json:"name"` // e.g. "CC BY 4.0", "NLOD 2.0"
	URL     string `json:"url"`  // the page, or the RSL file
	Quote   string `json:"quote"`
	Via     string `json:"via"` // text | link | link-element | link-header | rsl
	LinksTo string `json:"links_to,omitempty"`
	// Evidence is the declaration as the site wrote it (the <link>
	// element, the Link header's entry, the RSL file's line); Line is the
	// RSL file's line; Record the WARC-Record-ID of the answer it is in.
	Evidence string `json:"evidence,omitempty"`
	Line     int    `json:"line,omitempty"`
	Record   string `json:"record,omitempty"`
}

// Declared says the licence is declared for programs, not quoted from a
// page's text.
func (l Licence) Declared() bool {
	return l.Via == "link-element" || l.Via == "link-header" || l.Via == "rsl"
}

// Contradiction is something a reader should look at twice.
type Contradiction struct {
	Kind   string   `json:"kind"`
	What   string   `json:"what"`
	Quotes []string `json:"quotes,omitempty"`
}

// Robots is what robots.txt of a host says, as our crawler got it.
type Robots struct {
	Host              string   `json:"host"`
	URL               string   `json:"url"`
	Status            int      `json:"status"`
	Outcome           string   `json:"outcome"` // rules | none | not-read: what the file is (design §6)
	Reason            string   `json:"reason,omitempty"`
	Detail            string   `json:"detail,omitempty"`
	Meaning           string   `json:"meaning"` // the outcome in plain words
	SHA256            string   `json:"sha256,omitempty"`
	CrawlDelaySeconds *float64 `json:"crawl_delay_seconds"`
	Sitemaps          []string `json:"sitemaps"`
	// LicenseLines are its License lines (RSL 1.0), each naming an RSL
	// file: global records, like Sitemap, read wherever they stand.
	LicenseLines  []RobotsLicense `json:"license_lines"`
	Agents        []Agent         `json:"agents"`
	CommentQuotes []string        `json:"comment_quotes"`
	Groups        []Group         `json:"groups"`
	// ContentSignals are Content-Signal and Content-Usage lines, each read
	// inside its group (or outside any, which the Agents field says).
	ContentSignals []ContentSignal `json:"content_signals"`
	ContentType    string          `json:"content_type,omitempty"`
	NotTextPlain   bool            `json:"not_text_plain,omitempty"` // served with another content type than text/plain
	LooksLikeHTML  bool            `json:"looks_like_html,omitempty"`
	Truncated      bool            `json:"truncated,omitempty"` // longer than 500 KiB: the rest was not read
	// Lines are the file's lines as our crawler got it, for readers to
	// check each deciding line (at most MaxRobotsLines; LineCount is all).
	Lines     []string `json:"lines,omitempty"`
	LineCount int      `json:"line_count,omitempty"`

	// wholeLines are all LineCount lines, for diffs between batches; set
	// when derived from the WARC and kept among the batch's page texts
	// (robotsTextKey), not in the findings.
	wholeLines []string
}

// Group sums up one group of robots.txt.
type Group struct {
	Agents    []string `json:"agents"`
	FirstLine int      `json:"first_line"`
	LastLine  int      `json:"last_line"`
	Allows    int      `json:"allow_rules"`
	Disallows int      `json:"disallow_rules"`
	// ExampleDisallowed are a few of its disallowed paths: only examples.
	ExampleDisallowed []string `json:"example_disallowed"`
	CrawlDelay        *float64 `json:"crawl_delay_seconds,omitempty"`
	DisallowsRoot     bool     `json:"disallows_everything"`
}

// ContentSignal is one Content-Signal or Content-Usage line.
type ContentSignal struct {
	Kind   string            `json:"kind"`   // Content-Signal | Content-Usage
	Agents []string          `json:"agents"` // the group's agents; empty outside any group
	Line   int               `json:"line"`
	Text   string            `json:"text"` // the value as written
	Values map[string]string `json:"values"`
	Path   string            `json:"path,omitempty"`
}

// Agent is robots.txt's verdict for one crawler of our agents list.
//
// The crawler's own facts (parser token, note, operator, purpose, category) are the
// same on every site: signals.json leaves them out and agents.json states
// them once, so 43 crawlers do not weigh on every site's export. They are
// kept here for the page and the AI verdict, filled from the agents list.
type Agent struct {
	Agent       string `json:"agent"` // the token as its operator publishes it
	ParserToken string `json:"-"`     // as RFC 9309 parsers read it (AI2Bot reads as AI)
	Note        string `json:"-"`
	Operator    string `json:"-"`
	Purpose     string `json:"-"`
	Category    string `json:"-"`
	Group       string `json:"group"` // own | star | none | unknown (robots.txt not read)
	// RootAllowed says whether the crawler may read "/": nil when robots.txt
	// was not read, so nobody knows what it says to this crawler.
	RootAllowed *bool `json:"root_allowed"`
	Line        int   `json:"line"`
}

// Verdict is the agent's verdict in one word: allowed, disallowed or unknown.
func (a Agent) Verdict() string {
	switch {
	case a.RootAllowed == nil:
		return AgentUnknown
	case *a.RootAllowed:
		return AgentAllowed
	}
	return AgentDisallowed
}

// Agent verdicts, as sites.json and agents.json spell them.
const (
	AgentAllowed    = "allowed"
	AgentDisallowed = "disallowed"
	AgentUnknown    = "unknown"
)

// Document is an address we read.
type Document struct {
	URL         string `json:"url"`
	FinalURL    string `json:"final_url"`
	Status      int    `json:"status"`
	ContentType string `json:"content_type"`
	FoundVia    string `json:"found_via"`
	LinkText    string `json:"link_text,omitempty"`
	Title       string `json:"title,omitempty"`
	SHA256      string `json:"sha256"`                // of the body as stored
	Record      string `json:"record"`                // WARC-Record-ID of the stored response, in the batch's SITE.warc.gz (or, for a host shared by several sites, the WARC of the site that asked)
	Chars       int    `json:"chars"`                 // characters of visible text
	TextSHA256  string `json:"text_sha256,omitempty"` // of the visible text: changes in markup alone do not count
	// Role says what the address is to us: a policy document (searched for
	// quotes), the home page (read for its footer links only), a listing (a
	// sitemap: we only check it answers) or a file for programs.
	Role      string `json:"role"`
	ReadAt    string `json:"read_at"`
	TextError string `json:"text_error,omitempty"` // why no text could be taken from it
	// Alternates are the same document in other languages, which we did
	// not read again (design §2: a document is read once).
	Alternates []string `json:"alternates,omitempty"`
	// Language is the language its text is written in, as the terms
	// reader tells it; NotReadForMeaning is set when that is a language
	// whose terms we do not read (design §2.5.1): no quote is found in it.
	Language          string `json:"language,omitempty"`
	NotReadForMeaning bool   `json:"not_read_for_meaning,omitempty"`
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

	// For curated quotes: where the curator wrote it, and when it does not
	// verify, why, the closest passage found, and when it last verified.
	File         string `json:"file,omitempty"`
	Line         int    `json:"line,omitempty"`
	Problem      string `json:"problem,omitempty"`
	Closest      string `json:"closest,omitempty"`
	LastVerified string `json:"last_verified,omitempty"`

	// Objects is set when the quote counts as an objection to AI training
	// (design §2.8): "prohibits" when the sentence itself prohibits AI use,
	// text and data mining, scraping or automated collection; "curator"
	// when a person marked it so.
	Objects string `json:"objects_to_ai,omitempty"`

	// How the sentence was read (design §2.5.1), for found quotes.
	// LeadIn is the verified sentence that introduces the list the quote
	// is an item of ("You agree not to:"), shown before it; CutBefore and
	// CutAfter mark a long sentence quoted as its clause ("…").
	LeadIn    string `json:"lead_in,omitempty"`
	CutBefore bool   `json:"cut_before,omitempty"`
	CutAfter  bool   `json:"cut_after,omitempty"`
	// Stance is prohibits, permits or describes; Subject is site, user or
	// service; Kind names an objecting term ("scraping ban", "AI/TDM
	// reservation"); Words are the words that decided, as written.
	Stance  string   `json:"stance,omitempty"`
	Subject string   `json:"subject,omitempty"`
	Kind    string   `json:"kind,omitempty"`
	Words   []string `json:"words,omitempty"`
	// Rank orders the site's found quotes, strongest first: 1 is the
	// strongest of the site. Quotes are kept in document order per page.
	Rank int `json:"rank,omitempty"`

	score, order int // the reader's score and the sentence's place, for ranking
}

// Says is a quote as an AI source repeats it: with its lead-in, and "…"
// where a long sentence was cut. The page finds a source's quote by it.
func (q Quote) Says() string {
	t := q.Text
	if q.CutBefore {
		t = "… " + t
	}
	if q.CutAfter {
		t += " …"
	}
	if q.LeadIn != "" {
		t = q.LeadIn + " … " + t
	}
	return t
}

// OpenVerdict is the Open by design finding (design §2.6).
type OpenVerdict struct {
	// Verdict is yes (true), no (false) or not determined (nil): the pages
	// it would rest on were not read. A gap is never a "no".
	Verdict *bool  `json:"verdict"`
	Why     string `json:"why"`
	// Overridden is set when a curator overruled the formula; Why then
	// gives their reason and Formula what the formula said.
	Overridden bool   `json:"overridden,omitempty"`
	Formula    string `json:"formula_verdict,omitempty"`
	API        *Quote `json:"api,omitempty"`     // the quote showing an open API, feed or export
	Licence    *Quote `json:"licence,omitempty"` // the quote showing a licence or reuse grant
	// Declared is a standard licence declared for programs (a rel="license"
	// link element or Link header, an RSL file), which counts for the
	// licence part like a quote (design §2.6).
	Declared *Licence `json:"licence_declared,omitempty"`
}

// Index is public/sites.json: every site of the directory in brief.
type Index struct {
	Generated string       `json:"generated"` // when the newest batch used started (RFC 3339)
	Batch     string       `json:"batch"`     // the newest batch used
	Sites     []IndexEntry `json:"sites"`
}

// IndexEntry is one row of the directory.
type IndexEntry struct {
	Host          string  `json:"host"`
	URL           string  `json:"url"`
	Name          string  `json:"name"`
	Category      string  `json:"category"`
	Batch         string  `json:"batch"`
	ReadAt        *string `json:"read_at"`
	RobotsOutcome string  `json:"robots_outcome"`
	AIUse         string  `json:"ai_use"` // refused | partly-refused | no-objection-found | unknown
	// AIRestsOn says what that verdict rests on, as the directory row says
	// it; AIPurposes maps each purpose (training, answers, search) to its
	// verdict; TermsRead says whether some terms page was read for meaning.
	AIRestsOn  string            `json:"ai_use_rests_on"`
	AIPurposes map[string]string `json:"ai_purposes"`
	TermsRead  bool              `json:"terms_read"`
	// RobotsAgents maps each AI training crawler of the agents list to what
	// the home host's robots.txt alone says to it about "/": allowed,
	// disallowed or unknown. It is not the AI use answer: a crawler
	// robots.txt allows may be refused by another signal (see ai_use and
	// the site's signals.json ai_use.crawlers). Named robots_agents, not
	// agents, so that no one reads "allowed" as the site's answer.
	RobotsAgents map[string]string `json:"robots_agents"`
	Read         int               `json:"read"`      // addresses read, the home page and files included
	Documents    int               `json:"documents"` // policy documents among them
	NotRead      int               `json:"not_read"`
	OpenByDesign *bool             `json:"open_by_design"`
	LookTwice    int               `json:"look_twice"`
	// LastChanged is the newest batch in which the site's findings changed
	// (looking back over every batch that read it, not only the newest
	// MaxHistory that Site.Changes shows), or null when nothing changed.
	LastChanged *string `json:"last_changed"`
	Blocked     bool    `json:"blocked"`
	Signals     string  `json:"signals"` // path of the site's signals.json
}
