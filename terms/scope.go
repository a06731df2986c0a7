package terms

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The rules below say what a sentence is not about, from how legal text is
// built: a definition states what a word means and rules nothing; a
// company describing itself speaks of its own AI; a disclaimer about
// output quality is about the service's own AI; a capitalised word inside
// a defined term ("Distribution Content") is a name, not a verb; a verb of
// copying rules the site's content only when that content is its object.

// definition reports whether a sentence defines a term: “X” means …,
// "X" shall mean …, X refers to …. A definition rules nothing, whatever
// words it holds.
func definition(ws words) bool {
	text := strings.TrimLeft(ws.text, " -+*•(0123456789.)")
	r, size := utf8.DecodeRuneInString(text)
	quoted := strings.ContainsRune("“\"‘'«", r)
	limit := 4 // words a defined term may have before "means"
	if quoted {
		end := strings.IndexAny(text[size:], "”\"’'»")
		if end < 0 || end > 80 {
			return false
		}
		limit = 10
	} else if !unicode.IsUpper(r) {
		return false
	}
	for i := 0; i < len(ws.w) && i <= limit; i++ {
		if !quoted && !capitalised(ws, i) && !definitionWords[ws.w[i]] {
			return false // "By using automated means": a noun, not a defined term
		}
		switch ws.w[i] {
		case "means", "betyr", "menes", "betyder", "avser", "avses", "forstås":
			return i > 0
		case "mean":
			return i > 1 && ws.w[i-1] == "shall"
		case "refers", "refer":
			return i > 0 && i+1 < len(ws.w) && ws.w[i+1] == "to"
		case "sige": // Danish: "Licenselementer vil sige …"
			return i > 1 && ws.w[i-1] == "vil"
		}
		if i > 0 && !quoted && clauseStart(ws, i-1) {
			return false
		}
	}
	return false
}

// definitionWords are the verbs of a definition.
var definitionWords = map[string]bool{"means": true, "mean": true, "shall": true, "refers": true, "refer": true, "betyr": true, "menes": true, "betyder": true, "avser": true, "avses": true, "forstås": true, "vil": true, "sige": true}

// capitalised reports whether word i is written with a capital.
func capitalised(ws words, i int) bool {
	r, _ := utf8.DecodeRuneInString(ws.text[ws.start[i]:ws.end[i]])
	return unicode.IsUpper(r)
}

// companyNouns name what a company calls itself in "Acme is an AI
// research company".
var companyNouns = map[string]bool{
	"company": true, "startup": true, "firm": true, "corporation": true, "business": true, "lab": true, "laboratory": true,
	"provider": true, "developer": true, "organization": true, "organisation": true, "platform": true,
	"selskap": true, "firma": true, "virksomhet": true, "leverandør": true, "företag": true, "virksomhed": true,
}

// selfDescription reports whether a sentence opens with a company
// describing itself ("Acme (“Acme”) is a generative AI company that …"):
// what follows is about its own products and AI. It gives the words that
// say so.
func selfDescription(ws words) (string, bool) {
	for i := 0; i+1 < len(ws.w) && i < 10; i++ {
		if strings.ContainsAny(ws.text[ws.end[i]:ws.start[i+1]], ".;:!?•") {
			return "", false // a parenthesis ("Acme (“Acme”) is …") is no clause end
		}
		switch ws.w[i] {
		case "is", "er", "är":
		default:
			continue
		}
		if i == 0 {
			return "", false
		}
		for k := i + 1; k < len(ws.w) && k <= i+7; k++ {
			if companyNouns[ws.w[k]] {
				return ws.span(i, k), true
			}
			if clauseStart(ws, k) {
				break
			}
		}
		return "", false
	}
	return "", false
}

// disclaimerCues say that output may be wrong: a sentence about AI with
// them is the service's warning about its own AI.
var disclaimerCues = compile("inaccurate", "inaccuracies", "biased", "bias", "poor quality", "hallucinat*", "unreliable", "incomplete", "offensive", "errors",
	"mistakes", "as is", "unøyaktig*", "upålitelig*", "feilaktig*", "mangelfull*", "felaktig*", "unøjagtig*")

// negatedAction reports whether a hit of an AI use holds a negation
// inside it ("created entirely without AI assistance"): it says the
// opposite of the use.
func negatedAction(ws words, h hit) bool {
	for k := h.i; k <= h.j; k++ {
		switch ws.w[k] {
		case "without", "no", "not", "uten", "utan", "uden", "ikke", "ikkje", "inte":
			return true
		}
	}
	return false
}

