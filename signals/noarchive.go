package signals

import (
	"slices"
	"strings"

	"github.com/crawlsignals/crawlsignals/robots"
)

// AIHonour is a crawler whose operator says it honours a signal for a
// purpose other than the crawler's own: Microsoft says content marked
// noarchive is not used to train its models, though bingbot crawls for
// search. Such a signal objects for the operator's use for that purpose,
// which no crawler of ours stands for, so it is said per operator (the
// site page's matrix), not in a crawler's verdict.
type AIHonour struct {
	Agent   string `json:"agent"`
	Purpose string `json:"purpose"`
}

// honoursOf are the signals each crawler's operator says it honours, from
// the agents list.
func honoursOf() map[string][]robots.Honour {
	out := map[string][]robots.Honour{}
	for _, a := range robots.Agents() {
		out[a.Token] = a.Honours
	}
	return out
}

// noArchiveSources finds noarchive and nocache in X-Robots-Tag headers and
// robots meta tags. They are search engines' words for "no cached copy";
// they object to an AI use only for the crawlers whose operators document
// them so (the agents list's honours, each dated with its source), and
// only for the purposes those operators name. A directive for one named
// crawler ("bingbot: noarchive") is for that one. On the home page it
// covers the whole site, on another page that page.
func noArchiveSources(s *Site, byPurpose map[string][]Agent) []AISource {
	honours := honoursOf()
	var out []AISource
	for _, h := range s.Signals.Headers {
		kind := ""
		switch {
		case h.Source == "header" && h.Name == "x-robots-tag":
			kind = "x-robots-tag"
		case h.Source == "meta" && h.Name == "robots":
			kind = "meta"
		default:
			continue
		}
		agent, directives, named := strings.Cut(h.Value, ":")
		if !named || strings.ContainsAny(agent, ", ") {
			agent, directives, named = "", h.Value, false
		}
		var found []string
		for _, d := range strings.FieldsFunc(strings.ToLower(directives), func(r rune) bool { return r == ',' || r == ' ' }) {
			if (d == "noarchive" || d == "nocache") && !slices.Contains(found, d) {
				found = append(found, d)
			}
		}
		if len(found) == 0 {
			continue
		}
		src := AISource{Kind: kind, URL: h.URL, Record: h.Record, Says: h.Name + ": " + h.Value, Purposes: []string{}, ObjectsFor: []string{}}
		for _, a := range s.Robots.Agents {
			if a.RootAllowed == nil || (named && !strings.EqualFold(strings.TrimSpace(agent), a.Agent)) {
				continue
			}
			for _, hn := range honours[a.Agent] {
				if !slices.Contains(found, hn.Signal) {
					continue
				}
				if !slices.Contains(src.ObjectsFor, hn.Purpose) {
					src.ObjectsFor = append(src.ObjectsFor, hn.Purpose)
					src.Purposes = append(src.Purposes, hn.Purpose)
				}
				own := PurposeOf(a.Category) == hn.Purpose && slices.ContainsFunc(byPurpose[hn.Purpose], func(b Agent) bool { return b.Agent == a.Agent })
				switch {
				case own && !slices.Contains(src.Crawlers, a.Agent):
					src.Crawlers = append(src.Crawlers, a.Agent)
				case !own && !slices.Contains(src.Honoured, AIHonour{a.Agent, hn.Purpose}):
					src.Honoured = append(src.Honoured, AIHonour{Agent: a.Agent, Purpose: hn.Purpose})
				}
			}
		}
		src.WholeSite = (len(src.Crawlers) > 0 || len(src.Honoured) > 0) && samePage(h.URL, s.URL)
		out = append(out, src)
	}
	return out
}

// isNoArchive says whether a source is a noarchive or nocache directive
// (noArchiveSources), not a noai one.
func isNoArchive(src AISource) bool {
	v := strings.ToLower(src.Says)
	return (src.Kind == "meta" || src.Kind == "x-robots-tag") && !strings.Contains(v, "noai") &&
		(strings.Contains(v, "noarchive") || strings.Contains(v, "nocache"))
}

// honouringOperators names the operators that document a noarchive or
// nocache source as an opt-out, in the agents list's order.
func honouringOperators(src AISource) []string {
	var out []string
	for _, a := range robots.Agents() {
		honoured := slices.Contains(src.Crawlers, a.Token) || slices.ContainsFunc(src.Honoured, func(h AIHonour) bool { return h.Agent == a.Token })
		if honoured && !slices.Contains(out, a.Operator) {
			out = append(out, a.Operator)
		}
	}
	return out
}

// noArchiveWords name a noarchive source for a verdict's reason: the
// directive, and whose opt-out it is.
func noArchiveWords(src AISource) string {
	d := "noarchive"
	if !strings.Contains(strings.ToLower(src.Says), "noarchive") {
		d = "nocache"
	}
	where := "a robots meta tag"
	if src.Kind == "x-robots-tag" {
		where = "an X-Robots-Tag header"
	}
	return d + " in " + where + " (documented as an opt-out by " + strings.Join(honouringOperators(src), " and ") + ")"
}

// Words name a source's kind for readers; a noarchive or nocache directive
// says whose opt-out it is.
func (src AISource) Words() string {
	if isNoArchive(src) {
		return noArchiveWords(src)
	}
	return SourceWords(src.Kind)
}
