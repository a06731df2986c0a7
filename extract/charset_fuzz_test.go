package extract

import (
	"testing"
	"unicode/utf8"
)

// FuzzCharset decodes any bytes under any Content-Type, as HTML and as
// plain text. The text is always valid UTF-8, a charset and the rule that
// chose it are always named, and valid UTF-8 without a BOM or a label
// saying otherwise comes back unchanged.
func FuzzCharset(f *testing.F) {
	seeds := []struct{ body, ct string }{
		{"Vilkår", "text/html; charset=utf-8"},
		{"Vilk\xe5r", "text/html; charset=iso-8859-1"},
		{"Vilkår", "text/plain; charset=latin1"},
		{"<meta charset=\"shift_jis\">\x82\xa0", "text/html"},
		{"<meta http-equiv=content-type content='text/html; charset=utf-16'>x", "text/html"},
		{"\xef\xbb\xbfbom", ""},
		{"\xff\xfeV\x00i\x00", "text/plain"},
		{"\xfe\xff\x00V\x00", "text/plain; charset=utf-8"},
		{"\x80\x81\xff", "text/plain; charset=x-user-defined"},
		{"abc", "text/plain; charset=\"\""},
		{"abc", "text/plain; charset=replacement"},
		{"\x1b$B", "text/plain; charset=iso-2022-jp"},
	}
	for _, s := range seeds {
		f.Add([]byte(s.body), s.ct, true)
		f.Add([]byte(s.body), s.ct, false)
	}
	rules := map[string]bool{RuleBOM: true, RuleHeader: true, RuleHeaderUTF8Override: true, RuleMeta: true,
		RuleMetaUTF8Override: true, RuleUTF8Valid: true, RuleFallback1252: true}
	f.Fuzz(func(t *testing.T, body []byte, ct string, isHTML bool) {
		d := decodeBody(body, ct, isHTML)
		if !utf8.Valid(d.data) {
			t.Fatalf("text is not valid UTF-8: %q", d.data)
		}
		if d.charset == "" || !rules[d.rule] {
			t.Fatalf("charset %q, rule %q", d.charset, d.rule)
		}
		if d.rule == RuleUTF8Valid && string(d.data) != string(body) {
			t.Fatalf("valid UTF-8 changed: %q → %q", body, d.data)
		}
		text, cs, rule := PlainText(body, ct)
		if !utf8.ValidString(text) || cs == "" || !rules[rule] {
			t.Fatalf("PlainText: %q %q %q", text, cs, rule)
		}
	})
}
