package signals

import (
	"net/url"
	"strings"
)

// declaredLicences are the standard licences a read answer declares for
// programs (design §2.6): its <link rel="license"> elements and its
// Link headers with rel="license", each naming a standard licence by its
// well-known address. A declaration counts for Open by design like a
// quoted sentence, and is shown as written with the page it is on.
func declaredLicences(rr readResult) []Licence {
	var out []Licence
	seen := map[string]bool{}
	add := func(name, via, to, evidence string) {
		if name == "" || seen[via+" "+name] {
			return
		}
		seen[via+" "+name] = true
		out = append(out, Licence{Name: name, URL: rr.doc.URL, Via: via, LinksTo: to, Evidence: evidence, Record: rr.doc.Record})
	}
	for _, l := range rr.licenseLinks {
		add(licenceOfURL(l.URL), "link-element", l.URL, `<link rel="license" href="`+l.Href+`">`)
	}
	base, _ := url.Parse(rr.doc.FinalURL)
	for _, h := range rr.header.Values("Link") {
		for _, e := range linkEntries(h) {
			if !hasRel(e.params, "license") {
				continue
			}
			target := e.target
			if u, err := url.Parse(target); err == nil && base != nil {
				target = base.ResolveReference(u).String()
			}
			add(licenceOfURL(target), "link-header", target, "Link: "+e.raw)
		}
	}
	return out
}

// linkEntry is one link of a Link header (RFC 8288): its target as written
// between < and >, its parameters, and the entry as written.
type linkEntry struct {
	target string
	params map[string]string
	raw    string
}

// linkEntries splits a Link header value into its links. Commas inside
// <…> or a quoted string do not split; a malformed entry is skipped.
func linkEntries(v string) []linkEntry {
	var out []linkEntry
	var parts []string
	start, inURL, inQuote := 0, false, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case inQuote && c == '\\':
			i++
		case c == '"' && !inURL:
			inQuote = !inQuote
		case c == '<' && !inQuote:
			inURL = true
		case c == '>' && !inQuote:
			inURL = false
		case c == ',' && !inURL && !inQuote:
			parts = append(parts, v[start:i])
			start = i + 1
		}
	}
	parts = append(parts, v[start:])
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if !strings.HasPrefix(p, "<") {
			continue
		}
		end := strings.IndexByte(p, '>')
		if end < 0 {
			continue
		}
		e := linkEntry{target: strings.TrimSpace(p[1:end]), params: map[string]string{}, raw: p}
		for _, kv := range strings.Split(p[end+1:], ";") {
			k, val, _ := strings.Cut(strings.TrimSpace(kv), "=")
			k = strings.ToLower(strings.TrimSpace(k))
			if k == "" {
				continue
			}
			if _, dup := e.params[k]; !dup { // RFC 8288: the first rel counts
				e.params[k] = strings.Trim(strings.TrimSpace(val), `"`)
			}
		}
		out = append(out, e)
	}
	return out
}

// hasRel says a link's rel parameter holds the relation type (a rel may
// list several, separated by spaces).
func hasRel(params map[string]string, rel string) bool {
	for _, r := range strings.Fields(params["rel"]) {
		if strings.EqualFold(r, rel) {
			return true
		}
	}
	return false
}
