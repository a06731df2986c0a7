package extract

import (
	"strings"
	"testing"
)

func TestKind(t *testing.T) {
	cases := []struct{ ct, want string }{
		{"text/html", KindHTML},
		{"text/html; charset=ISO-8859-1", KindHTML},
		{"TEXT/HTML;charset=utf-8", KindHTML},
		{"application/xhtml+xml", KindHTML},
		{"text/plain; charset=utf-8", KindText},
		{"text/markdown", KindText},
		{"application/json", KindText},
		{"application/linkset+json", KindText}, // api-catalog
		{"application/ld+json", KindText},
		{"application/xml", KindText},
		{"text/xml", KindText},
		{"application/atom+xml", KindText},
		{"application/pdf", KindPDF},
		{"application/x-pdf", KindPDF},
		{"image/svg+xml", ""}, // XML, but a picture
		{"image/png", ""},
		{"text/css", ""},
		{"text/javascript", ""},
		{"text/csv", ""}, // a data download, not a page
		{"application/octet-stream", ""},
		{"application/zip", ""},
		{"video/mp4", ""},
		{"", ""},
		{"garbage", ""},
		{"text/html; charset=\"broken", KindHTML}, // malformed parameter, type still clear
	}
	for _, c := range cases {
		if got := Kind(c.ct); got != c.want {
			t.Errorf("Kind(%q) = %q, want %q", c.ct, got, c.want)
		}
	}
}

// latin1 encodes s, which must only hold runes below U+0100, byte per rune.
func latin1(s string) []byte {
	var b []byte
	for _, r := range s {
		if r > 0xFF {
			panic("not latin-1: " + string(r))
		}
		b = append(b, byte(r))
	}
	return b
}

func TestCharsetRules(t *testing.T) {
	norwegian := "Brukervilkår for tjenesten: Ærlig, ødeleggende, åpen."
	// windows-1252 bytes: 0x96 is an en dash and 0x80 the euro sign there,
	// but C1 controls in ISO-8859-1; WHATWG reads both labels as 1252.
	cp1252 := append(latin1("<p>Pris "), 0x80, ' ', '5', '0', ' ', 0x96, ' ')
	cp1252 = append(cp1252, latin1("vilkår og personvern</p>")...)
	asciiKB := strings.Repeat("<!-- padding, plain ASCII only -->\n", 300) // about 10 KiB

	cases := []struct {
		name     string
		body     []byte
		ct       string
		wantText string // a substring the decoded text must hold
		charset  string
		rule     string
	}{
		{
			name: "iso-8859-1 header, Norwegian letters",
			body: latin1("<html><body><p>" + norwegian + "</p></body></html>"),
			ct:   "text/html; charset=ISO-8859-1", wantText: norwegian,
			charset: "windows-1252", rule: RuleHeader,
		},
		{
			name: "windows-1252 by meta after 10 KiB of ASCII",
			body: append([]byte("<html><head>"+asciiKB+`<meta charset="windows-1252"></head><body>`), cp1252...),
			ct:   "text/html", wantText: "Pris € 50 – vilkår og personvern",
			charset: "windows-1252", rule: RuleMeta,
		},
		{
			name: "http-equiv meta, latin-1 page",
			body: latin1(`<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head><body>` + norwegian + `</body></html>`),
			ct:   "text/html", wantText: norwegian,
			charset: "windows-1252", rule: RuleMeta,
		},
		{
			name: "latin-1 header over multi-byte UTF-8 is UTF-8",
			body: []byte("<p>" + norwegian + "</p>"),
			ct:   "text/html; charset=iso-8859-1", wantText: norwegian,
			charset: "utf-8", rule: RuleHeaderUTF8Override,
		},
		{
			name: "latin-1 meta over multi-byte UTF-8 is UTF-8",
			body: []byte(`<meta charset="iso-8859-1"><p>` + norwegian + "</p>"),
			ct:   "text/html", wantText: norwegian,
			charset: "utf-8", rule: RuleMetaUTF8Override,
		},
		{
			name: "UTF-8 page whose first kilobytes are ASCII, no header charset, no meta",
			body: []byte("<html><head>" + asciiKB + "</head><body><p>" + norwegian + "</p></body></html>"),
			ct:   "text/html", wantText: norwegian,
			charset: "utf-8", rule: RuleUTF8Valid,
		},
		{
			name: "no label, invalid UTF-8 falls back to windows-1252",
			body: latin1("<p>" + norwegian + "</p>"),
			ct:   "text/html", wantText: norwegian,
			charset: "windows-1252", rule: RuleFallback1252,
		},
		{
			name: "UTF-8 BOM beats a latin-1 header",
			body: append([]byte{0xEF, 0xBB, 0xBF}, []byte("<p>"+norwegian+"</p>")...),
			ct:   "text/html; charset=iso-8859-1", wantText: norwegian,
			charset: "utf-8", rule: RuleBOM,
		},
		{
			name: "UTF-16LE BOM",
			body: utf16LE("\uFEFF<p>" + norwegian + "</p>"),
			ct:   "text/html", wantText: norwegian,
			charset: "utf-16le", rule: RuleBOM,
		},
		{
			name: "header beats meta",
			body: latin1(`<meta charset="utf-8"><p>` + norwegian + `</p>`),
			ct:   "text/html; charset=windows-1252", wantText: norwegian,
			charset: "windows-1252", rule: RuleHeader,
		},
		{
			name: "unknown header label is ignored",
			body: latin1(`<meta charset="iso-8859-1"><p>` + norwegian + `</p>`),
			ct:   "text/html; charset=x-no-such-thing", wantText: norwegian,
			charset: "windows-1252", rule: RuleMeta,
		},
		{
			name: "meta inside a comment or script does not count",
			body: latin1(`<!-- <meta charset="utf-16"> --><script>var s = '<meta charset="koi8-r">';</script><p>` + norwegian + `</p>`),
			ct:   "text/html", wantText: norwegian,
			charset: "windows-1252", rule: RuleFallback1252,
		},
		{
			name: "meta claiming UTF-16 means UTF-8",
			body: []byte(`<meta charset="utf-16"><p>` + norwegian + `</p>`),
			ct:   "text/html", wantText: norwegian,
			charset: "utf-8", rule: RuleMeta,
		},
		{
			name: "quoted header charset",
			body: latin1("<p>" + norwegian + "</p>"),
			ct:   `text/html; charset="latin1"`, wantText: norwegian,
			charset: "windows-1252", rule: RuleHeader,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := HTML(c.body, c.ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			if p.Charset != c.charset || p.CharsetRule != c.rule {
				t.Errorf("charset %s by %s, want %s by %s", p.Charset, p.CharsetRule, c.charset, c.rule)
			}
			if !strings.Contains(p.Text, c.wantText) {
				t.Errorf("text %q does not hold %q", p.Text, c.wantText)
			}
		})
	}
}

