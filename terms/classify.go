package terms

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentence is one sentence of a document as the directory may show it.
type Sentence struct {
	// Text is the sentence, or the clause of a long one that carries its
	// meaning, exactly as in the document's text (quotes are verified
	// against it). CutBefore and CutAfter say where "…" stands.
	Text      string `json:"text"`
	CutBefore bool   `json:"cut_before,omitempty"`
	CutAfter  bool   `json:"cut_after,omitempty"`
	// LeadIn is the sentence that introduces the list the sentence is an
	// item of ("You agree not to:"): it decides what the item means, and
	// is shown with it.
	LeadIn  string `json:"lead_in,omitempty"`
	Topic   string `json:"topic"`
	Stance  string `json:"stance"`
	Subject string `json:"subject"`
	// Objects is set when the sentence prohibits or reserves scraping,
	// automated collection, AI training or text and data mining of the
	// site's content: an objection in the sense of design §2.8. ObjectsAs
	// names the kind of term: "scraping ban" or "AI/TDM reservation".
	Objects   bool   `json:"objects"`
	ObjectsAs string `json:"objects_as,omitempty"`
	// Words are the words that decided topic, stance and subject, as
	// written in the sentence or its lead-in.
	Words []string `json:"words"`
	// Score ranks sentences: prohibitions and grants about the site's
	// content first.
	Score int `json:"score"`
	// Order is the sentence's place in the document.
	Order int `json:"-"`

	aboutContent bool // names content or data as what the sentence is about
	usesContent  bool // names the site's content as what AI uses or is trained on
	aboutSite    bool // names the site, its content or its service
}

// The kinds of objecting terms.
const (
	ScrapingBan    = "scraping ban"
	AIReservation  = "AI/TDM reservation"
	maxQuoteRunes  = 700 // longer sentences are quoted as their clause
	clauseTarget   = 420 // the clause we aim for in a very long enumeration
	minClauseRunes = 40
)

// topicLists are the lists of classify's first test, whether a sentence
// is on a topic at all (firstWeak reads licenceWeak): one of them must
// match before every list is matched. A list added to that test is added
// here.
var topicLists = []*cueList{scrapingCues, aiCues, licenceStrong, licenceWeak, apiCues, humanUseCues, robotCues}

