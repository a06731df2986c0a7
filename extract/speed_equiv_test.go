package extract

import (
	"math/rand"
	"net/url"
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/unicode/norm"
)

// The functions below are the versions that were replaced for speed, kept
// as the reference the new ones must agree with on every input.

func refFoldSpace(text string) string {
	var b strings.Builder
	pendingSpace := false
	for _, r := range text {
		if unicode.IsSpace(r) {
			pendingSpace = b.Len() > 0
			continue
		}
		if pendingSpace {
			b.WriteByte(' ')
			pendingSpace = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func refNormalize(text string) string {
	if !norm.NFC.IsNormalString(text) {
		text = norm.NFC.String(text)
	}
	if refIsFolded(text) {
		return text
	}
	return refFoldSpace(text)
}

func refIsFolded(s string) bool {
	prevSpace := true
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case ' ':
				if prevSpace {
					return false
				}
				prevSpace = true
			case '\t', '\n', '\v', '\f', '\r':
				return false
			default:
				prevSpace = false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			return false
		}
		prevSpace = false
		i += n
	}
	return !prevSpace || s == ""
}

func refNamesFooter(token string) bool {
	if strings.Contains(strings.ToLower(token), "footer") {
		return true
	}
	for _, w := range splitIdentifier(token) {
		if w == "foot" || w == "colophon" || w == "ftr" {
			return true
		}
	}
	return false
}

func refClassNamesFooter(class string) bool {
	for _, c := range strings.Fields(class) {
		if refNamesFooter(c) {
			return true
		}
	}
	return false
}

func refHasToken(list, token string) bool {
	for _, f := range strings.Fields(list) {
		if strings.EqualFold(f, token) {
			return true
		}
	}
	return false
}

func refCountLetters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			n++
		}
	}
	return n
}

var refSkipped = map[string]bool{
	"head": true, "script": true, "style": true, "template": true,
	"noscript": true, "svg": true, "iframe": true, "canvas": true,
	"audio": true, "video": true, "object": true, "datalist": true,
	"title": true, "frameset": true, "frame": true,
}

var refBlock = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true,
	"body": true, "br": true, "caption": true, "center": true, "dd": true,
	"details": true, "dialog": true, "dir": true, "div": true, "dl": true,
	"dt": true, "fieldset": true, "figcaption": true, "figure": true,
	"footer": true, "form": true, "h1": true, "h2": true, "h3": true,
	"h4": true, "h5": true, "h6": true, "header": true, "hgroup": true,
	"hr": true, "html": true, "legend": true, "li": true, "listing": true,
	"main": true, "menu": true, "nav": true, "ol": true, "p": true,
	"plaintext": true, "pre": true, "section": true, "summary": true,
	"table": true, "tbody": true, "td": true, "tfoot": true, "th": true,
	"thead": true, "tr": true, "ul": true, "xmp": true, "option": true,
	"optgroup": true, "search": true, "colgroup": true, "col": true,
}

var refShadowHosts = map[string]bool{
	"article": true, "aside": true, "blockquote": true, "body": true, "div": true,
	"footer": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true,
	"h6": true, "header": true, "main": true, "nav": true, "p": true,
	"section": true, "span": true,
}

