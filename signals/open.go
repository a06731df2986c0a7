package signals

import "strings"

// Licences are the standard licences of design §2.6, with the phrases that
// name them in English and Norwegian text (lower case).
var Licences = []struct {
	Name    string
	Phrases []string
}{
	{"CC0", []string{"cc0", "cc zero", "creative commons zero"}},
	{"CC BY-SA", []string{"cc by-sa", "cc-by-sa", "creative commons attribution-sharealike", "creative commons navngivelse-delpåsammevilkår"}},
	{"CC BY", []string{"cc by", "cc-by", "creative commons attribution", "creative commons navngivelse"}},
	{"NLOD", []string{"nlod", "norsk lisens for offentlige data", "norwegian licence for open government data", "norwegian license for open government data"}},
	{"ODbL", []string{"odbl", "open database license", "open database licence"}},
	{"EU Commission Decision 2011/833", []string{"2011/833"}},
}

// grantWords show a site's own terms granting reuse, when no standard
// licence is named.
var grantWords = []string{
	"fritt gjenbruk", "fritt tilgjengelig for gjenbruk", "kan gjenbrukes", "kan fritt brukes", "fri bruk",
	"may be reused", "free to reuse", "freely reuse", "free to use and share", "may be freely used",
}

// openAccessWords show that an API, feed or export is for anyone, or for
// anyone with a free key.
var openAccessWords = []string{
	"gratis", "fritt tilgjengelig", "åpent tilgjengelig", "åpen for alle", "uten nøkkel", "uten registrering",
	"gratis nøkkel", "gratis api-nøkkel", "free of charge", "free to use", "freely available", "open to anyone",
	"no key", "without a key", "free key", "free api key", "openly available", "open api", "åpent api", "åpne api",
}

// paidWords mark an API that costs money: not open by design.
var paidWords = []string{"betalingstjeneste", "mot betaling", "abonnement", "paid plan", "subscription", "pricing", "priser for api"}

// OpenFormula is the published rule (the about page prints it from here).
const OpenFormula = `A site is "Open by design" when the pages we read show, each in a quote checked word for word:
(a) an official API, feed or export that anyone, or anyone with a free key, may use — a sentence about an API, feed, export or dataset that also says it is free, open or needs only a free key, and does not say it is paid; and
(b) its data under a standard licence (CC0, CC BY, CC BY-SA, NLOD, ODbL, EU Commission Decision 2011/833) or the site's own terms granting reuse — a sentence naming the licence or granting reuse, or a standard licence declared for programs: a <link rel="license"> element or a Link header with rel="license" on a page we read that points at the licence's own address (creativecommons.org/licenses/by/4.0/, data.norge.no/nlod, opendatacommons.org/licenses/odbl …), or an RSL file named by robots.txt's License line whose licence for the whole site asks no payment (free or attribution) and names such a licence.
Both must come from the site as read in the same batch. A curator may add the quotes or overrule the verdict in the site's content file, with a reason that is shown.`

// LicenceIn names the standard licence a text mentions, or "".
func LicenceIn(text string) string {
	s := strings.ToLower(text)
	for _, l := range Licences {
		for _, p := range l.Phrases {
			if strings.Contains(s, p) {
				return l.Name
			}
		}
	}
	return ""
}