// classify reads one piece. ok is false when the piece speaks of none of
// our topics, or only of the user's content or the service's own doings.
//
// buf lends classify its word slices (see tokenizeInto); nil lends none.
func classify(p piece, buf *wordBuf) (Sentence, bool) {
	s := Sentence{Text: p.text, LeadIn: p.leadIn}
	if buf == nil {
		buf = &wordBuf{}
	}
	ws := tokenizeInto(buf, p.text)
	if !matchesAny(ws) {
		return s, false // on none of the topics below: most sentences of a page
	}
	ws.hits = matchAll(ws)
	scrape, scrapeW, isScrape := firstHit(ws, scrapingCues)
	ai, aiW, isAI := firstHit(ws, aiCues)
	lic, licW, isLic := firstHit(ws, licenceStrong)
	weak, weakW, isWeak, weakSite := firstWeak(ws)
	api, apiW, isAPI := firstHit(ws, apiCues)
	// "intended to be used by persons through a browser", "must be
	// through genuine human interactions": a reservation against
	// automated use, in other words
	humanW, human := humanOnly(ws)
	if human && !isScrape {
		scrape, scrapeW, isScrape = hit{}, humanW, true
	}
	if !isScrape {
		// robots and automated means count when the sentence speaks of
		// taking content: "use robots to access the site", not "to contact
		// members" or "to create accounts"
		_, _, others := firstHit(ws, othersWorks)
		if h, w, ok := firstHit(ws, robotCues); ok && takesContent(ws) && !others {
			scrape, scrapeW, isScrape = h, w, true
		}
	}
	if !isScrape && !isAI && !isLic && !isWeak && !isAPI || definition(ws) || stewardNotice(ws) || acceptance(ws) || pointer(ws) {
		return s, false
	}
	// the lead-in and its own lead-in decide what an item means
	var context, leadIn []words
	for _, c := range []string{p.leadIn, p.parent} {
		if c != "" {
			context = append(context, splitWords(c))
		}
	}
	if p.leadIn != "" {
		leadIn = context[:1]
	}
	if isAI && !realAI(ws, ai) {
		isAI = false
	}
	if isAI {
		// AI named without a use of content for it ("our machine learning
		// models") is about the service, not a rule about the site's content
		h, w, ok := firstAction(ws)
		isAI, ai, aiW = ok, h, w
	}
	if !isScrape && (isAI || isLic || isWeak || isAPI) {
		_, _, others := firstHit(ws, othersWorks)
		if h, w, ok := firstHit(ws, collectCues); ok && takesContent(ws) && !others {
			scrape, scrapeW, isScrape = h, w, true
		}
	}
	if isScrape && accountsOnly(ws) {
		isScrape = false // bots that register accounts: a rule about accounts
	}
	// "the assets used to train any AI": training names a thing, it is not
	// the act a rule is about
	aiAct := isAI && !attributive(ws, ai)
	if aiAct && fineTuneOnly(ws, ai) {
		// fine-tuning what? "fine-tune a model on our content" objects;
		// "fine-tune any other model" with a model's own output is a term of
		// that model's licence
		_, _, content := firstHit(ws, contentWords)
		aiAct = content
	}
	if isLic || isWeak || isAPI {
		_, _, off := firstHit(ws, licenceOffTopic)
		_, _, others := firstHit(ws, othersWorks)
		off = off || others // "post or reproduce copyrighted material belonging to others"
		for _, c := range context {
			_, _, o := firstHit(c, licenceOffTopic)
			off = off || o
		}
		_, _, marks := firstHit(ws, tradeMarks)
		_, _, software := firstHit(ws, softwareCues)
		_, _, content := firstHit(ws, contentWords)
		// a grant stated outright stands, whatever notices it asks for
		// ("Permission to use … is granted, provided that the copyright
		// notice appears")
		if _, _, granted := firstHit(ws, grantCues); granted && off {
			off = offOnlyNotice(ws, context)
		}
		if off || (marks || software) && !content {
			isLic, isWeak, isAPI = false, false, false
		}
	}
	_, _, third := firstHit(ws, thirdParty)

	stance, stanceW, actor := stanceOf(mainClause(ws))
	if human && stance != Prohibits {
		stance, stanceW, actor = Prohibits, humanW, ""
	}
	if stance == "" || stance == Permits {
		// a list's lead-in governs its items: a permission inside an item
		// is an exception to the rule ("except that search engines may…")
		for _, ctx := range context {
			if st, w, _ := stanceOf(ctx); st == Prohibits {
				stance, stanceW = Prohibits, w
				break
			}
		}
	}
	if stance == "" && len(leadIn) > 0 {
		// an item that rules nothing itself is what its lead-in grants
		// ("We grant you a right to access and use the Services:" +
		// "API services based on …")
		if st, w, _ := stanceOf(leadIn[0]); st == Permits {
			if _, _, granted := firstHit(leadIn[0], grantCues); granted {
				stance, stanceW = Permits, w
			}
		}
	}
	if stance == Permits && p.leadIn != "" && endsNegated(p.leadIn) {
		// "using the Services does not" + "grant you the right to …": the
		// lead-in's negation takes the grant back
		stance, stanceW = Prohibits, lastWords(p.leadIn, 2)
	}
	if stance == "" {
		stance = Describes
	}
	subject, subjectW := SubjectSite, ""
	readerBound := stance == Prohibits && (aiAct || isScrape)
	if readerBound {
		// what is protected decides too: a rule that keeps the user's own
		// data from training or collection ("not use your data for their
		// own AI training", "shall not use Customer Content to train") is
		// the service's promise to its users, not a reservation of the
		// site's content
		if w, ok := userData(ws); ok {
			readerBound, actor, stanceW = false, SubjectUser, w
		}
	}
	if isAI && !readerBound {
		if i := wordIndex(ws, "your"); i >= 0 {
			actor = SubjectUser // AI and the user's own content: the service's use of it
			stanceW = ws.span(i, i)
		}
	}
	_, svcW, svc := firstHit(ws, serviceCues)
	if isAI && !svc {
		// a company describing itself, or warning that output may be
		// wrong, speaks of its own AI
		if _, w, ok := firstHit(ws, disclaimerCues); ok {
			svcW, svc = w, true
		} else if w, ok := selfDescription(ws); ok {
			svcW, svc = w, true
		}
	}
	if actor == SubjectUser {
		subject, subjectW = SubjectUser, stanceW
	} else if w, ok := svcW, svc; !readerBound && (ok || actor == SubjectService) {
		subject, subjectW = SubjectService, w
		if !ok {
			subjectW = stanceW
		}
	} else if _, w, ok := firstHit(ws, userCues); ok && !(stance == Prohibits && (isScrape || isAI)) {
		subject, subjectW = SubjectUser, w
	}

	var topicW string
	var topicAt hit // where the topic's word stands: a long sentence is cut around it
	switch {
	case stance == Prohibits && isAI && aiAct:
		s.Topic, topicW, topicAt = TopicAI, aiW, ai
	case stance == Prohibits && isScrape:
		s.Topic, topicW, topicAt = TopicScraping, scrapeW, scrape
	case isAPI && !third && stance == Permits && !licenceNamed(ws) && apiGranted(ws):
		// "hereby grants you a licence to access the API": what is granted
		// is the API
		s.Topic, topicW, topicAt = TopicAPI, apiW, api
	case isLic && (subject != SubjectSite || licenceShown(ws, stance)):
		s.Topic, topicW, topicAt = TopicLicence, licW, lic
	case isAPI && !third && (stance != Describes || apiShown(ws, leadIn)):
		s.Topic, topicW, topicAt = TopicAPI, apiW, api
	case isAI:
		s.Topic, topicW, topicAt = TopicAI, aiW, ai
	case isScrape:
		s.Topic, topicW, topicAt = TopicScraping, scrapeW, scrape
	case isWeak && stance == Prohibits && (weakSite || weak.i <= 3 && !userNamed(ws)), // "Uautorisert kopiering … er ikke tillatt"
		isWeak && stance == Permits && weakSite && !userNamed(ws): // "you are allowed to copy … data sets"
		s.Topic, topicW, topicAt = TopicLicence, weakW, weak
	default:
		return s, false
	}
	if s.Topic == TopicAI && !aiAct && stance == Prohibits {
		stance = Describes // a rule on something else that names AI training in passing
	}
	s.Stance, s.Subject = stance, subject
	s.Words = appendWord(s.Words, topicW)
	s.Words = appendWord(s.Words, stanceW)
	s.Words = appendWord(s.Words, subjectW)
	if subject == SubjectSite && stance == Prohibits && (s.Topic == TopicAI || s.Topic == TopicScraping) {
		s.Objects = true
		s.ObjectsAs = ScrapingBan
		if s.Topic == TopicAI {
			s.ObjectsAs = AIReservation
		}
	}
	_, _, s.aboutContent = firstHit(ws, contentWords)
	_, _, s.usesContent = firstHit(ws, contentUseCues)
	s.aboutSite = s.aboutContent || aboutSite(ws)
	s.Score = score(s, isLic && licenceNamed(ws))
	if utf8.RuneCountInString(s.Text) > maxQuoteRunes {
		s.Text, s.CutBefore, s.CutAfter = clause(p.text, ws, topicAt.i)
	}
	return s, true
}