// equivInputs are strings to compare old and new on: edge cases, random
// strings over an alphabet of spaces, letters, marks and broken bytes, and
// every text, element name and attribute value of the real pages.
func equivInputs(t *testing.T) (texts, names []string) {
	texts = []string{"", " ", "a", " a ", "a  b", "\t\na\u00a0\u2003b\u3000", "\xff", " \xff ", "a\xffb", "\xe2\x80", "x\xe2\x80 y",
		"\u0085a\u0085", "\ufffd", "Foot", "FOOTER", "page-foot", "pageFoot", "ftr", "Colophon", "footnote", "\u212aelvin", "İstanbul foot",
		"nav footer", "main  MAIN", "contentinfo\u00a0x", "Fo\xffot", "fOoT_x", "ﬀoot"}
	alphabet := []string{" ", "\t", "\n", "\u00a0", "\u2028", "\u3000", "\u0085", "a", "Z", "ø", "Å", "1", "٣", "\u0301", "\u00ad",
		"\xff", "\xc3", "\xe2\x80", "-", "_", "f", "o", "t", "F", "O", "T", "r", "\u212a", "İ", "ß"}
	rng := rand.New(rand.NewSource(7))
	for range 20000 {
		var b strings.Builder
		for range rng.Intn(12) {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	for name := range refBlock {
		names = append(names, name)
	}
	for name := range refSkipped {
		names = append(names, name)
	}
	for name := range refShadowHosts {
		names = append(names, name)
	}
	names = append(names, "", "x-y", "my-footer", "DIV", "span", "a", "font")
	for _, f := range realwebHTMLFiles(t) {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := parseDocument(decodeBody(body, "text/html", true).data)
		if err != nil {
			t.Fatal(err)
		}
		for n := range doc.Descendants() {
			switch n.Type {
			case html.TextNode:
				texts = append(texts, n.Data)
			case html.ElementNode:
				names = append(names, n.Data)
				for _, a := range n.Attr {
					texts = append(texts, a.Val)
				}
			}
		}
	}
	return texts, names
}

func TestSpeedRewritesAgreeWithReference(t *testing.T) {
	texts, names := equivInputs(t)
	for _, s := range texts {
		if got, want := foldSpace(s), refFoldSpace(s); got != want {
			t.Errorf("foldSpace(%q) = %q, reference %q", s, got, want)
		}
		want := s
		if !refIsFolded(s) {
			want = refFoldSpace(s)
		}
		if got := foldOnce(s); got != want {
			t.Errorf("foldOnce(%q) = %q, reference %q", s, got, want)
		}
		if got, want := Normalize(s), refNormalize(s); got != want {
			t.Errorf("Normalize(%q) = %q, reference %q", s, got, want)
		}
		if got, want := namesFooter(s), refNamesFooter(s); got != want {
			t.Errorf("namesFooter(%q) = %v, reference %v", s, got, want)
		}
		if got, want := classNamesFooter(s), refClassNamesFooter(s); got != want {
			t.Errorf("classNamesFooter(%q) = %v, reference %v", s, got, want)
		}
		for _, tok := range []string{"main", "article", "contentinfo", "alternate", "navigation"} {
			if got, want := hasToken(s, tok), refHasToken(s, tok); got != want {
				t.Errorf("hasToken(%q, %q) = %v, reference %v", s, tok, got, want)
			}
		}
		if isASCIISpace(s) && Normalize(s) != "" {
			t.Errorf("isASCIISpace(%q), but Normalize makes it %q", s, Normalize(s))
		}
		if got, want := joinTexts([]string{s, "x", s}), s+"x"+s; got != want {
			t.Errorf("joinTexts(%q, x, %q) = %q", s, s, got)
		}
		if got, want := countLetters(s), refCountLetters(s); got != want {
			t.Errorf("countLetters(%q) = %d, reference %d", s, got, want)
		}
		ascii := true
		for i := range len(s) {
			ascii = ascii && s[i] < 0x80
		}
		if isASCII(s) != ascii {
			t.Errorf("isASCII(%q) = %v", s, !ascii)
		}
		if got, want := string(validUTF8([]byte(s))), strings.ToValidUTF8(s, "\uFFFD"); got != want {
			t.Errorf("validUTF8(%q) = %q, reference %q", s, got, want)
		}
	}
	for _, name := range names {
		if isSkipped(name) != refSkipped[name] || isBlock(name) != refBlock[name] ||
			canHostShadow(name) != (refShadowHosts[name] || strings.Contains(name, "-")) {
			t.Errorf("element %q: skipped %v block %v shadow host %v differ from the reference lists", name, isSkipped(name), isBlock(name), canHostShadow(name))
		}
	}
	t.Logf("%d strings, %d element names compared", len(texts), len(names))
}

// TestJoinedBlocksAreNormalized backs HTML's use of joinBlocks without a
// final Normalize: blocks that are each Normalize'd, joined by spaces,
// are a Normalize'd text, however combining marks, Hangul jamo and white
// space sit at their ends.
func TestJoinedBlocksAreNormalized(t *testing.T) {
	alphabet := []string{"a", "e", "\u0301", "\u0308", "\u0327", "\u1100", "\u1161", "\u11a8", "\uac00", "\u0f73", "\u0345",
		" ", "\u00a0", "\u2000", "\u2001", "\n", "\u212b", "\u00c5", "\u0041", "\u034f", "\u3099", "\u304b", "\xff"}
	rng := rand.New(rand.NewSource(11))
	for range 20000 {
		var blocks []Block
		for range 1 + rng.Intn(4) {
			var b strings.Builder
			for range rng.Intn(40) {
				b.WriteString(alphabet[rng.Intn(len(alphabet))])
			}
			if s := Normalize(b.String()); s != "" {
				blocks = append(blocks, Block{Text: s})
			}
		}
		if j := joinBlocks(blocks); Normalize(j) != j {
			t.Fatalf("joined blocks %q are not Normalize'd: %q", j, Normalize(j))
		}
	}
}

// TestASCIIIsNFC backs Normalize skipping the NFC check for ASCII text:
// every ASCII character, and every pair of them, is already NFC (NFC only
// composes a character with a following combining one, and none is
// ASCII), so every ASCII string is.
func TestASCIIIsNFC(t *testing.T) {
	for a := range 128 {
		for b := range 128 {
			if s := string([]byte{byte(a), byte(b)}); !norm.NFC.IsNormalString(s) {
				t.Errorf("%q is not NFC", s)
			}
		}
	}
	for _, s := range []string{"", "a", "abcdefgh", "abcdefghi\x7f", "abcdefg\x80", "\xc3\xa5bcdefghijk", "abcdefghijklmno\xe2"} {
		want := true
		for i := range len(s) {
			want = want && s[i] < 0x80
		}
		if isASCII(s) != want {
			t.Errorf("isASCII(%q) = %v", s, !want)
		}
	}
}

// TestBelowCombiningIsNFC backs Normalize skipping the NFC check for text
// belowCombining accepts: every character below U+0300 is NFC alone and a
// composition boundary before itself (it never combines with what comes
// before it), so every text of them is NFC; and belowCombining accepts
// exactly the well-formed UTF-8 of such characters.
func TestBelowCombiningIsNFC(t *testing.T) {
	for r := rune(0); r < 0x300; r++ {
		s := string(r)
		if !norm.NFC.IsNormalString(s) || !norm.NFC.PropertiesString(s).BoundaryBefore() {
			t.Errorf("U+%04X is not NFC alone, or combines with what comes before it", r)
		}
		if !belowCombining(s) || !belowCombining("a"+s+"b") {
			t.Errorf("belowCombining(%q) = false", s)
		}
	}
	for _, s := range []string{"\u0300", "e\u0301", "\xc2", "\xc3x", "\xcc\x80", "\x80", "\xc1\xbf", "\u2000", "\U0001F600", "a\xff"} {
		if belowCombining(s) {
			t.Errorf("belowCombining(%q) = true", s)
		}
	}
	texts, _ := equivInputs(t)
	for _, s := range texts {
		if belowCombining(s) && !norm.NFC.IsNormalString(s) {
			t.Errorf("belowCombining(%q), but it is not NFC", s)
		}
	}
}

// refMatchReadingWord is MatchReadingWord as it was before nfc,
// readingWordsLower and stripFormatChars' ASCII shortcut.
func refMatchReadingWord(l Link) (string, bool) {
	strip := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Cf, r) {
				return -1
			}
			return r
		}, s)
	}
	text := strings.ToLower(norm.NFC.String(strip(l.Text)))
	addr := refAddressForMatching(l.URL)
	if l.Fragment != "" {
		addr += " #" + strings.ToLower(norm.NFC.String(l.Fragment))
	}
	for _, w := range readingWords {
		lw := strings.ToLower(w.Word)
		if w.Where != WhereAddress && text != "" {
			if w.asWord && containsWord(text, lw) || !w.asWord && strings.Contains(text, lw) {
				return w.Word, true
			}
		}
		if w.Where != WhereText && addr != "" && strings.Contains(addr, lw) {
			return w.Word, true
		}
	}
	return "", false
}