func containsAny(text string, words []string) bool {
	s := strings.ToLower(text)
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// The Open by design verdicts, as readers see them.
var OpenVerdicts = []Verdict{
	{"yes", "Yes", "The pages we read show, each in a quote checked word for word, an official API, feed or export anyone (or anyone with a free key) may use, and a standard licence or terms granting reuse; the licence may instead be declared for programs (a rel=\"license\" link or header naming a standard licence, or an RSL file granting one), shown as written."},
	{"no", "No", "We read the site's pages and they do not show both."},
	{"not-determined", "Not determined", "The pages the verdict would rest on were not read: robots.txt was not read, the site asked us to stop, or every page we planned to read is a gap. A gap is never a “no”."},
}

// verdict is the entry of OpenVerdicts that o is.
func (o OpenVerdict) verdict() Verdict {
	switch {
	case o.Verdict == nil:
		return OpenVerdicts[2]
	case *o.Verdict:
		return OpenVerdicts[0]
	}
	return OpenVerdicts[1]
}

// Word is the verdict as readers see it: Yes, No or Not determined.
func (o OpenVerdict) Word() string { return o.verdict().Word }

// Code is the verdict as filters and class names spell it: yes, no or
// not-determined.
func (o OpenVerdict) Code() string { return o.verdict().Code }

// IsOpen says whether the verdict is yes.
func (o OpenVerdict) IsOpen() bool { return o.Verdict != nil && *o.Verdict }

// openByDesign applies OpenFormula to a site's verified quotes. When the
// formula finds no yes and the pages it would rest on were not read, the
// verdict is not determined (nil), never no.
func openByDesign(s *Site) OpenVerdict {
	quotes := s.Quotes
	var api, licence *Quote
	for i := range quotes {
		q := &quotes[i]
		if !q.Verified {
			continue
		}
		if api == nil && q.Topic == TopicAPI &&
			containsAny(q.Text, openAccessWords) && !containsAny(q.Text, paidWords) {
			api = q
		}
		if licence == nil && (LicenceIn(q.Text) != "" || containsAny(q.Text, grantWords)) {
			licence = q
		}
	}
	if licence == nil {
		// the licences found on the pages (named in a sentence, or linked
		// by their well-known address) count as well as a quote does: a CC
		// BY legal code names its licence without a "grant" sentence
		for _, l := range s.Licences {
			if l.Quote != "" && !l.Declared() {
				licence = &Quote{URL: l.URL, Text: l.Quote, Topic: TopicLicence, Source: "found", Verified: true, Stance: "permits", Words: []string{l.Name}}
				for _, d := range s.Read {
					if d.URL == l.URL {
						licence.ReadAt = d.ReadAt
					}
				}
				break
			}
		}
	}
	// A licence declared for programs (a rel="license" link or header, an
	// RSL file) counts for (b) like a quote (design §2.6); it is kept
	// beside a quoted licence too, so the page shows both.
	var declared *Licence
	for i := range s.Licences {
		if s.Licences[i].Declared() {
			l := s.Licences[i]
			declared = &l
			break
		}
	}
	v := OpenVerdict{API: api, Licence: licence, Declared: declared}
	switch {
	case api != nil && licence != nil:
		v.Verdict, v.Why = boolPtr(true), "Open API, feed or export and a stated licence, both quoted."
		return v
	case api != nil && declared != nil:
		v.Verdict, v.Why = boolPtr(true), "Open API, feed or export quoted, and a standard licence ("+declared.Name+") declared for programs in "+declaredWhere(*declared)+"."
		return v
	}
	if why := notDetermined(s); why != "" {
		v.Why = why
		return v
	}
	v.Verdict = boolPtr(false)
	switch {
	case api != nil:
		v.Why = "API found, licence not stated."
	case licence != nil:
		v.Why = "Licence stated, no official API found."
	case declared != nil:
		v.Why = "A standard licence (" + declared.Name + ") declared for programs in " + declaredWhere(*declared) + ", no official API found."
	default:
		v.Why = "Neither an open API, feed or export nor a licence found in the pages we read."
	}
	return v
}

// declaredWhere names, for readers, where a licence is declared for
// programs.
func declaredWhere(l Licence) string {
	switch l.Via {
	case "link-element":
		return `a <link rel="license"> element`
	case "link-header":
		return `a Link header with rel="license"`
	case "rsl":
		return "an RSL file"
	}
	return l.Via
}

// notDetermined says why the pages a verdict rests on were not read, or ""
// when they were.
func notDetermined(s *Site) string {
	switch {
	case s.Blocked:
		return "The site asked us to stop, so we read nothing."
	case s.Batch == "":
		return "The site has not been read yet."
	case !robotsRead(s.Robots):
		return s.Robots.NotReadLead() + " and our rule is then to read no other page of the host, so we read none of the pages a verdict would rest on."
	}
	for _, d := range s.Read {
		if d.Role == RolePolicy {
			return ""
		}
	}
	if len(s.NotRead) > 0 {
		return "We could not read any of the pages it would rest on (see “Not read by us”)."
	}
	return ""
}
