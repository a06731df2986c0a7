package robots

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Comment is a comment of the file, kept as its exact text: what follows
// the '#' (and any further leading '#'), without surrounding white space.
type Comment struct {
	Line   int
	Text   string
	Inline bool // it follows a directive on the same line
}

// Comments lists every non-empty comment in file order.
func (f *File) Comments() []Comment {
	if f == nil {
		return nil
	}
	var out []Comment
	for _, l := range f.lines {
		if !l.hasHash {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(l.comment, "#"))
		if text == "" {
			continue
		}
		inline := !strings.HasPrefix(strings.TrimSpace(l.text), "#")
		out = append(out, Comment{Line: l.num, Text: text, Inline: inline})
	}
	return out
}

// ProhibitingComments lists the comment lines that forbid crawling,
// scraping, automated access or AI use (in English, Norwegian, and a few
// words of French and German). A sentence often runs over several comment
// lines; each line of a sentence that forbids is kept, so the quote reads
// whole. A line continues the previous comment line's sentence when that
// one does not end a sentence and this one starts in lower case.
func (f *File) ProhibitingComments() []Comment {
	var out []Comment
	var run []Comment
	flush := func() {
		if len(run) == 0 {
			return
		}
		texts := make([]string, len(run))
		for i, c := range run {
			texts[i] = c.Text
		}
		if prohibits(strings.Join(texts, " ")) {
			out = append(out, run...)
		}
		run = run[:0]
	}
	prev := 0
	for _, c := range f.Comments() {
		if len(run) > 0 && (c.Inline || c.Line != prev+1 || endsSentence(run[len(run)-1].Text) || !startsLower(c.Text)) {
			flush()
		}
		run = append(run, c)
		prev = c.Line
		if c.Inline {
			flush()
		}
	}
	flush()
	return out
}

func endsSentence(s string) bool {
	s = strings.TrimRight(s, " \t\"'»”)")
	return s == "" || strings.ContainsAny(s[len(s)-1:], ".!?:;")
}

func startsLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}

// The words that forbid, by themselves.
var forbidWords = map[string]bool{
	// English
	"prohibit": true, "prohibits": true, "prohibited": true, "prohibition": true,
	"forbid": true, "forbids": true, "forbidden": true,
	"unauthorised": true, "unauthorized": true,
	// Norwegian
	"forbudt": true, "forbyr": true, "forbys": true, "ulovlig": true, "skraping": true, "skrape": true,
	"nekter": true, "uautorisert": true,
	// French
	"interdit": true, "interdite": true, "interdits": true, "interdites": true,
	"interdisons": true, "interdiction": true,
	// German
	"verboten": true, "untersagt": true,
}

// Two-word phrases that forbid.
var forbidPhrases = []string{
	"not allowed", "not permitted", "not authorised", "not authorized",
	"no scraping", "no crawling", "no crawlers", "no bots", "no robots",
	"ikke tillatt", "ikke tillat", "ikke lov", "ikke anledning", "ikke adgang",
	"non autorisé", "non autorisée", "non autorisés", "nicht gestattet", "nicht erlaubt",
}

// Negations that forbid when an activity follows closely ("do not crawl",
// "må ikke skrape").
var negations = map[string]bool{
	"not": true, "never": true, "don": true, "ikke": true, "aldri": true, "nicht": true,
}

// Activities a prohibition is about.
var activities = map[string]bool{
	"crawl": true, "crawls": true, "crawled": true, "crawling": true, "crawler": true, "crawlers": true,
	"scrape": true, "scraped": true, "scraping": true, "scraper": true, "scrapers": true,
	"spider": true, "spiders": true, "spidering": true, "harvest": true, "harvesting": true,
	"mine": true, "mining": true, "bot": true, "bots": true, "robot": true, "robots": true,
	"automated": true, "automatic": true, "ai": true, "train": true, "training": true,
	"copy": true, "copying": true, "collect": true, "collecting": true, "extract": true, "extracting": true,
	"crawle": true, "roboter": true, "automatisert": true, "automatisk": true, "ki": true, "trening": true,
	"innhenting": true, "kopiere": true, "kopiering": true,
}

// Words that ask for consent after "without" / "uten" / "sans" / "ohne".
var consents = map[string]bool{
	"permission": true, "consent": true, "authorisation": true, "authorization": true, "approval": true, "agreement": true,
	"samtykke": true, "tillatelse": true, "avtale": true, "godkjenning": true,
	"autorisation": true, "accord": true, "consentement": true,
	"zustimmung": true, "genehmigung": true, "erlaubnis": true,
}

var withouts = map[string]bool{"without": true, "uten": true, "sans": true, "ohne": true}

// "Only ... permitted": a permission limited to some.
var onlys = map[string]bool{
	"only": true, "solely": true, "exclusively": true, "kun": true, "utelukkende": true,
	"seul": true, "seule": true, "seuls": true, "seules": true, "uniquement": true, "nur": true,
}

var permits = map[string]bool{
	"allowed": true, "permitted": true, "authorised": true, "authorized": true, "entitled": true,
	"tillatt": true, "tillat": true, "lov": true,
	"habilité": true, "habilités": true, "habilitée": true, "habilitées": true,
	"autorisé": true, "autorisés": true, "autorisée": true, "autorisées": true,
	"erlaubt": true, "gestattet": true,
}

// prohibits says a passage of comment text forbids something.
func prohibits(text string) bool {
	w := words(text)
	joined := " " + strings.Join(w, " ") + " "
	for _, p := range forbidPhrases {
		if strings.Contains(joined, " "+p+" ") {
			return true
		}
	}
	hasOnly, hasPermit := false, false
	for i, x := range w {
		switch {
		case forbidWords[x]:
			return true
		case negations[x] && within(w, i, 4, activities):
			return true
		case withouts[x] && within(w, i, 4, consents):
			return true
		}
		hasOnly = hasOnly || onlys[x]
		hasPermit = hasPermit || permits[x]
	}
	return hasOnly && hasPermit
}

func within(w []string, i, n int, set map[string]bool) bool {
	for j := i + 1; j < len(w) && j <= i+n; j++ {
		if set[w[j]] {
			return true
		}
	}
	return false
}

// words lower-cases text and splits it into runs of letters and digits.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

var urlInText = regexp.MustCompile(`https?://[^\s<>"'{}|\\^` + "`" + `]+`)

// CommentURLs lists the absolute http(s) URLs named in comments, in file
// order, each once (design §2 item 2: the crawler may fetch those on the
// site's reviewed hosts).
func (f *File) CommentURLs() []string {
	var out []string
	for _, c := range f.Comments() {
		for _, u := range urlInText.FindAllString(c.Text, -1) {
			u = strings.TrimRight(u, ".,;:!?)]")
			if !contains(out, u) {
				out = append(out, u)
			}
		}
	}
	return out
}
