package signals

// prohibitionWords mark a sentence that forbids something (English and Norwegian).
var prohibitionWords = []string{
	"ikke tillatt", "forbudt", "ikke lov", "er ikke tillatt", "kan ikke", "må ikke", "uten skriftlig samtykke", "uten samtykke",
	"not permitted", "prohibited", "not allowed", "may not", "must not", "forbidden", "without prior written", "without written",
}

// reuseDenials mark a sentence that denies reuse.
var reuseDenials = []string{
	"kan ikke gjenbrukes", "ikke gjenbrukes", "alle rettigheter forbeholdt", "all rights reserved",
	"may not be reused", "may not be reproduced", "not be copied", "ikke kopieres",
}

// contradictions flags what a reader should look at twice (issue 6 item 6).
func contradictions(s *Site) []Contradiction {
	out := []Contradiction{}
	var forbids, denies []string
	for _, q := range s.Quotes {
		if !q.Verified {
			continue
		}
		if (q.Topic == TopicScraping || q.Topic == TopicAI) && containsAny(q.Text, prohibitionWords) {
			forbids = append(forbids, q.Text)
		}
		if containsAny(q.Text, reuseDenials) {
			denies = append(denies, q.Text)
		}
	}
	ai := s.AITraining()
	if len(forbids) > 0 && (ai == "allowed" || ai == "partly") {
		out = append(out, Contradiction{Kind: "robots-allows-terms-forbid",
			What:   "robots.txt lets AI training crawlers read the site (" + ai + "), while the pages we read forbid scraping or AI use.",
			Quotes: forbids})
	}
	if ai == "disallowed" && (len(s.Licences) > 0 || s.OpenByDesign.Verdict) {
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

func licenceQuotes(ls []Licence) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Quote)
	}
	return out
}
