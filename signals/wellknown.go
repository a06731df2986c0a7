package signals

import (
	"bufio"
	"encoding/json"
	"regexp"
	"strings"
	"time"
)

// SecurityTxt is what /.well-known/security.txt says (RFC 9116).
type SecurityTxt struct {
	URL                string   `json:"url"`
	Record             string   `json:"record"` // WARC-Record-ID of the response read
	Contact            []string `json:"contact"`
	Expires            string   `json:"expires,omitempty"` // as written
	Expired            bool     `json:"expired"`           // Expires is before the batch read it
	ExpiresMissing     bool     `json:"expires_missing,omitempty"`
	Policy             []string `json:"policy,omitempty"`
	PreferredLanguages string   `json:"preferred_languages,omitempty"`
	Problems           []string `json:"problems,omitempty"` // what RFC 9116 requires and the file lacks
}

// parseSecurityTxt reads the fields we report. at is when the batch read
// the file: "expired" is judged on that date, not on the build's.
func parseSecurityTxt(url, text string, at time.Time) *SecurityTxt {
	s := &SecurityTxt{URL: url, Contact: []string{}}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "-----") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "contact":
			s.Contact = append(s.Contact, val)
		case "expires":
			if s.Expires == "" {
				s.Expires = val
			}
		case "policy":
			s.Policy = append(s.Policy, val)
		case "preferred-languages":
			s.PreferredLanguages = val
		}
	}
	if len(s.Contact) == 0 {
		s.Problems = append(s.Problems, "no Contact field (RFC 9116 requires one)")
	}
	if s.Expires == "" {
		s.ExpiresMissing = true
		s.Problems = append(s.Problems, "no Expires field (RFC 9116 requires one)")
	} else if t, err := time.Parse(time.RFC3339, s.Expires); err != nil {
		s.Problems = append(s.Problems, "Expires is not an RFC 3339 date: "+s.Expires)
	} else if t.Before(at) {
		s.Expired = true
	}
	return s
}

// LLMsTxt is what /llms.txt says: its title, summary and the links it
// lists (which we record and never follow).
type LLMsTxt struct {
	URL     string    `json:"url"`
	Record  string    `json:"record"`
	Title   string    `json:"title,omitempty"`
	Summary string    `json:"summary,omitempty"`
	Links   []LLMLink `json:"links"`
}

// LLMLink is one Markdown link of llms.txt.
type LLMLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// maxLLMLinks keeps a long llms.txt from swamping a site's page.
const maxLLMLinks = 50

func parseLLMsTxt(url, text string) *LLMsTxt {
	l := &LLMsTxt{URL: url, Links: []LLMLink{}}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case l.Title == "" && strings.HasPrefix(line, "# "):
			l.Title = strings.TrimSpace(line[2:])
		case l.Summary == "" && strings.HasPrefix(line, ">"):
			l.Summary = strings.TrimSpace(strings.TrimPrefix(line, ">"))
		}
		for rest := line; len(l.Links) < maxLLMLinks; {
			open := strings.Index(rest, "[")
			if open < 0 {
				break
			}
			mid := strings.Index(rest[open:], "](")
			if mid < 0 {
				break
			}
			end := strings.Index(rest[open+mid:], ")")
			if end < 0 {
				break
			}
			text := rest[open+1 : open+mid]
			target := rest[open+mid+2 : open+mid+end]
			if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "/") {
				l.Links = append(l.Links, LLMLink{Text: text, URL: target})
			}
			rest = rest[open+mid+end+1:]
		}
	}
	return l
}

// TDMRep is a text-and-data-mining reservation (W3C TDMRep): from
// /.well-known/tdmrep.json, a tdm-reservation header, or HTML meta.
type TDMRep struct {
	Source      string `json:"source"` // well-known | header | meta
	URL         string `json:"url"`    // where it was read
	Record      string `json:"record"` // WARC-Record-ID of that response
	Location    string `json:"location,omitempty"`
	Reservation bool   `json:"reservation"`
	Policy      string `json:"policy,omitempty"`
}

