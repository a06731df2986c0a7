package terms

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crawlsignals/crawlsignals/extract"
)

// A piece is one sentence of a document as blocks give it: never across
// a block, with the lead-in that introduces it when it is a list item.
type piece struct {
	text   string
	block  int
	leadIn string // the sentence that introduces the list the piece is an item of
	// parent is the lead-in's own lead-in (a list inside a list item),
	// read for stance only.
	parent string
	// quotable is false for a heading, a label, a menu entry, a link list
	// or a fragment too short to be a sentence.
	quotable bool
}

// pieces cuts blocks into sentences. A heading, a label, a navigation
// block or a block that is mostly link text gives pieces that are never
// quoted (they still count as sentences of the document, for diffs). A
// heading element that holds paragraphs of prose (some sites put a whole
// section in an <h2>) is read as prose.
func pieces(blocks []extract.Block) []piece {
	var out []piece
	// last sentence of each block, to find lead-ins
	lastOf := make([]string, len(blocks))
	leadOf := make([]string, len(blocks))
	// openOf is the lead-in still in effect where a block ends: "15.1 You
	// may not: (i) …" opens a list that the next blocks, "(ii) …", go on
	openOf := make([]string, len(blocks))
	parentOf := make([]string, len(blocks))
	for bi, b := range blocks {
		ss := splitMarkup(b.Text)
		heading := (b.Box == extract.BoxHeading || b.Box == extract.BoxLabel) && len(ss) <= 1 && utf8.RuneCountInString(b.Text) <= 200
		// a footer's or a link's full sentence is still a sentence: "Except
		// where otherwise noted, content on this site is licensed under …"
		menuLine := isMenuLine(b.Text)
		navBlock := b.Nav || (b.Letters > 0 && b.Linked*2 > b.Letters)
		lead, parent := "", ""
		if b.Box == extract.BoxItem || b.Depth > 0 || bulleted(b.Text) {
			lead, parent = findLeadIn(blocks, lastOf, leadOf, parentOf, openOf, bi)
		}
		leadOf[bi], parentOf[bi] = lead, parent
		// A colon followed by a capital inside a block is a flattened
		// list: what stands before it introduces every sentence after it.
		inBlock := ""
		for _, s := range ss {
			menu := menuLine || navBlock && !prose(s)
			p := piece{text: s, block: bi, leadIn: lead, parent: parent}
			if inBlock != "" {
				p.leadIn, p.parent = inBlock, lead
			}
			if li, rest, ok := cutLeadIn(s); ok && !heading && !menu && !exceptionHead(li) {
				out = append(out, piece{text: li, block: bi, leadIn: p.leadIn, parent: p.parent, quotable: ownSentence(li)})
				inBlock = li
				p.text, p.leadIn, p.parent = rest, li, lead
			}
			// "you may not (i) …; (ii) …": an enumeration inside one
			// sentence is a list, its head the lead-in of every item
			if head, items := enumeration(p.text); len(items) > 0 && !heading && !menu && !exceptionHead(head) {
				if head != "" {
					out = append(out, piece{text: head, block: bi, leadIn: p.leadIn, parent: p.parent, quotable: countFields(head, 8) >= 8 && sentenceLike(head)})
					p.parent, p.leadIn = p.leadIn, head
				}
				for _, it := range items {
					q := p
					q.text = it
					q.quotable = countFields(it, 2) >= 2
					out = append(out, q)
				}
				if head != "" {
					openOf[bi] = head
				}
				continue
			}
			// A sentence that ends in a colon introduces a list; it is a
			// sentence of its own too when it says something by itself:
			// "1.1 We grant you a right to access the Services:", an item
			// "access the Service using any automated means … except:".
			p.quotable = !heading && !menu && (!strings.HasSuffix(p.text, ":") || ownSentence(p.text)) &&
				(sentenceLike(p.text) || p.leadIn != "" && countFields(p.text, 2) >= 2)
			out = append(out, p)
		}
		if inBlock != "" {
			openOf[bi] = inBlock
		}
		if len(ss) > 0 {
			lastOf[bi] = ss[len(ss)-1]
		}
	}
	return out
}

