package terms

import "strings"

// The rules below read who a rule binds and what it protects (design
// §2.5.1): a negated prohibition permits ("is not prohibited", "ikke
// forbudt", "permitted without our consent"); a licence's steward speaking
// of itself ("Creative Commons is not a law firm") is not the site's
// terms; a use reserved to people at a browser reserves the content
// against automated use; and a rule that keeps the user's own data from
// training is the service's promise, not the site's objection.

// lexicalProhibition reports whether a word prohibits by its meaning
// ("prohibited", "forbudt", "förbjuden") rather than by a negation ("may
// not"): only such a word can itself be negated.
func lexicalProhibition(w string) bool {
	for _, p := range []string{"prohibit", "forbid", "forbud", "forbod", "förbjud", "forbyd", "forbyr", "require", "krever", "kreves", "kræver", "kräver", "krävs"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// negationWords negate the word they stand before.
var negationWords = map[string]bool{
	"neither": true, "nor": true, "verken": true, "hverken": true, "varken": true,
	"not": true, "no": true, "never": true, "isn't": true, "aren't": true, "wasn't": true, "don't": true, "doesn't": true,
	"ikke": true, "ikkje": true, "inte": true, "ej": true, "ingen": true, "intet": true, "inga": true, "inget": true,
}

// nothingWords as the subject of a prohibiting verb negate it however far
// it stands ("Nothing in these terms shall be read to prohibit").
var nothingWords = map[string]bool{"nothing": true, "ingenting": true, "intet": true, "inget": true, "ingenting i": true}

// permitsWithout are the words of a permission that a following "without
// consent" belongs to ("permitted without our consent", "fritt tillatt
// uten samtykke").
var permitsWithout = map[string]bool{
	"permitted": true, "allowed": true, "free": true, "freely": true, "may": true, "can": true, "welcome": true,
	"fritt": true, "frit": true, "tillatt": true, "tillate": true, "tillåtet": true, "tillåten": true, "tilladt": true, "lov": true, "kan": true, "får": true,
}

// negatedProhibition reports whether the prohibition hit h is negated,
// so that the sentence permits: a negation just before a prohibiting
// word ("not prohibited", "no prohibition", "ikke forbudt"), a negated
// modal before one ("we do not prohibit"), "nothing" as its subject, or a
// "without consent" that follows a permission. It gives the words.
func negatedProhibition(ws words, h hit) (string, bool) {
	first := ws.w[h.i]
	if modalNegations[first] || first == "not" || first == "ikke" || first == "ikkje" || first == "inte" {
		// "we do not prohibit", "ikke forby": the negation's verb prohibits
		for k := h.j + 1; k < len(ws.w) && k <= h.j+2; k++ {
			if lexicalProhibition(ws.w[k]) {
				return ws.span(h.i, k), true
			}
			if clauseStart(ws, k-1) {
				break
			}
		}
	}
	if lexicalProhibition(first) {
		for k := h.i - 1; k >= 0 && k >= h.i-10; k-- {
			if clauseStart(ws, k) {
				break
			}
			if negationWords[ws.w[k]] && k >= h.i-3 || nothingWords[ws.w[k]] {
				return ws.span(k, h.j), true
			}
		}
	}
	if first == "without" || first == "uten" || first == "utan" || first == "uden" {
		permit := -1
		for k := h.i - 1; k >= 0; k-- {
			if negationWords[ws.w[k]] || nothingWords[ws.w[k]] {
				return "", false // "Neither the name … may be reproduced without permission"
			}
			if permit < 0 && k >= h.i-4 && permitsWithout[ws.w[k]] {
				permit = k
			}
			if k > 0 && clauseStart(ws, k-1) {
				break
			}
		}
		if permit >= 0 {
			return ws.span(permit, h.j), true
		}
	}
	return "", false
}

// reservation reports whether a sentence reserves rights against text and
// data mining or AI training, the DSM Directive's Article 4(3) opt-out:
// "we expressly reserve our rights to use the content for text and data
// mining", "reserves all rights to TDM", "reserverer seg mot tekst- og
// datautvinning". Rights in the plural, or "all rights", are reserved
// against others; "we reserve the right to train" is the service's own.
func reservation(ws words) (string, bool) {
	for i, w := range ws.w {
		if !strings.HasPrefix(w, "reserv") && !strings.HasPrefix(w, "forbeholde") && !strings.HasPrefix(w, "förbehåll") && !strings.HasPrefix(w, "forbeholder") {
			continue
		}
		negated := false
		for k := i - 1; k >= 0 && k >= i-3; k-- {
			negated = negated || negationWords[ws.w[k]]
		}
		if negated {
			continue // "we do not reserve any rights against text and data mining"
		}
		against := false
		for k := i + 1; k < len(ws.w) && k <= i+3; k++ {
			switch ws.w[k] {
			case "rights", "rettigheter", "rettighetene", "rettigheder", "rättigheter", "rättigheterna", "mot", "imod", "mod":
				against = true
			}
		}
		if !against {
			continue
		}
		for k := i + 1; k < len(ws.w); k++ {
			if clauseStart(ws, k-1) && ws.text[ws.end[k-1]:ws.start[k]] != ", " {
				break
			}
			for _, h := range allHits(ws, aiActionCues) {
				if h.i == k {
					return ws.span(i, h.j), true
				}
			}
		}
	}
	return "", false
}

// stewardNotice reports whether a sentence is the notice of a licence's
// steward about itself: "Creative Commons" as the subject ("Creative
// Commons er ikke et advokatfirma", "Creative Commons kan kontaktes på …",
// "Distribution of Creative Commons public licenses does not create …"),
// not as the name of a licence ("licensed under a Creative Commons
// Attribution 4.0 licence").
//
// The steward is named as a licence's name when a licence element follows
// ("Creative Commons Attribution", "Creative Commons-lisens") or an
// article or "under" stands before it ("under a Creative Commons Public
// License"); anywhere else it is the organisation.
func stewardNotice(ws words) bool {
	for i := 0; i+1 < len(ws.w); i++ {
		if ws.w[i] != "creative" || !strings.HasPrefix(ws.w[i+1], "commons") {
			continue
		}
		if i+2 >= len(ws.w) || licenceElement(ws.w[i+2]) {
			continue
		}
		if i > 0 && licenceArticles[ws.w[i-1]] {
			continue
		}
		return true
	}
	return false
}

// licenceArticles before "Creative Commons" make it a licence's name.
var licenceArticles = map[string]bool{"a": true, "an": true, "en": true, "et": true, "ett": true, "ein": true, "eit": true, "under": true}

// licenceElement reports whether a word after "Creative Commons" makes
// it a licence's name: Attribution, BY, Zero, a version, "licence".
func licenceElement(w string) bool {
	switch w {
	case "attribution", "navngivelse", "namngivelse", "kreditering", "erkännande", "nimeä", "by", "zero", "cc0", "cc", "0", "1", "2", "3", "4":
		return true
	}
	for _, p := range []string{"licen", "lisens", "lizenz"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// humanOnly reports whether a sentence reserves the content or service to
// people: used by humans, or through a browser, only ("Tjänsten är avsedd
// att användas av personer och via webbläsare", "intended solely for
// humans using a web browser"). It gives the words that say so.
func humanOnly(ws words) (string, bool) {
	for _, h := range allHits(ws, humanUseCues) {
		browser := browserWord(ws.w[h.i])
		if h.i == h.j && !meansOf(ws, h.i, browser) {
			continue // "humans" or "browser" named, not as who or what uses
		}
		for k, x := range ws.w {
			if (restrictWords[x] || mustWords[x] && !browser) && (k < h.i || k > h.j) {
				return ws.span(max(0, h.i-2), h.j), true
			}
		}
	}
	return "", false
}

// browserWord reports whether a word names a web browser.
func browserWord(w string) bool {
	for _, p := range []string{"brows", "webbl", "nettle", "nettla", "webbrow"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// meansOf reports whether the people or the browser at word i are named
// as who uses ("by humans", "for mennesker") or what one uses ("via a
// browser", "bruker en nettleser"): the few words before say so.
func meansOf(ws words, i int, browser bool) bool {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		w := ws.w[k]
		if browser && (w == "via" || w == "through" || w == "gjennom" || w == "genom" || w == "gennem" || w == "using" || w == "in" ||
			w == "bruker" || w == "bruger" || w == "använder" || w == "use" || w == "uses" || w == "i") {
			return true
		}
		if !browser && (w == "by" || w == "av" || w == "af" || w == "for") {
			return true
		}
	}
	return false
}

// restrictWords limit a use to those named.
var restrictWords = map[string]bool{
	"only": true, "solely": true, "exclusively": true, "intended": true, "meant": true, "designed": true,
	"kun": true, "bare": true, "utelukkende": true, "beregnet": true, "ment": true, "tiltenkt": true, "tiltænkt": true,
	"endast": true, "enbart": true, "uteslutande": true, "avsedd": true, "avsett": true, "avsedda": true,
}

// mustWords restrict a use to people when people, not a browser, are
// named: "all use must be through genuine human interactions".
var mustWords = map[string]bool{"must": true, "må": true, "skal": true, "måste": true, "skall": true, "shall": true}

// humanUseCues name use by people, or through a browser.
var humanUseCues = compile(
	// who uses, or what with: the words before are read by meansOf, so that
	// the cue starts with a rare word
	"humans", "mennesker", "människor", "browser*", "webbläsare*", "nettleser*", "webbrowser*", "nettlesar*",
	"human|manual|manuell|manuel ~ use|access|bruk|brug|användning|åtkomst|tilgang|interaction*|interaksjon*|interaktion*",
)

// userDataCues name the user's own data as what a rule protects.
var userDataCues = compile(
	"your data", "your content", "your user content", "user content", "customer content", "customer data", "your input*", "your prompt*",
	"your conversations", "your chats", "your information", "your personal data", "your personal information", "your materials", "your uploads",
	"your files", "your works", "user data", "users data", "their works", "their content",
	"dine data", "ditt innhold", "dine opplysninger", "dine personopplysninger", "dine samtaler", "kundedata", "kundens ~ data|innhold", "ditt bidrag", "dine bidrag",
	"dit indhold", "dine oplysninger", "dina data", "dina uppgifter", "dina personuppgifter", "ditt innehåll",
	"dataene dine", "innholdet ditt", "innhaldet ditt", "samtalene dine", "opplysningene dine", "dataa dine", "samtalane dine",
	// the user named as a defined term, in the singular: "information on
	// the Member" (not "about other members", which is the site's content)
	"information|data|details ~ on|about|of the member|user|customer|subscriber", "opplysninger|informasjon|data ~ om medlemmet|brukeren|kunden",
)

// acceptance reports whether a sentence is a clause of acceptance: "By
// using the Service you agree to be bound by these terms", "Ved å benytte
// … aksepterer Du å være forpliktet av …". It rules nothing of its own.
func acceptance(ws words) bool {
	if len(ws.w) == 0 {
		return false
	}
	switch ws.w[0] {
	case "by", "ved", "genom", "gjennom", "gennem", "through":
	default:
		return false
	}
	_, _, ok := firstHit(ws, acceptanceCues)
	return ok
}

// pointer reports whether a sentence only points elsewhere: "Please see
// the End User License Agreement for more information", "Les mer om …".
func pointer(ws words) bool {
	if len(ws.w) < 2 {
		return false
	}
	switch ws.w[0] {
	case "please", "see", "les", "se", "läs", "læs":
		switch ws.w[1] {
		case "see", "refer", "read", "review", "visit", "the", "our", "mer", "mere", "også", "även", "også:":
			return ws.w[0] != "please" || ws.w[1] != "the"
		}
	}
	return false
}

// acceptanceCues are the words of agreeing to be bound.
var acceptanceCues = compile("agree*", "accept*", "aksepter*", "godta*", "godtek*", "accepter*", "godkjenn*", "godkänn*", "godkend*", "enig", "bound", "bundet", "bunden", "forpliktet", "forpligtet")

// userData reports whether a sentence names the user's own data as what a
// rule protects, and the words: a phrase of userDataCues, or a Norwegian,
// Danish or Swedish definite noun with the possessive after it
// ("personopplysningene dine", "bildene dine", "uppgifterna dina").
func userData(ws words) (string, bool) {
	if _, w, ok := firstHit(ws, userDataCues); ok {
		return w, true
	}
	for k := 1; k < len(ws.w); k++ {
		switch ws.w[k] {
		case "dine", "ditt", "din", "dina", "dit", "dine.":
			if prev := ws.w[k-1]; len(prev) > 3 && (strings.HasSuffix(prev, "ene") || strings.HasSuffix(prev, "ane") || strings.HasSuffix(prev, "et") ||
				strings.HasSuffix(prev, "en") || strings.HasSuffix(prev, "na") || strings.HasSuffix(prev, "erne")) {
				return ws.span(k-1, k), true
			}
		}
	}
	return "", false
}

// userNamed reports whether a sentence speaks of the user's content.
func userNamed(ws words) bool {
	_, _, ok := firstHit(ws, userCues)
	return ok
}