// fineTuneOnly reports whether an AI use is only "fine-tune".
func fineTuneOnly(ws words, h hit) bool {
	for k := h.i; k <= h.j; k++ {
		if w := ws.w[k]; w != "fine" && !strings.HasPrefix(w, "tune") && !strings.HasPrefix(w, "finetun") && !strings.HasPrefix(w, "finjuster") {
			return false
		}
	}
	return true
}

// realAI reports whether an AI cue means AI: "AI" in capitals or as a
// word before a hyphen, not the "ai" of a menu label or a company name
// ("Mistral AI"): a company name is a capitalised word right before it.
func realAI(ws words, h hit) bool {
	w := ws.w[h.i]
	if w != "ai" && w != "ki" && w != "ml" && w != "a" {
		return true
	}
	if h.i > 0 {
		prev := ws.text[ws.start[h.i-1]:ws.end[h.i-1]]
		r, _ := utf8.DecodeRuneInString(prev)
		between := ws.text[ws.end[h.i-1]:ws.start[h.i]]
		if unicode.IsUpper(r) && strings.TrimSpace(between) == "" && h.i > 1 {
			return false // "Mistral AI", "Microsoft AI"
		}
	}
	return true
}

// accountsOnly reports whether a sentence's automation words are about
// creating accounts and nothing that takes content.
func accountsOnly(ws words) bool {
	if _, _, ok := firstHit(ws, accountCues); !ok {
		return false
	}
	return !takesContent(ws)
}

// takesContent reports whether a sentence speaks of accessing, collecting
// or copying content.
func takesContent(ws words) bool {
	_, _, ok := firstHit(ws, collectingCues)
	return ok
}

// licenceShown says whether a sentence with a licence word is about the
// reuse of the site's content: a named standard licence, a grant, a
// reservation or a ban on copying what the site holds.
func licenceShown(ws words, stance string) bool {
	if licenceNamed(ws) {
		return true
	}
	_, _, content := firstHit(ws, contentWords)
	if stance == Describes {
		// "all rights reserved", "the licence for the data is …", "the
		// content is subject to the X Licence"
		_, _, ok := firstHit(ws, reservedCues)
		_, _, subject := firstHit(ws, licenceOfContent)
		return ok || licenceStatus(ws) || subject && content
	}
	if stance == Permits {
		// a licence to use the service or the app is not a licence to
		// reuse its content; a licence granted to the reader for anything
		// else is ("gir lisensgiver deg herved … rett til å utnytte")
		_, _, reuse := firstHit(ws, reuseGrants)
		_, _, granted := firstHit(ws, grantCues)
		return content || reuse || granted && !serviceOnly(ws)
	}
	return contentObject(ws)
}

// licenceStatus reports whether a sentence is about the licence of
// something itself, opening with it: "The licence for the data is …",
// "Lisensen for kildekoden … er ikke bestemt". What it says of that
// licence (chosen, pending, none) is what a reader of the site needs.
func licenceStatus(ws words) bool {
	if len(ws.w) < 3 {
		return false
	}
	first, next := ws.w[0], ws.w[1]
	if first == "the" && len(ws.w) > 3 {
		first, next = ws.w[1], ws.w[2]
	}
	switch first {
	case "licence", "license", "lisensen", "lisensane", "licensen", "licenserne":
		return next == "for" || next == "of" || next == "til" || next == "för" || next == "på"
	}
	return false
}