// ownSentence reports whether a lead-in says something by itself: eight
// words or more, not breaking off where its rule's object would stand
// ("… you will not:", "You agree not to:").
func ownSentence(lead string) bool {
	if countFields(lead, 8) < 8 || !sentenceLike(lead) {
		return false
	}
	f := strings.Fields(strings.ToLower(strings.TrimRight(lead, ": ")))
	last, before := f[len(f)-1], f[len(f)-2]
	switch {
	case negationWords[last], negationWords[before] && (last == "to" || last == "å" || last == "att" || last == "at"):
		return false
	case last == "to" || last == "å" || last == "att" || last == "at" || last == "til":
		// "… grants you a licence (“Licence”) to:": what it grants is in
		// the items
		switch strings.Trim(before, "()“”\"',.«»") {
		case "license", "licence", "lisens", "licens", "right", "rights", "rett", "rätt", "ret":
			return false
		}
	}
	return true
}

// exceptionHead reports whether a list is the exceptions of the rule
// before it ("access the Service using automated means except: (a) …;
// (b) …"): the exceptions belong to the rule, which is read whole.
//
// So is a head that holds the list's first mark itself ("… is granted,
// provided that (1) …, (2) …"): the list began inside the sentence.
func exceptionHead(head string) bool {
	for i := strings.IndexByte(head, '('); i >= 0; {
		if j := strings.IndexByte(head[i:], ')'); j > 1 && j <= 5 && enumMark(head[i+1:i+j]) {
			return true
		}
		k := strings.IndexByte(head[i+1:], '(')
		if k < 0 {
			break
		}
		i += k + 1
	}
	h := strings.ToLower(strings.TrimRight(strings.TrimSpace(head), ":,—–- "))
	for _, w := range []string{" except", " unless", " other than", " excluding", " unntatt", " med unntak av", " bortsett fra", " utom", " undtagen", " medmindre", " med mindre", " untatt",
		" provided that", " on condition that", " forutsatt at", " förutsatt att", " forudsat at"} {
		if strings.HasSuffix(h, w) {
			return true
		}
	}
	return false
}

// prose reports whether a sentence is one of prose: eight words or more
// ending in a full stop.
func prose(s string) bool {
	return strings.HasSuffix(s, ".") && countFields(s, 8) >= 8 && sentenceLike(s)
}

// findLeadIn returns the lead-in of the item in block bi: the last sentence
// of the nearest block before it that is less deep in lists, or, for a
// bulleted line, the line before its run of bullets. A heading is never a
// lead-in, and the search stops there.
//
// Items written as paragraphs or as list items of one depth ("11.3 …",
// "(ii) …") are told apart by their marks: an item of another kind of mark
// that ends in a colon ("ix. for purposes of:" before "a. …", "YOU AGREE
// NOT TO:" before "11.1 …") introduces them; an item of the same kind is a
// sibling, and the lead-in is its own. A block that opened a list inside
// it ("15.1 You may not: (i) …") goes on introducing the items after it.
func findLeadIn(blocks []extract.Block, lastOf, leadOf, parentOf, openOf []string, bi int) (lead, parent string) {
	d := blocks[bi].Depth
	kind := markKind(blocks[bi].Text)
	for j := bi - 1; j >= 0 && j >= bi-200; j-- {
		b := blocks[j]
		if b.Box == extract.BoxHeading && utf8.RuneCountInString(b.Text) <= 200 {
			return "", ""
		}
		sibling := b.Depth == d && (bulleted(b.Text) || b.Box == extract.BoxItem)
		if sibling && kind != "" {
			if k := markKind(b.Text); k == kind {
				return leadOf[j], parentOf[j]
			} else if strings.HasSuffix(strings.TrimSpace(lastOf[j]), ":") {
				return lastOf[j], leadOf[j]
			}
		}
		if b.Depth < d || (b.Depth == d && !sibling) {
			if s := lastOf[j]; introduces(s) {
				return s, leadOf[j]
			}
			if openOf[j] != "" && kind != "" && kind != markKind(b.Text) {
				return openOf[j], leadOf[j]
			}
			return "", ""
		}
	}
	return "", ""
}

// markKind names the kind of an item's mark: "(i)" and "iv." are roman,
// "(a)" and "b)" letters, "3." and "(2)" numbers, "11.4" a numbered
// section; "•" and dashes are bullets; "" is no mark.
func markKind(s string) string {
	s = strings.TrimSpace(s)
	r, n := utf8.DecodeRuneInString(s)
	switch r {
	case '•', '·', '◦', '▪', '‣', '-', '–', '*', '○', '■':
		return "bullet"
	}
	m := s
	if r == '(' {
		m = s[n:]
	}
	end := strings.IndexAny(m, ".) ")
	if end <= 0 || end > 6 {
		return ""
	}
	mark := m[:end]
	if end+1 < len(m) && m[end] == '.' && m[end+1] >= '0' && m[end+1] <= '9' {
		return "section" // 11.4
	}
	switch {
	case strings.Trim(mark, "ivxlIVXL") == "" && (len(mark) > 1 || strings.ContainsAny(mark, "iI")):
		return "roman"
	case strings.Trim(mark, "0123456789") == "":
		return "number"
	case len(mark) == 1 && unicode.IsLetter(rune(mark[0])):
		return "letter"
	}
	return ""
}