func utf16LE(s string) []byte {
	var b []byte
	for _, r := range s {
		if r > 0xFFFF {
			panic("test helper handles the BMP only")
		}
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

func TestPlainText(t *testing.T) {
	cases := []struct {
		name          string
		body          []byte
		ct            string
		want          string
		charset, rule string
	}{
		{"llms.txt keeps its lines", []byte("# Site\r\n\r\n> Vilkår:  bruk fritt\n"), "text/plain; charset=utf-8",
			"# Site\r\n\r\n> Vilkår:  bruk fritt\n", "utf-8", RuleHeader},
		{"BOM removed", []byte("\xEF\xBB\xBFContact: mailto:a@b.test\n"), "text/plain",
			"Contact: mailto:a@b.test\n", "utf-8", RuleBOM},
		{"latin-1 text without label", latin1("Personvern og vilkår\n"), "text/plain",
			"Personvern og vilkår\n", "windows-1252", RuleFallback1252},
		{"JSON as UTF-8", []byte(`{"tdm-reservation": 1, "note": "å"}`), "application/json",
			`{"tdm-reservation": 1, "note": "å"}`, "utf-8", RuleUTF8Valid},
		{"a meta tag in text is just text", []byte(`<meta charset="koi8-r"> æøå`), "text/plain",
			`<meta charset="koi8-r"> æøå`, "utf-8", RuleUTF8Valid},
		{"invalid bytes under a UTF-8 label", []byte("ok \xff end"), "text/plain; charset=utf-8",
			"ok \uFFFD end", "utf-8", RuleHeader},
	}
	for _, c := range cases {
		text, cs, rule := PlainText(c.body, c.ct)
		if text != c.want || cs != c.charset || rule != c.rule {
			t.Errorf("%s: PlainText = %q, %s, %s; want %q, %s, %s", c.name, text, cs, rule, c.want, c.charset, c.rule)
		}
	}
}