var reservedCues = compile("all rights reserved", "rights reserved", "rettigheter forbeholdt", "rettigheter ~ forbeholdes|reservert", "rettigheder forbeholdes", "rättigheter förbehållna", "protected by copyright", "beskyttet av opphavsrett*", "opphavsrettslig beskyttet")

// contentObject reports whether a sentence names the site's content as
// what it is about, not only the service: "resell or redistribute the
// Services" is a rule about the service, "copy any content of the site" one
// about its content.
func contentObject(ws words) bool {
	if _, _, ok := firstHit(ws, contentWords); ok {
		return true
	}
	for _, h := range allHits(ws, siteObjects) {
		if !serviceWords[ws.w[h.j]] {
			return true
		}
	}
	return false
}

// endsNegated reports whether a lead-in breaks off on a negation ("…
// does not", "… skal ikke"), which its items complete.
func endsNegated(lead string) bool {
	f := strings.Fields(strings.ToLower(strings.TrimRight(lead, ":—–- ")))
	return len(f) > 0 && negationWords[f[len(f)-1]]
}

// lastWords are the last n words of s.
func lastWords(s string, n int) string {
	f := strings.Fields(strings.TrimRight(s, ":—–- "))
	return strings.Join(f[max(0, len(f)-n):], " ")
}

// offOnlyNotice reports whether a sentence is off the topic for more
// than the notices a grant asks for: its off-topic words, or its
// lead-ins', are other than "notice".
func offOnlyNotice(ws words, context []words) bool {
	for _, c := range append([]words{ws}, context...) {
		for _, h := range allHits(c, licenceOffTopic) {
			if w := c.w[h.i]; w != "notice" && w != "notices" && !strings.HasPrefix(w, "merknad") {
				return true
			}
		}
	}
	return false
}

// apiGranted reports whether a grant's object is the API: the API is
// named after the grant ("grants you a licence to access the Acme API").
func apiGranted(ws words) bool {
	g, _, ok := firstHit(ws, grantCues)
	if !ok {
		return false
	}
	for _, h := range allHits(ws, apiCues) {
		if h.i > g.j {
			return true
		}
	}
	return false
}

// serviceOnly reports whether the only thing a sentence names of the
// site is its service ("a licence to use the Services").
func serviceOnly(ws words) bool {
	hs := allHits(ws, siteObjects)
	for _, h := range hs {
		if !serviceWords[ws.w[h.j]] {
			return false
		}
	}
	return len(hs) > 0
}

// serviceWords name the service rather than its content.
var serviceWords = map[string]bool{"service": true, "services": true, "platform": true, "app": true, "application": true, "tjenesten": true, "tjenestene": true,
	"tjenester": true, "appen": true, "tjänsten": true, "tjänsterna": true, "tjenesterne": true}

func aboutSite(ws words) bool {
	if _, _, ok := firstHit(ws, siteObjects); ok {
		return true
	}
	for _, w := range ws.w {
		if ourWords[w] {
			return true // "rutetidene våre", "our timetables"
		}
	}
	return false
}

// apiShown says whether a sentence that only describes an API speaks of
// one the site offers.
//
// An API the document defines as a term of its own ("the Acme
// application programming interface (“API”)") is the one the terms are
// about.
func apiShown(ws words, context []words) bool {
	if definesAPI(ws.text) && !usesOther(ws) {
		return true
	}
	for _, c := range append([]words{ws}, context...) {
		if _, _, ok := firstHit(c, apiOffered); ok {
			return true
		}
	}
	return false
}

// usesOther reports whether the sentence says the service uses an API
// ("Acme uses the YouTube API (“API”) services"): someone else's.
func usesOther(ws words) bool {
	for _, w := range ws.w {
		switch w {
		case "uses", "utilizes", "utilises", "integrates", "bruker", "använder", "anvender", "benytter":
			return true
		}
	}
	return false
}

// definesAPI reports whether a text names the API as a defined term in
// parentheses: (“API”), ("APIs"), (the "API").
func definesAPI(text string) bool {
	for i := strings.Index(text, "API"); i > 0; {
		before := strings.TrimLeft(text[max(0, i-6):i], " ")
		after := text[i+3:]
		after = strings.TrimPrefix(after, "s")
		if strings.ContainsAny(before, "(") && strings.ContainsAny(before, "\"“'‘«") && (strings.HasPrefix(after, "\")") || strings.HasPrefix(after, "”)") || strings.HasPrefix(after, "’)") || strings.HasPrefix(after, "»)")) {
			return true
		}
		k := strings.Index(text[i+3:], "API")
		if k < 0 {
			break
		}
		i += 3 + k
	}
	return false
}

func wordIndex(ws words, w string) int {
	for i, x := range ws.w {
		if x == w {
			return i
		}
	}
	return -1
}

