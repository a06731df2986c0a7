package sites

import (
	"net/mail"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// hostProblem says what is wrong with a hostname as written in hosts (already
// lower-cased), or "" when it is a usable hostname.
func hostProblem(h string) string {
	switch {
	case h == "":
		return "is empty"
	case strings.Contains(h, "/"):
		return "is an address, not a bare hostname"
	case strings.HasPrefix(h, "["):
		return "is an IP address, not a hostname"
	case strings.Contains(h, ":"):
		if _, err := netip.ParseAddr(h); err == nil {
			return "is an IP address, not a hostname"
		}
		return "must not name a port"
	}
	if _, err := netip.ParseAddr(h); err == nil {
		return "is an IP address, not a hostname"
	}
	if strings.HasSuffix(h, ".") {
		return "must not end with a dot"
	}
	if len(h) > 253 {
		return "is longer than 253 characters"
	}
	labels := strings.Split(h, ".")
	if len(labels) < 2 {
		return "is not a full domain name (it has no dot)"
	}
	for _, l := range labels {
		if p := labelProblem(l); p != "" {
			return p
		}
	}
	if strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return "has an all-numeric top-level domain"
	}
	return ""
}

func labelProblem(l string) string {
	if l == "" {
		return "has an empty label (two dots in a row)"
	}
	if len(l) > 63 {
		return "has a label longer than 63 characters"
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
		case c >= 0x80:
			return "has non-ASCII letters: write internationalised names in their xn-- form"
		default:
			return "has a character not allowed in hostnames"
		}
	}
	if l[0] == '-' || l[len(l)-1] == '-' {
		return "has a label that starts or ends with a hyphen"
	}
	return ""
}

// webAddress parses an absolute http or https address with a host and no port,
// user name or password. It returns the lower-case host, or a problem.
func webAddress(raw string) (host, problem string) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "is not a valid address"
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return "", "is not an absolute http(s) address"
	}
	if u.Host == "" {
		return "", "has no host"
	}
	if u.User != nil {
		return "", "must not contain a user name or password"
	}
	if u.Port() != "" || strings.HasSuffix(u.Host, ":") {
		return "", "must not name a port"
	}
	host = strings.ToLower(u.Hostname())
	if p := hostProblem(host); p != "" {
		return "", "has a host that " + p
	}
	return host, ""
}

// isDate reports whether s is a calendar date written as YYYY-MM-DD.
func isDate(s string) bool {
	t, err := time.Parse(time.DateOnly, s)
	return err == nil && t.Format(time.DateOnly) == s
}

// isEmail reports whether s is a bare email address, with no display name.
func isEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Name == "" && a.Address == s
}
