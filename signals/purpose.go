package signals

import (
	"slices"
	"strings"
)

// The purposes of AI use a verdict is given for (design §2.8): operators
// split their crawlers by purpose, and sites their signals, so one verdict
// for "AI" would hide the answer a publisher actually gave (block training,
// allow answers, keep search).
const (
	PurposeTraining = "training" // AI training crawlers; ai-train, train-ai, TDM, noai
	PurposeAnswers  = "answers"  // AI search, retrieval, grounding, user-triggered fetchers; ai-input
	PurposeSearch   = "search"   // search engines; search
)

// Purposes are the purposes in the order a reader meets them: training
// first, as it is the headline.
var Purposes = []string{PurposeTraining, PurposeAnswers, PurposeSearch}

// PurposeOf is the purpose of a crawler of the agents list from its
// category, or "" for a category no purpose covers (ours, archive).
func PurposeOf(category string) string {
	switch category {
	case "ai-training":
		return PurposeTraining
	case "ai-assistant":
		return PurposeAnswers
	case "search":
		return PurposeSearch
	}
	return ""
}

// purposeWords name a purpose for readers, and purposeCrawlers its
// crawlers.
var (
	purposeWords    = map[string]string{PurposeTraining: "AI training", PurposeAnswers: "AI answers", PurposeSearch: "Search"}
	purposeCrawlers = map[string]string{PurposeTraining: "AI training crawlers", PurposeAnswers: "AI answer and fetch crawlers", PurposeSearch: "search crawlers"}
)

// PurposeWords is the reader's name for a purpose ("AI answers").
func PurposeWords(p string) string {
	if w, ok := purposeWords[p]; ok {
		return w
	}
	return p
}

// AIPurpose is the verdict for one purpose, combined per crawler of that
// purpose exactly as the training verdict is (design §2.8).
type AIPurpose struct {
	Purpose string `json:"purpose"` // training | answers | search
	Verdict string `json:"verdict"` // one of the AIVerdicts codes
	// Sources are the indexes, into AIUse.Sources, of the signals that
	// decided it: those that object for some crawler of the purpose, or,
	// when none does, robots.txt's lines for them.
	Sources  []int       `json:"sources"`
	Crawlers []AICrawler `json:"crawlers"`
}

// keyPurposes map the keys of Content-Signal and Content-Usage (lines,
// headers, meta) to the purpose they speak to. Content-Signal says ai-train,
// ai-input and search; the IETF AI-prefs vocabulary train-ai and search;
// train-genai and ai-train in Content-Usage are earlier drafts' words for
// training, counted as before.
var keyPurposes = map[string]map[string]string{
	"content-signal": {"ai-train": PurposeTraining, "ai-input": PurposeAnswers, "search": PurposeSearch,
		"train-ai": PurposeTraining, "train-genai": PurposeTraining},
	"content-usage": {"train-ai": PurposeTraining, "train-genai": PurposeTraining, "ai-train": PurposeTraining,
		"search": PurposeSearch},
}

// keysSay reads a Content-Signal or Content-Usage value's keys: the
// purposes it speaks to, and those it says no to, in Purposes order.
func keysSay(kind string, values map[string]string) (speaks, objects []string) {
	for _, p := range Purposes {
		for k, v := range values {
			if keyPurposes[kind][strings.ToLower(k)] != p {
				continue
			}
			if !slices.Contains(speaks, p) {
				speaks = append(speaks, p)
			}
			if objectsNo(v) && !slices.Contains(objects, p) {
				objects = append(objects, p)
			}
		}
	}
	return speaks, objects
}

// pairs reads a header or meta value as a comma-separated key=value list
// (a structured-field dictionary's parameters after ";" dropped).
func pairs(v string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(v, ",") {
		part, _, _ = strings.Cut(part, ";")
		k, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || strings.TrimSpace(k) == "" {
			continue
		}
		out[strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(val), `"`)
	}
	return out
}