// stanceOf finds the stance of a sentence by itself: a prohibition unless
// it is the service's own promise ("we will not…"), else a grant.
// actor is SubjectService when the only prohibitions bind the service.
func stanceOf(ws words) (stance, word, actor string) {
	// The first prohibition in the sentence decides whom it binds: in "we
	// will not use your content without your consent" the later "without
	// consent" belongs to the service's promise.
	// A lead-in's conditions are its items: "… grants you a licence,
	// provided that you will not:" rules them.
	if g, _, ok := firstHit(ws, grantCues); ok && !introduces(ws.text) {
		// "Permission to use … is granted, provided that … will not be
		// copied": a grant, and the conditions it is given on
		if c, _, ok := firstHit(ws, conditionCues); ok && c.i > g.i {
			if ps := allHits(ws, prohibitCues); len(ps) == 0 || ps[0].i > c.i {
				return Permits, ws.span(g.i, g.j), ""
			}
		}
	}
	if w, ok := reservation(ws); ok {
		return Prohibits, w, "" // "we expressly reserve our rights … for text and data mining"
	}
	for _, h := range allHits(ws, prohibitCues) {
		if w, ok := negatedProhibition(ws, h); ok {
			return Permits, w, "" // "is not prohibited", "ikke forbudt", "permitted without consent"
		}
		switch bindsWhom(ws, h) {
		case "reader":
			return Prohibits, ws.span(h.i, h.j), ""
		case "service":
			return "", ws.span(h.i, h.j), SubjectService
		}
	}
	if w, ok := noneMay(ws); ok {
		return Prohibits, w, ""
	}
	if h, w, ok := firstHit(ws, permitCues); ok && !negated(ws, w) && !negatedBefore(ws, h) && !negatedObject(ws, h) && !limited(ws, h) && !relative(ws, h) {
		if grantor(ws, h) {
			return Permits, w, SubjectService // "Replit will be free to use … the Suggestions"
		}
		return Permits, w, ""
	}
	return "", "", ""
}

// negatedObject reports whether what a grant gives is nothing: "grants
// you no rights", "gir vi deg ingen lisens", "ger dig ingen rätt".
func negatedObject(ws words, h hit) bool {
	for k := h.j + 1; k < len(ws.w) && k <= h.j+3; k++ {
		switch ws.w[k] {
		case "no", "ingen", "inga", "intet", "inget", "ingenting", "nothing":
			return true
		}
	}
	return false
}

// mainClause is what decides a sentence that opens with a concessive
// clause: in "Although our Terms grant you permission to use Copilot, we
// are not granting you any rights in …" the grant is conceded, and the
// clause after the comma is the rule. Other sentences are their own main
// clause.
func mainClause(ws words) words {
	if len(ws.w) == 0 {
		return ws
	}
	switch ws.w[0] {
	case "although", "though", "while", "whilst", "whereas", "selv", "sjølv", "även", "skønt", "selvom", "fast", "trots":
	default:
		return ws
	}
	if (ws.w[0] == "selv" || ws.w[0] == "sjølv" || ws.w[0] == "även") && (len(ws.w) < 2 || ws.w[1] != "om") {
		return ws // "selv om", "även om": "even if"; "selv" alone is "self"
	}
	if ws.w[0] == "trots" && (len(ws.w) < 2 || ws.w[1] != "att") {
		return ws
	}
	i := strings.Index(ws.text, ", ")
	if i < 0 || len(strings.Fields(ws.text[i+2:])) < 4 {
		return ws
	}
	return splitWords(ws.text[i+2:])
}

// modal negations are the prohibitions whose subject decides whom they bind.
var modalNegations = map[string]bool{
	"may": true, "must": true, "shall": true, "will": true, "cannot": true, "can": true, "should": true, "do": true,
	"don't": true, "won't": true, "shan't": true, "mustn't": true, "never": true, "kan": true, "må": true, "skal": true, "får": true,
}

