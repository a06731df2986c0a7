package signals

import "strings"

// APIEvidence is an official API, feed or export a site's pages describe,
// with its access terms as the quote states them.
type APIEvidence struct {
	URL    string `json:"url"`    // the page (or api-catalog) it was read on
	Quote  string `json:"quote"`  // verified sentence; empty for an api-catalog entry
	Via    string `json:"via"`    // link (a page reached through a link naming API or data) | text | api-catalog
	Access string `json:"access"` // open | free-key | registration | paid | unstated
}

// Access terms, most specific first: a sentence that names a key and says
// it is free is "free-key", not "open".
var accessTerms = []struct {
	access string
	words  []string
}{
	{"paid", paidWords},
	{"free-key", []string{"gratis api-nøkkel", "gratis nøkkel", "free api key", "free key", "gratis å registrere", "free of charge with a key"}},
	// Said without a key or registration: checked before "registration",
	// whose words these sentences also hold.
	{"open", []string{"uten nøkkel", "uten api-nøkkel", "uten registrering", "verken api-nøkkel", "verken nøkkel", "no key", "without a key", "without registration", "no registration", "no sign-up"}},
	{"registration", []string{"registrer", "register", "sign up", "api-nøkkel", "api key", "nøkkel", "token"}},
	{"open", []string{"åpent for alle", "åpen for alle", "open to anyone", "gratis", "free to use", "free of charge", "fritt tilgjengelig", "åpent api", "open api"}},
}

// accessOf reads the access terms a sentence states.
func accessOf(text string) string {
	for _, t := range accessTerms {
		if containsAny(text, t.words) {
			return t.access
		}
	}
	return "unstated"
}

// apiEvidence lists the API, feed and export statements among a site's
// verified quotes, and the APIs an api-catalog names. via says how each
// quoted page was reached.
func apiEvidence(s *Site, linkVia map[string]string) []APIEvidence {
	out := []APIEvidence{}
	for _, q := range s.Quotes {
		if !q.Verified || q.Topic != TopicAPI {
			continue
		}
		via := "text"
		if linkVia[q.URL] != "" {
			via = "link"
		}
		out = append(out, APIEvidence{URL: q.URL, Quote: q.Text, Via: via, Access: accessOf(q.Text)})
	}
	if c := s.Signals.APICatalog; c != nil && c.Valid {
		for _, f := range c.Facts {
			if strings.HasPrefix(f, "API: ") {
				out = append(out, APIEvidence{URL: c.URL, Via: "api-catalog", Access: "unstated", Quote: ""})
				break
			}
		}
	}
	return out
}