// parseTDMRepJSON reads the rules of tdmrep.json and returns the one that
// applies to the home page's path: the first whose location matches.
func parseTDMRepJSON(url, text, homePath string) (*TDMRep, string) {
	var rules []struct {
		Location    string `json:"location"`
		Reservation any    `json:"tdm-reservation"`
		Policy      string `json:"tdm-policy"`
	}
	if err := json.Unmarshal([]byte(text), &rules); err != nil {
		return nil, "tdmrep.json is not a JSON array of rules: " + err.Error()
	}
	for _, r := range rules {
		if !tdmLocationMatches(r.Location, homePath) {
			continue
		}
		return &TDMRep{Source: "well-known", URL: url, Location: r.Location, Reservation: tdmTrue(r.Reservation), Policy: r.Policy}, ""
	}
	return nil, "no rule of tdmrep.json covers " + homePath
}

// tdmLocationMatches follows TDMRep's location patterns, which borrow
// robots.txt's: a path prefix, "*" for any run of characters, and a final
// "$" anchoring the end.
func tdmLocationMatches(pattern, path string) bool {
	if pattern == "" {
		return false
	}
	anchored := strings.HasSuffix(pattern, "$")
	pattern = strings.TrimSuffix(pattern, "$")
	parts := strings.Split(pattern, "*")
	var re strings.Builder
	re.WriteString("^")
	for i, p := range parts {
		if i > 0 {
			re.WriteString(".*")
		}
		re.WriteString(regexp.QuoteMeta(p))
	}
	if anchored {
		re.WriteString("$")
	}
	ok, err := regexp.MatchString(re.String(), path)
	return err == nil && ok
}

func tdmTrue(v any) bool {
	switch x := v.(type) {
	case float64:
		return x == 1
	case string:
		return strings.TrimSpace(x) == "1"
	case bool:
		return x
	}
	return false
}

// JSONFile records a JSON well-known file (api-catalog, gpc.json): present,
// whether it parses, and a few facts from it.
type JSONFile struct {
	URL    string   `json:"url"`
	Record string   `json:"record"`
	Valid  bool     `json:"valid"`
	Facts  []string `json:"facts"`
	Detail string   `json:"detail,omitempty"`
}

// parseAPICatalog reads an RFC 9727 api-catalog (a linkset): the anchors
// and service links it lists.
func parseAPICatalog(url, text string) *JSONFile {
	f := &JSONFile{URL: url, Facts: []string{}}
	var doc struct {
		Linkset []map[string]json.RawMessage `json:"linkset"`
	}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		f.Detail = "not JSON: " + err.Error()
		return f
	}
	f.Valid = doc.Linkset != nil
	if !f.Valid {
		f.Detail = "no linkset member"
	}
	for _, entry := range doc.Linkset {
		var anchor string
		json.Unmarshal(entry["anchor"], &anchor)
		if anchor != "" {
			f.Facts = append(f.Facts, "API: "+anchor)
		}
		for _, rel := range []string{"service-desc", "service-doc", "service-meta", "status"} {
			var targets []struct {
				Href string `json:"href"`
			}
			json.Unmarshal(entry[rel], &targets)
			for _, t := range targets {
				if t.Href != "" {
					f.Facts = append(f.Facts, rel+": "+t.Href)
				}
			}
		}
	}
	return f
}

// parseGPC reads /.well-known/gpc.json (Global Privacy Control).
func parseGPC(url, text string) *JSONFile {
	f := &JSONFile{URL: url, Facts: []string{}}
	var doc struct {
		GPC         *bool  `json:"gpc"`
		LastUpdate  string `json:"lastUpdate"`
		LastUpdate2 string `json:"last_update"`
	}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		f.Detail = "not JSON: " + err.Error()
		return f
	}
	if doc.GPC == nil {
		f.Detail = "no gpc member"
		return f
	}
	f.Valid = true
	if *doc.GPC {
		f.Facts = append(f.Facts, "honours Global Privacy Control signals")
	} else {
		f.Facts = append(f.Facts, "says it does not honour Global Privacy Control signals")
	}
	if d := doc.LastUpdate + doc.LastUpdate2; d != "" {
		f.Facts = append(f.Facts, "last updated "+d)
	}
	return f
}