// bindsWhom says whom a prohibition binds: "reader" (the user, anyone, a
// passive "may not be copied", an imperative "Do not use"), "service" (we,
// or a company named as the subject: "Acme will not use your content to
// train"), or "" when it is no prohibition at all ("if you do not agree").
func bindsWhom(ws words, h hit) string {
	first := ws.w[h.i]
	if strings.HasPrefix(first, "förbehåll") && h.i >= 1 && ws.w[h.i-1] == "med" {
		return "" // "Med förbehåll för villkoren": subject to, no reservation
	}
	if first == "not" && h.i >= 1 && (ws.w[h.i-1] == "as" || ws.w[h.i-1] == "order") {
		return "" // "so as not to mislead", "in order not to": a purpose
	}
	if (first == "without" || first == "uten") && h.i >= 2 && (ws.w[h.i-1] == "or" || ws.w[h.i-1] == "eller") && (ws.w[h.i-2] == "with" || ws.w[h.i-2] == "med") {
		return "" // "with or without your consent": no condition at all
	}
	if first == "ikke" || first == "ikkje" || first == "inte" || first == "not" || first == "aldri" || first == "aldrig" {
		// "Vi inngår ikke …": the negation follows its verb and subject
		for k := h.i - 1; k >= 0 && k >= h.i-2; k-- {
			if weWords[ws.w[k]] {
				return "service"
			}
		}
	}
	if modalNegations[first] && h.j > h.i {
		// "skal du ikke", "får man inte": the subject stands between the
		// modal and its negation
		for k := h.i + 1; k < h.j; k++ {
			if youWords[ws.w[k]] {
				return "reader"
			}
			if weWords[ws.w[k]] {
				return "service"
			}
		}
	}
	if !modalNegations[first] {
		// "provisions that would otherwise prohibit …": a hypothetical
		// said of something else, not a rule
		for k := h.i - 1; k >= 0 && k >= h.i-3; k-- {
			if hypothetical[ws.w[k]] {
				return ""
			}
			if !adverbs[ws.w[k]] {
				break
			}
		}
		return "reader"
	}
	// passive: "may not be copied", "kan ikke gjengis"; "may not be
	// unique" describes, forbids nothing
	if h.j+1 < len(ws.w) && (ws.w[h.j+1] == "be" || ws.w[h.j+1] == "bli") {
		if h.j+2 < len(ws.w) && participle(ws.w[h.j+2]) {
			if (first == "will" || first == "won't") && !permissionWords[ws.w[h.j+2]] {
				// "new conversations will not be used to train our
				// models": what will happen, the service's promise; "will
				// not be tolerated" is still a rule
				return "service"
			}
			return "reader"
		}
		return ""
	}
	if h.j+1 < len(ws.w) && (first == "kan" || first == "må" || first == "skal") && (strings.HasSuffix(ws.w[h.j+1], "es") || strings.HasSuffix(ws.w[h.j+1], "s")) {
		return "reader"
	}
	// "you do not acquire any right": a statement of what one has, not a rule
	if (first == "do" || first == "don't") && h.j+1 < len(ws.w) && stateVerbs[ws.w[h.j+1]] {
		return ""
	}
	i := h.i - 1
	for i >= 0 && (adverbs[ws.w[i]] || (first == "never" && modalNegations[ws.w[i]])) {
		i--
	}
	if i < 0 || clauseStart(ws, i) {
		return "reader" // imperative: "Do not use…", "Never…"
	}
	prev := ws.w[i]
	if i > 0 && ws.w[i-1] == "if" || prev == "if" || i > 0 && ws.w[i-1] == "hvis" {
		return "" // a condition, not a rule
	}
	if weWords[prev] || ourWords[prev] {
		return "service" // "we will not", "Databehandlerne våre har ikke lov"
	}
	if i > 0 && ourWords[ws.w[i-1]] {
		return "service" // "Our subcontractors shall not": the service's own side
	}
	if youWords[prev] {
		return "reader"
	}
	// Another noun as subject: a company name ("Acme will not …") binds
	// the service; a thing ("Content must not …") binds the reader.
	written := ws.text[ws.start[i]:ws.end[i]]
	if serviceNouns[prev] {
		return "service" // "the Company will not use your data …"
	}
	if i > 0 && determiners[ws.w[i-1]] {
		return "reader" // "the Service may not …": a defined term, not a company
	}
	if r, _ := utf8.DecodeRuneInString(written); unicode.IsUpper(r) && i > 0 && !clauseStart(ws, i-1) {
		return "service"
	}
	if r, _ := utf8.DecodeRuneInString(written); unicode.IsUpper(r) && (i == 0 || clauseStart(ws, i-1)) && strings.ToUpper(written) == written && len(written) > 2 {
		return "service" // "ANYSPHERE WILL NOT …"
	}
	return "reader"
}

// ourWords are possessives of the service: before a noun in English
// ("our processors"), after it in Norwegian ("databehandlerne våre").
var ourWords = map[string]bool{"our": true, "våre": true, "vår": true, "vårt": true, "vores": true, "våra": true, "vårat": true, "våran": true}

// permissionWords after "will not be" make it a rule, not a promise.
var permissionWords = map[string]bool{"permitted": true, "allowed": true, "tolerated": true, "accepted": true, "authorized": true, "authorised": true, "granted": true}

// hypothetical modals before a verb of prohibiting make it a supposition.
var hypothetical = map[string]bool{"would": true, "could": true, "might": true, "ville": true, "kunne": true}

// stateVerbs after "do not" state a fact rather than forbid an act.
var stateVerbs = map[string]bool{"acquire": true, "have": true, "own": true, "need": true, "require": true, "receive": true, "obtain": true, "get": true, "agree": true, "apply": true, "guarantee": true,
	"include": true, "constitute": true, "cover": true, "affect": true, "imply": true, "entitle": true, "confer": true, "represent": true, "extend": true}

// serviceNouns name the provider in a defined term ("the Company").
var serviceNouns = map[string]bool{"company": true, "provider": true, "operator": true, "licensor": true, "controller": true, "publisher": true,
	"organization": true, "organisation": true, "firm": true, "selskapet": true, "leverandøren": true, "virksomheten": true, "tjenesteleverandøren": true}

