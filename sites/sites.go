// Package sites is the reviewed list: the types of sites.toml and its strict
// loading. Both halves of the pipeline import it; it touches no network.
package sites

import "time"

// List is a loaded sites.toml.
type List struct {
	Path   string // the file it was loaded from, for messages
	Global Global
	Sites  []Site
}

// Global holds the settings of the [global] table.
type Global struct {
	// MaxAddresses is the most addresses read per site in one batch (design §2).
	MaxAddresses int
	// MaxCrawlDelay is the longest robots.txt Crawl-delay we are willing to wait.
	MaxCrawlDelay time.Duration
	// Contact is the address in our From header and the re-check mailto link.
	Contact string
}

// Defaults for the global section.
const (
	DefaultMaxAddresses  = 40
	DefaultMaxCrawlDelay = 300 * time.Second
	DefaultContact       = "crawler@crawlsignals.com"
)

// Site is one reviewed site.
type Site struct {
	Name string
	URL  string // home page, http or https
	// Host is the host of URL, lower-case: the site's key everywhere.
	Host string
	// Hosts are the reviewed hostnames; Host is always among them.
	Hosts []string
	// Approved are extra addresses a person approved for this site.
	Approved     []string
	Blocked      bool
	BlockedSince string // YYYY-MM-DD
	Category     string
	Notes        string
	Rechecked    []string // YYYY-MM-DD dates of re-checks on request
	Line         int      // line of the [[site]] header in the file
}

// Reviewed reports whether host is one of the site's reviewed hosts.
func (s *Site) Reviewed(host string) bool {
	for _, h := range s.Hosts {
		if h == host {
			return true
		}
	}
	return false
}