// introduces reports whether a sentence can introduce a list: it ends in
// a colon or a dash, or breaks off without a full stop ("You agree that
// you will not").
func introduces(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	switch r {
	case ':', '-', '–', '—', '…':
		return true
	case '.':
		// "The User shall not engage in any of the following acts."
		return announcesList(s)
	case '!', '?', ';', ')', ']', '"', '”', '»':
		return false
	}
	return utf8.RuneCountInString(s) <= 300
}

// announcesList reports whether a sentence ending in a full stop still
// announces the list after it: "… any of the following acts.", "…
// følgende handlinger.".
func announcesList(s string) bool {
	if !strings.Contains(s, "ollow") && !strings.Contains(s, "ølg") && !strings.Contains(s, "ölj") && !strings.Contains(s, "elow") {
		return false // most sentences: no lower-casing for them
	}
	l := strings.ToLower(s)
	for _, w := range []string{"the following", "følgende", "følgjande", "följande", "as follows", "listed below", "set out below"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// cutLeadIn splits "As a user you agree not to: Retrieve data …" into its
// lead-in ("… not to:") and the first item, when the part before the colon
// is short enough to be a lead-in and a capital starts what follows.
func cutLeadIn(s string) (lead, rest string, ok bool) {
	i := strings.Index(s, ": ")
	if i <= 0 || i > 240 {
		return "", "", false
	}
	after := s[i+2:]
	r, _ := utf8.DecodeRuneInString(after)
	if !(unicode.IsUpper(r) || r == '(' || r == '•') || utf8.RuneCountInString(after) < 20 {
		return "", "", false
	}
	lead = s[:i+1]
	if countFields(lead, 3) < 3 {
		return "", "", false // "Note: …", "Example: …" introduce nothing
	}
	return lead, after, true
}

// bulleted reports whether a line starts with a list mark: "•", "-", "–",
// "*", "(a)", "a)", "1.", "i)".
func bulleted(s string) bool {
	if s == "" {
		return false
	}
	r, n := utf8.DecodeRuneInString(s)
	switch r {
	case '•', '·', '◦', '▪', '‣', '-', '–', '*', '○', '■':
		return n < len(s) && s[n] == ' '
	case '(':
		j := strings.IndexByte(s, ')')
		return j > 1 && j <= 5
	}
	j := strings.IndexAny(s, ".)")
	if j <= 0 || j > 4 || j+1 >= len(s) || s[j+1] != ' ' {
		return false
	}
	for _, c := range s[:j] {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

// isMenuLine reports whether a block is a line of navigation: short
// entries separated by "|", "·" or "•" ("API · Personvern · Billetter").
func isMenuLine(s string) bool {
	for _, sep := range []string{" | ", " · ", " • ", " / "} {
		// The mark first: looked for by its first byte, a space, the
		// separator was found at every space of a text and compared
		// there (a twelfth of the reader's time).
		if mark := sep[1 : len(sep)-1]; !strings.Contains(s, mark) || !strings.Contains(s, sep) {
			continue // one part: no menu by this separator, and no copy
		}
		if parts := strings.Split(s, sep); len(parts) >= 2 {
			short := true
			for _, p := range parts {
				short = short && len(strings.Fields(p)) <= 4
			}
			if short {
				return true
			}
		}
	}
	return false
}

// sentenceLike reports whether a piece reads as a sentence rather than a
// title or a menu entry: at least five words, or three ending in a full
// stop; and not a run of capitalised words without a verb's small words
// ("End User License Agreement", "6.2 License Restrictions.").
func sentenceLike(s string) bool {
	n := countFields(s, 11) // more than ten words is all it asks
	end, _ := utf8.DecodeLastRuneInString(s)
	terminal := end == '.' || end == ';' || end == '!' || end == '?' || end == ':'
	if n < 3 || (n < 5 && !terminal) {
		return false
	}
	if n <= 10 {
		f := strings.Fields(s) // only a short piece's words are looked at
		caps := 0
		for _, w := range f {
			r, _ := utf8.DecodeRuneInString(w)
			if unicode.IsUpper(r) || unicode.IsDigit(r) {
				caps++
			}
		}
		if caps*10 >= len(f)*7 && !(terminal && end != '.') && !hasLowerWord(f) {
			return false
		}
	}
	return true
}

// countFields is len(strings.Fields(s)), without making the fields, or
// upTo when there are more: a field starts at each rune that is not space
// after one that is (or at the start), a byte that is not UTF-8 counting
// as a rune that is not.
func countFields(s string, upTo int) int {
	n, inField := 0, false
	for i := 0; i < len(s) && n < upTo; {
		c := s[i]
		var space bool
		if c < utf8.RuneSelf {
			space = c == ' ' || '\t' <= c && c <= '\r'
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
			i += size
		}
		if !space && !inField {
			n++
		}
		inField = !space
	}
	return n
}

// hasLowerWord reports whether a title-looking line holds a lower-case
// word of four letters or more: titles keep only short words small ("of",
// "and"), sentences do not.
func hasLowerWord(f []string) bool {
	for _, w := range f {
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsLower(r) && utf8.RuneCountInString(w) >= 4 {
			return true
		}
	}
	return false
}

// splitSentences cuts one block's text at sentence ends: ".", "!" or "?"
// (with any closing quote or bracket) followed by a space and a capital,
// a digit or an opening quote, unless the word before is an abbreviation.
func splitSentences(text string) []string {
	if !utf8.ValidString(text) {
		return splitSentenceRunes(text)
	}
	// Valid UTF-8 is cut in place: every sentence is a piece of text, and
	// the stops looked for are single bytes that start no other rune.
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		if c := text[i]; c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !strings.ContainsRune(closers, r) {
				break
			}
			j += n
		}
		if j+1 >= len(text) || text[j] != ' ' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(text[j+1:])
		if !(unicode.IsUpper(next) || unicode.IsDigit(next) || strings.ContainsRune(openers, next)) {
			continue
		}
		if text[i] == '.' && abbreviationText(text[start:i+1]) {
			continue
		}
		out = appendTrimmed(out, text[start:j])
		start = j + 1
	}
	return appendTrimmed(out, text[start:])
}

// splitMarkup is splitSentences for a text that may carry markup as
// text (the Markdown or JSX source of a page read as plain text): a tag
// ("<ListItem>", "</p>", "<br/>") ends a block as the element would, so a
// sentence never runs across it, and no sentence holds one.
func splitMarkup(text string) []string {
	if !strings.Contains(text, "<") {
		return splitSentences(text)
	}
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '<' {
			continue
		}
		end := tagEnd(text, i)
		if end < 0 {
			continue
		}
		out = append(out, splitSentences(strings.TrimSpace(text[start:i]))...)
		start, i = end, end-1
	}
	return append(out, splitSentences(strings.TrimSpace(text[start:]))...)
}

// tagEnd is the end of a tag that starts at i ("<a href=…>", "</b>",
// "<br />"), or -1 when "<" starts none ("a < b", "<3").
func tagEnd(text string, i int) int {
	j := i + 1
	if j < len(text) && text[j] == '/' {
		j++
	}
	if j >= len(text) || !(text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z') {
		return -1
	}
	k := strings.IndexAny(text[j:], "<>")
	if k < 0 || text[j+k] != '>' || k > 400 {
		return -1
	}
	return j + k + 1
}

// closers may follow a sentence's stop; openers may start the next.
const closers, openers = `"'”’»)]`, `"“«(`

// splitSentenceRunes is splitSentences for text that is not valid UTF-8,
// rune by rune as it always read such text (each bad byte a U+FFFD).
func splitSentenceRunes(text string) []string {
	var out []string
	rs := []rune(text)
	start := 0
	for i := 0; i < len(rs); i++ {
		if rs[i] != '.' && rs[i] != '!' && rs[i] != '?' {
			continue
		}
		j := i + 1
		for j < len(rs) && strings.ContainsRune(closers, rs[j]) {
			j++
		}
		if j+1 >= len(rs) || rs[j] != ' ' {
			continue
		}
		next := rs[j+1]
		if !(unicode.IsUpper(next) || unicode.IsDigit(next) || strings.ContainsRune(openers, next)) {
			continue
		}
		if rs[i] == '.' && abbreviation(rs[start:i+1]) {
			continue
		}
		out = appendTrimmed(out, string(rs[start:j]))
		start = j + 1
	}
	return appendTrimmed(out, string(rs[start:]))
}

func appendTrimmed(out []string, s string) []string {
	if s = strings.TrimSpace(s); s != "" {
		out = append(out, s)
	}
	return out
}

// abbreviations end in a full stop without ending a sentence.
var abbreviations = []string{
	"e.g.", "i.e.", "etc.", "inc.", "ltd.", "co.", "corp.", "no.", "nr.", "art.", "sec.", "para.", "cf.", "vs.", "mr.", "ms.", "dr.", "u.s.",
	"f.eks.", "bl.a.", "mv.", "osv.", "jf.", "ca.", "kap.", "pkt.", "evt.", "ev.", "dvs.", "m.m.", "t.d.", "o.l.", "iht.",
}

// abbreviationText is abbreviation for a candidate given as valid UTF-8.
// Only its last thirteen runes are made runes: abbreviation reads twelve,
// and the thirteenth tells it, as the whole candidate would, that the
// candidate goes on before them.
func abbreviationText(s string) bool {
	// Most candidates end in a word longer than any abbreviation (six
	// runes, all ASCII) and are not a single capital: their last word, cut
	// where abbreviation cuts words, holds seven runes or more, and
	// lower-casing keeps it so (rune for rune). Nothing more is looked at.
	if w := s[strings.LastIndexAny(s, " (")+1:]; len(w) > 6 && utf8.RuneCountInString(w) > 6 {
		return false
	}
	k := len(s)
	for n := 0; n < 13 && k > 0; n++ {
		_, size := utf8.DecodeLastRuneInString(s[:k])
		k -= size
	}
	return abbreviation([]rune(s[k:]))
}

// abbreviation reports whether a sentence candidate ends in a common
// abbreviation, a single capital ("J. Smith") or a section number ("§ 3.").
func abbreviation(rs []rune) bool {
	tail := rs[max(0, len(rs)-12):] // no abbreviation is longer: the rest cannot matter
	s := strings.ToLower(string(tail))
	if len(tail) < len(rs) {
		s = s[strings.IndexByte(s, ' ')+1:] // a whole word at the start
	}
	// An abbreviation counts as a whole word: all of s, or after a space
	// or an opening bracket.
	for _, a := range abbreviations {
		if k := len(s) - len(a); strings.HasSuffix(s, a) && (k == 0 || s[k-1] == ' ' || s[k-1] == '(') {
			return true
		}
	}
	n := len(rs)
	if n >= 2 && unicode.IsUpper(rs[n-2]) && (n == 2 || rs[n-3] == ' ') {
		return true
	}
	return false
}

// enumeration finds the items of a list written inside one sentence, each
// opened by "(i)", "(a)" or "(1)" after the start, a colon, a semicolon or
// a comma: the text before the first is the head. It returns the items
// without their marks and closing "; or"; none when there are fewer than two.
func enumeration(s string) (head string, items []string) {
	var at []int // where each mark starts
	var after []int
	for i := 0; i < len(s); i++ {
		k := strings.IndexByte(s[i:], '(') // most sentences have none
		if k < 0 {
			break
		}
		i += k
		if i > 0 && !strings.ContainsRune(":;, ", rune(s[i-1])) {
			continue
		}
		j := strings.IndexByte(s[i:], ')')
		if j < 2 || j > 5 || i+j+2 > len(s) || s[i+j+1] != ' ' {
			continue
		}
		mark := s[i+1 : i+j]
		if !enumMark(mark) {
			continue
		}
		if i > 0 {
			k := strings.TrimRight(s[:i], " ")
			if k != "" && !strings.ContainsRune(":;,", rune(k[len(k)-1])) && !strings.HasSuffix(k, " or") && !strings.HasSuffix(k, " and") && !strings.HasSuffix(k, " to") && !strings.HasSuffix(k, " not") {
				continue
			}
		}
		at = append(at, i)
		after = append(after, i+j+2)
	}
	if len(at) < 2 || at[0] > 400 {
		return "", nil
	}
	head = strings.TrimSpace(s[:at[0]])
	for n := range at {
		end := len(s)
		if n+1 < len(at) {
			end = at[n+1]
		}
		it := strings.TrimSpace(s[after[n]:end])
		for _, tail := range []string{"; and", "; or", ", and", ", or", ";", ",", " and", " or"} {
			it = strings.TrimSpace(strings.TrimSuffix(it, tail))
		}
		if it != "" {
			items = append(items, it)
		}
	}
	if countFields(head, 2) < 2 {
		head = ""
	}
	return head, items
}

// enumMark reports whether a mark reads as a list counter: a roman number,
// one letter, or a number.
func enumMark(m string) bool {
	if len(m) == 1 && unicode.IsLetter(rune(m[0])) {
		return true
	}
	roman, digits := true, true
	for _, c := range m {
		roman = roman && strings.ContainsRune("ivxlIVXL", c)
		digits = digits && unicode.IsDigit(c)
	}
	return roman || digits
}