// determiners before a capitalised noun make it a defined term.
var determiners = map[string]bool{"the": true, "our": true, "this": true, "these": true, "any": true, "such": true, "of": true, "your": true, "all": true, "each": true}

// adverbs may stand between a subject and its modal.
var adverbs = map[string]bool{"also": true, "further": true, "hereby": true, "therefore": true, "expressly": true, "otherwise": true, "heller": true, "likewise": true, "still": true, "then": true, "would": true}

// participle reports whether a word after "be" is a past participle
// ("copied", "reproduced", "sold"), so the sentence is a passive rule.
func participle(w string) bool {
	if strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en") {
		return true
	}
	switch w {
	case "made", "done", "sold", "built", "put", "shown", "read", "sent", "run", "held", "kept", "set", "shared", "used":
		return true
	}
	return false
}

// clauseStart reports whether a clause starts after word i: the text
// between word i and the next holds a punctuation mark that ends one.
func clauseStart(ws words, i int) bool {
	if i+1 >= len(ws.w) {
		return false
	}
	between := ws.text[ws.end[i]:ws.start[i+1]]
	return strings.ContainsAny(between, ".;:!?•()")
}

// negated reports whether a grant's words hold a negation ("you may not
// copy" is no grant).
func negated(ws words, span string) bool {
	for _, f := range strings.Fields(strings.ToLower(span)) {
		switch strings.Trim(f, ",.;:") {
		case "not", "ikke", "ikkje", "inte", "no", "never", "without":
			return true
		}
	}
	return false
}

// grantor reports whether the one a permission is given to is the
// service itself: "we may use", "Acme will be free to use", "the Company
// may reproduce".
func grantor(ws words, h hit) bool {
	for k := h.i; k <= h.j; k++ {
		if grantVerb(ws.w[k]) {
			return false // "we grant you", "Acme hereby grants": the subject gives
		}
	}
	i := h.i - 1
	for i >= 0 && (modalWords[ws.w[i]] || ws.w[i] == "be" || ws.w[i] == "is" || ws.w[i] == "are" || adverbs[ws.w[i]]) && !clauseStart(ws, i) {
		i--
	}
	if h.i < len(ws.w) && (weWords[ws.w[h.i]] || serviceNouns[ws.w[h.i]]) {
		return true // the cue starts with its subject: "we may …"
	}
	if i < 0 || i+1 < h.i && clauseStart(ws, i) {
		return false
	}
	return weWords[ws.w[i]] || serviceNouns[ws.w[i]]
}

// relative reports whether a permission stands in a relative clause that
// names what the terms cover: "the terms under which you may use the
// content" grants nothing.
func relative(ws words, h hit) bool {
	for k := h.i - 1; k >= 0 && k >= h.i-2; k-- {
		if ws.w[k] == "which" || ws.w[k] == "whom" || ws.w[k] == "hvilke" || ws.w[k] == "vilka" {
			return true
		}
	}
	return false
}