// headerUseSources are the Content-Signal and Content-Usage HTTP headers
// and content-usage meta of the pages read. They name no crawler, so a no
// objects for every crawler of the purpose; on the home page it covers the
// whole site, as the home page's TDMRep header does, on another page only
// that page.
func headerUseSources(s *Site, byPurpose map[string][]Agent) []AISource {
	var out []AISource
	for _, h := range s.Signals.Headers {
		var kind, vocab, says string
		switch {
		case h.Source == "header" && h.Name == "content-signal":
			kind, vocab, says = "content-signal-header", "content-signal", "Content-Signal: "+h.Value
		case h.Source == "header" && h.Name == "content-usage":
			kind, vocab, says = "content-usage-header", "content-usage", "Content-Usage: "+h.Value
		case h.Source == "meta" && h.Name == "content-usage":
			kind, vocab, says = "content-usage-meta", "content-usage", `<meta name="content-usage" content="`+h.Value+`">`
		default:
			continue
		}
		speaks, objects := keysSay(vocab, pairs(h.Value))
		src := AISource{Kind: kind, URL: h.URL, Record: h.Record, Says: says, Purposes: speaks, ObjectsFor: objects}
		for _, p := range objects {
			for _, a := range byPurpose[p] {
				src.Crawlers = append(src.Crawlers, a.Agent)
			}
		}
		src.WholeSite = len(src.Crawlers) > 0 && samePage(h.URL, s.URL)
		out = append(out, src)
	}
	return out
}

// purposeVerdict combines, for the crawlers of one purpose, the sources
// that object for each, as the training verdict does: refused when every
// one meets an objection covering the whole site, partly refused when some
// signal objects for some, else no objection found.
func purposeVerdict(p string, crawlers []Agent, sources []AISource) AIPurpose {
	ap := AIPurpose{Purpose: p, Crawlers: []AICrawler{}, Sources: []int{}}
	refused, objected := 0, 0
	for _, a := range crawlers {
		c := AICrawler{Agent: a.Agent, Robots: a.Verdict(), Group: a.Group, Objections: []int{}}
		for i, src := range sources {
			if slices.Contains(src.Crawlers, a.Agent) {
				c.Objections = append(c.Objections, i)
				c.Refused = c.Refused || src.WholeSite
				if !slices.Contains(ap.Sources, i) {
					ap.Sources = append(ap.Sources, i)
				}
			}
		}
		if c.Refused {
			refused++
		}
		if len(c.Objections) > 0 {
			objected++
		}
		ap.Crawlers = append(ap.Crawlers, c)
	}
	// A signal an operator honours for this purpose, though none of its
	// crawlers on our list has it (noarchive and Microsoft's training),
	// objects for that operator's use: some objection, never all.
	for i, src := range sources {
		if slices.ContainsFunc(src.Honoured, func(h AIHonour) bool { return h.Purpose == p }) {
			objected++
			if !slices.Contains(ap.Sources, i) {
				ap.Sources = append(ap.Sources, i)
			}
		}
	}
	switch {
	case len(crawlers) > 0 && refused == len(crawlers):
		ap.Verdict = AIRefused
	case objected > 0:
		ap.Verdict = AIPartlyRefused
	default:
		ap.Verdict = AINoObjection
		// Nothing objects: what it rests on is robots.txt's word for
		// these crawlers.
		for i, src := range sources {
			if src.Kind == "robots" && len(src.Crawlers) == 0 && slices.Contains(src.Purposes, p) {
				ap.Sources = append(ap.Sources, i)
			}
		}
	}
	slices.Sort(ap.Sources)
	return ap
}

// Purpose is the verdict for one purpose; nil when there is none (robots.txt
// not read).
func (u AIUse) Purpose(p string) *AIPurpose {
	for i := range u.Purposes {
		if u.Purposes[i].Purpose == p {
			return &u.Purposes[i]
		}
	}
	return nil
}

// PurposeVerdict is the verdict for one purpose: unknown when there is none.
func (u AIUse) PurposeVerdict(p string) string {
	if ap := u.Purpose(p); ap != nil {
		return ap.Verdict
	}
	return AIUnknown
}

// PurposeVerdicts maps each purpose to its verdict, as sites.json carries
// them.
func (u AIUse) PurposeVerdicts() map[string]string {
	out := make(map[string]string, len(Purposes))
	for _, p := range Purposes {
		out[p] = u.PurposeVerdict(p)
	}
	return out
}

// CrawlerVerdict is one crawler's verdict for a purpose, as every signal
// decides it (design §2.8): refused when an objection covering the whole
// site applies to it, partly refused when some objection does, no
// objection found when none does, unknown when robots.txt was not read or
// the crawler is not one of the purpose's. objections are the indexes,
// into Sources, of the signals that object for it.
func (u AIUse) CrawlerVerdict(agent, purpose string) (verdict string, objections []int) {
	ap := u.Purpose(purpose)
	if ap == nil {
		return AIUnknown, nil
	}
	for _, c := range ap.Crawlers {
		if c.Agent != agent {
			continue
		}
		switch {
		case c.Refused:
			return AIRefused, c.Objections
		case len(c.Objections) > 0:
			return AIPartlyRefused, c.Objections
		}
		return AINoObjection, nil
	}
	return AIUnknown, nil
}
