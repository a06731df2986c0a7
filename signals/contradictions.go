package signals

import (
	"fmt"
	"slices"
	"strings"
)

// reuseDenials mark a sentence that denies reuse.
var reuseDenials = []string{
	"kan ikke gjenbrukes", "ikke gjenbrukes", "alle rettigheter forbeholdt", "all rights reserved",
	"may not be reused", "may not be reproduced", "not be copied", "ikke kopieres",
}

// contradictions flags what a reader should look at twice: every place
// where robots.txt and the site's other signals point different ways.
func contradictions(s *Site) []Contradiction {
	out := []Contradiction{}
	var denies []string
	for _, q := range s.Quotes {
		if q.Verified && containsAny(q.Text, reuseDenials) {
			denies = append(denies, q.Text)
		}
	}
	u := s.AIUse
	if len(u.RobotsAllowed) > 0 {
		// robots.txt lets some AI training crawler in while another signal
		// objects for it: one entry per kind of signal, each with what it
		// says.
		let := fmt.Sprintf("robots.txt lets %d of %d AI training crawlers read the home page (%s)",
			len(u.RobotsAllowed), len(u.RobotsAllowed)+len(u.RobotsRefused), shortList(u.RobotsAllowed, 4))
		if len(u.RobotsRefused) == 0 {
			let = fmt.Sprintf("robots.txt lets all %d AI training crawlers read the home page", len(u.RobotsAllowed))
		}
		byKind := map[string][]string{}
		words := map[string]string{} // the first source's words: noarchive says whose opt-out it is
		var kinds []string
		for _, src := range u.Sources {
			if src.Kind == "robots" || src.Objects == "" || !slices.ContainsFunc(src.Crawlers, func(c string) bool { return slices.Contains(u.RobotsAllowed, c) }) {
				continue
			}
			if _, ok := byKind[src.Kind]; !ok {
				kinds = append(kinds, src.Kind)
				words[src.Kind] = src.Words()
			}
			byKind[src.Kind] = append(byKind[src.Kind], src.Says)
		}
		for _, k := range kinds {
			out = append(out, Contradiction{Kind: "robots-allows-" + k + "-objects",
				What:   let + ", while " + words[k] + " objects to AI training.",
				Quotes: byKind[k]})
		}
	}
	if len(u.RobotsRefused) > 0 && len(u.RobotsAllowed) == 0 && (len(s.Licences) > 0 || s.OpenByDesign.IsOpen()) {
		out = append(out, Contradiction{Kind: "robots-forbids-terms-allow",
			What:   "robots.txt disallows every AI training crawler, while the pages we read state an open licence for the data.",
			Quotes: licenceQuotes(s.Licences)})
	}
	if t := s.Signals.TDMReservation; t != nil && t.Reservation && t.Policy == "" {
		out = append(out, Contradiction{Kind: "tdm-reservation-without-policy",
			What: "Text and data mining rights are reserved (TDMRep, " + t.Source + ") without a policy saying how to obtain a licence."})
	}
	if len(s.Licences) > 0 && len(denies) > 0 {
		out = append(out, Contradiction{Kind: "licence-and-denial",
			What:   "One page states a licence for reuse while another denies reuse.",
			Quotes: append(licenceQuotes(s.Licences), denies...)})
	}
	return out
}

// shortList names up to n items and says how many more there are.
func shortList(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}

// licenceQuotes are the licences' quotes; a licence declared for programs
// has none, and its declaration as written stands in its place.
func licenceQuotes(ls []Licence) []string {
	var out []string
	for _, l := range ls {
		if l.Declared() {
			out = append(out, l.Evidence)
			continue
		}
		out = append(out, l.Quote)
	}
	return out
}