// grantVerb reports whether a word is a verb of giving a right.
func grantVerb(w string) bool {
	for _, p := range []string{"grant", "gir", "giver", "gis", "bevilj", "meddel", "licens", "lisens", "erhverv", "dedicat", "waive"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// limited reports whether a permission is a limit: "may only use",
// "kan kun brukes": it says what is not allowed beyond it.
func limited(ws words, h hit) bool {
	for k := h.i; k <= h.j+1 && k < len(ws.w); k++ {
		switch ws.w[k] {
		case "only", "solely", "kun", "bare", "endast", "enbart", "utelukkende":
			return true
		}
	}
	return false
}

// negatedBefore reports whether a negation stands just before a grant
// ("Nothing grants you …", "we are not granting you …").
func negatedBefore(ws words, h hit) bool {
	for k := h.i - 1; k >= 0 && k >= h.i-12; k-- {
		switch ws.w[k] {
		case "not", "no", "never", "ikke", "ikkje", "inte",
			// a verb of ceasing takes back what follows: "will stop making
			// that content publicly available", "slutter å gjøre … tilgjengelig"
			"stop", "stops", "cease", "ceases", "slutte", "slutter", "sluta", "slutar", "ophøre", "ophører":
			if k >= h.i-5 {
				return true
			}
		case "nothing", "ingen", "nor", "neither", "none", "ingenting", "inget", "intet", "verken", "hverken":
			return true // "Neither the name nor the logo may be reproduced"
		}
		if clauseStart(ws, k) {
			return false
		}
	}
	return false
}

func licenceNamed(ws words) bool {
	_, _, ok := firstHit(ws, licenceNames)
	return ok
}

var licenceNames = compile("creative commons", "cc by", "cc0", "cc by sa", "nlod", "odbl", "public domain", "2011 833", "open government licen*", "open data commons")

// score ranks a classified sentence: objections first, then grants of a
// named licence, API terms, copying rules, and descriptions last.
func score(s Sentence, named bool) int {
	switch {
	case s.Subject != SubjectSite:
		return 0
	case s.Objects:
		return 100
	case s.Topic == TopicLicence && s.Stance == Permits && named:
		return 95
	case s.Topic == TopicLicence && named:
		return 90
	case s.Topic == TopicAPI && s.Stance == Permits:
		return 80
	case s.Topic == TopicLicence && s.Stance == Permits:
		return 75
	case s.Topic == TopicAPI && s.Stance == Prohibits:
		return 65
	case s.Topic == TopicLicence && s.Stance == Prohibits:
		return 60
	case s.Topic == TopicAPI:
		return 50
	case s.Topic == TopicLicence:
		return 40
	}
	return 20
}

func appendWord(list []string, w string) []string {
	if w == "" {
		return list
	}
	for _, x := range list {
		if x == w {
			return list
		}
	}
	return append(list, w)
}

// clause returns the part of a long sentence around word at that carries
// its meaning: the stretch between semicolons that holds it, and within a
// very long stretch the comma-separated parts around it, cut on word
// boundaries.
func clause(text string, ws words, at int) (string, bool, bool) {
	if at >= len(ws.w) {
		at = 0
	}
	pos := ws.start[at]
	start, end := 0, len(text)
	if i := strings.LastIndex(text[:pos], "; "); i >= 0 {
		start = i + 2
	}
	if i := strings.Index(text[pos:], "; "); i >= 0 {
		end = pos + i + 1
	}
	if utf8.RuneCountInString(text[start:end]) > maxQuoteRunes {
		start, end = commaParts(text, start, end, pos)
	}
	out := strings.TrimSpace(text[start:end])
	out = strings.TrimRight(out, ",")
	if utf8.RuneCountInString(out) < minClauseRunes {
		return text, false, false
	}
	return out, start > 0, end < len(text)
}

// commaParts grows a span outward from pos, a comma-separated part at a
// time (right first: an enumeration's object follows its verb), until it
// holds about clauseTarget characters.
func commaParts(text string, start, end, pos int) (int, int) {
	var cuts []int // positions just after each ", " in [start, end)
	for i := start; i < end; {
		k := strings.Index(text[i:end], ", ")
		if k < 0 {
			break
		}
		cuts = append(cuts, i+k+2)
		i += k + 2
	}
	// part boundaries: start, each cut, end
	bounds := append(append([]int{start}, cuts...), end)
	lo := 0
	for lo+1 < len(bounds) && bounds[lo+1] <= pos {
		lo++
	}
	hi := lo + 1
	for utf8.RuneCountInString(text[bounds[lo]:bounds[hi]]) < clauseTarget {
		switch {
		case hi+1 < len(bounds):
			hi++
		case lo > 0:
			lo--
		default:
			return bounds[lo], bounds[hi]
		}
		if utf8.RuneCountInString(text[bounds[lo]:bounds[hi]]) >= clauseTarget || lo == 0 {
			continue
		}
		if lo > 0 && hi+1 < len(bounds) {
			lo--
		}
	}
	return bounds[lo], bounds[hi]
}

// noneWords and modals make a prohibition with a negative subject: "No
// portion of the Services may be reproduced", "kan ingen deler … kopieres".
var (
	noneWords  = map[string]bool{"no": true, "ingen": true, "intet": true, "ingenting": true, "inga": true, "inget": true, "none": true, "nothing": true}
	modalWords = map[string]bool{"may": true, "shall": true, "can": true, "must": true, "will": true, "kan": true, "skal": true, "må": true, "får": true, "should": true}
)

// construed reports whether the modal at j is followed by a verb of
// interpreting: "may be construed as", "kan tolkes som", "kan opfattes".
func construed(ws words, j int) bool {
	for k := j + 1; k < len(ws.w) && k <= j+3; k++ {
		switch ws.w[k] {
		case "construed", "interpreted", "deemed", "read", "tolkes", "tolkas", "opfattes", "forstås", "anses":
			return true
		}
	}
	return false
}

// comparatives after "no" make it an adverb: "no longer", "no more".
var comparatives = map[string]bool{"longer": true, "more": true, "later": true, "less": true, "sooner": true, "lenger": true, "lengre": true, "längre": true, "længere": true}

func noneMay(ws words) (string, bool) {
	for i, w := range ws.w {
		if !noneWords[w] {
			continue
		}
		if i+1 < len(ws.w) && comparatives[ws.w[i+1]] {
			continue // "can no longer be identified": a fact, not a rule
		}
		if i > 0 && modalWords[ws.w[i-1]] && !clauseStart(ws, i-1) {
			return ws.span(i-1, i), true
		}
		if i > 0 && (ws.w[i-1] == "if" || ws.w[i-1] == "hvis" || ws.w[i-1] == "in") {
			continue // a condition, or "in no event": liability, not a rule
		}
		for j := i + 1; j < len(ws.w) && j <= i+9; j++ {
			if clauseStart(ws, j-1) {
				break
			}
			if modalWords[ws.w[j]] {
				if construed(ws, j) {
					break // "Nothing … may be construed as …": how to read, not a rule
				}
				return ws.span(i, j), true
			}
		}
	}
	return "", false
}