func refAddressForMatching(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return strings.ToLower(raw)
	}
	var parts []string
	if sub := subdomainPart(u.Hostname()); sub != "" {
		parts = append(parts, sub)
	}
	rest := u.EscapedPath()
	if u.RawQuery != "" {
		rest += "?" + u.RawQuery
	}
	parts = append(parts, rest)
	if un, err := url.PathUnescape(rest); err == nil && un != rest {
		parts = append(parts, norm.NFC.String(un))
	}
	if u.Fragment != "" {
		parts = append(parts, "#"+norm.NFC.String(u.Fragment))
	}
	return strings.ToLower(strings.Join(parts, " "))
}

// TestMatchReadingWordAgreesWithReference compares MatchReadingWord with
// its reference on every link of the real pages and on links made of the
// equivalence inputs.
func TestMatchReadingWordAgreesWithReference(t *testing.T) {
	var links []Link
	base, _ := url.Parse("https://personvern.kommune.test/a/b/")
	for _, f := range realwebHTMLFiles(t) {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := HTML(body, "text/html", base)
		if err != nil {
			t.Fatal(err)
		}
		links = append(links, p.Links...)
	}
	texts, _ := equivInputs(t)
	for i, s := range texts {
		links = append(links, Link{Text: s, Fragment: texts[(i+1)%len(texts)]},
			Link{URL: "https://x.test/" + url.PathEscape(s) + "?q=" + url.QueryEscape(s), Text: "Vil\u00adkår " + s},
			Link{URL: "https://" + s + ".example.no/#" + s})
	}
	for _, l := range links {
		w1, ok1 := MatchReadingWord(l)
		w2, ok2 := refMatchReadingWord(l)
		if w1 != w2 || ok1 != ok2 {
			t.Errorf("MatchReadingWord(%+v) = %q %v, reference %q %v", l, w1, ok1, w2, ok2)
		}
		if got, want := addressForMatching(l.URL), refAddressForMatching(l.URL); got != want {
			t.Errorf("addressForMatching(%q) = %q, reference %q", l.URL, got, want)
		}
	}
	t.Logf("%d links compared", len(links))
}