// firstAction is the first hit of an AI use that is not negated.
func firstAction(ws words) (hit, string, bool) {
	for _, h := range allHits(ws, aiActionCues) {
		if !negatedAction(ws, h) {
			return h, ws.span(h.i, h.j), true
		}
	}
	return hit{}, "", false
}

// attributive reports whether an AI use only describes a thing: "the
// assets used to train any AI", "data brukt til å trene modellen", not
// the act a rule is about ("may not be used to train", "use it to train").
func attributive(ws words, h hit) bool {
	k := h.i - 1
	if k >= 0 && (ws.w[k] == "to" || ws.w[k] == "til" || ws.w[k] == "å" || ws.w[k] == "for") {
		k--
	}
	if k >= 0 && ws.w[k] == "til" {
		k--
	}
	if k < 1 || ws.w[k] != "used" && ws.w[k] != "brukt" && ws.w[k] != "benyttet" && ws.w[k] != "använt" && ws.w[k] != "brugt" {
		return false
	}
	for j := k - 1; j >= 0 && j >= k-2; j-- {
		switch w := ws.w[j]; {
		case beWords[w], modalWords[w]:
			return false // "may not be used to train", "is sometimes used to train"
		}
	}
	return true
}

// beWords make a participle after them passive.
var beWords = map[string]bool{"be": true, "been": true, "is": true, "are": true, "was": true, "were": true, "being": true,
	"bli": true, "blir": true, "er": true, "ble": true, "vara": true, "är": true, "blive": true, "bliver": true}

// definedTerm reports whether word i is part of a defined term: written
// with a capital inside a clause and next to another capitalised word
// ("the Distribution Content", "Copy Services"), it names something
// rather than acts.
func definedTerm(ws words, i int) bool {
	if !capitalised(ws, i) || i == 0 || clauseStart(ws, i-1) {
		return false
	}
	return i+1 < len(ws.w) && capitalised(ws, i+1) && ws.text[ws.end[i]:ws.start[i+1]] == " "
}

// firstWeak is the copying verb that decides a sentence: the first whose
// object is the site's content, else the first that is a verb at all
// (not part of a defined term). site says whether it copies the site's
// content.
func firstWeak(ws words) (h hit, word string, ok, site bool) {
	for _, x := range allHits(ws, licenceWeak) {
		if definedTerm(ws, x.i) {
			continue
		}
		if copiesSite(ws, x) {
			return x, ws.span(x.i, x.j), true, true
		}
		if !ok {
			h, word, ok = x, ws.span(x.i, x.j), true
		}
	}
	return h, word, ok, false
}

// weakObjectWindow is how far after a copying verb its object may stand,
// in the same clause: enumerations of verbs are long ("copy, adapt,
// translate, sell, rent … or otherwise exploit any part of the Content").
const weakObjectWindow = 25

// copiesSite reports whether a copying verb has the site's content as its
// object: named after the verb in the same clause ("distribute any Member
// Content", "kopiering av innholdet"), or before a passive ("Content may
// not be copied", "innholdet kan ikke kopieres"). "use the App … by
// distributing content relating to scams" copies nothing of the site's.
func copiesSite(ws words, verb hit) bool {
	// "may not be downloaded or copied": back over the participles joined
	// to it, to the "be"
	k := verb.i - 1
	for k > 0 && k >= verb.i-4 && (ws.w[k] == "or" || ws.w[k] == "and" || ws.w[k] == "eller" || ws.w[k] == "og" || participle(ws.w[k])) {
		k--
	}
	passive := k >= 0 && (ws.w[k] == "be" || ws.w[k] == "been" || ws.w[k] == "bli" || ws.w[k] == "blir") ||
		(strings.HasSuffix(ws.w[verb.i], "es") && !strings.HasSuffix(ws.w[verb.i], "ies") || strings.HasSuffix(ws.w[verb.i], "is")) // "kopieres", "gjengis"
	for _, o := range allHits(ws, siteObjects) {
		if serviceWords[ws.w[o.j]] {
			continue // "resell or redistribute the Services": the service, not its content
		}
		if o.i > verb.j && o.i <= verb.j+weakObjectWindow && !semicolonBetween(ws, verb.j, o.i) {
			return true
		}
		if passive && o.j < verb.i && !semicolonBetween(ws, o.j, verb.i) {
			return true
		}
	}
	return false
}

// semicolonBetween reports whether a clause ends between words a and b.
func semicolonBetween(ws words, a, b int) bool {
	return strings.ContainsAny(ws.text[ws.end[a]:ws.start[b]], ";.")
}
