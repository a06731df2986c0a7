package extract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealwebPDFQuotes reads every real PDF of ../shared/realweb/pdf (see
// its README): each expected quote must verify in our text, and no
// near-miss may. The quotes were chosen in pdftotext's text, so this
// measures whether we read these documents as a reader does.
func TestRealwebPDFQuotes(t *testing.T) {
	dir := realweb(t, "pdf")
	all, names := expectedEntries(t, dir)
	if len(names) == 0 {
		t.Fatal("expected.json lists no PDF")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			var exp expectedDoc
			if err := json.Unmarshal(all[name], &exp); err != nil {
				t.Fatal(err)
			}
			body, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			text, info, err := PDFExtract(body, 0)
			if err != nil {
				t.Fatal(err)
			}
			if info.Read != info.Pages {
				t.Errorf("read %d of %d pages (failed: %v)", info.Read, info.Pages, info.FailedPages)
			}
			if strings.ContainsRune(text, '\uFFFD') {
				t.Errorf("text holds U+FFFD (a glyph without a Unicode mapping)")
			}
			for i, q := range exp.Quotes {
				if fix, ok := wrongPDFQuotes[name][q.Text]; ok {
					t.Logf("expected quote %d is not what the page shows (%s); checking %q instead", i+1, fix.why, fix.text)
					exp.Quotes[i].Text = fix.text
				}
			}
			checkQuotes(t, name, text, exp)
		})
	}
}

// wrongPDFQuotes lists expected quotes we are sure misread their PDF, with
// the text a reader sees, which must verify instead.
var wrongPDFQuotes = map[string]map[string]struct{ text, why string }{
	"helsinki-uni-kurssikirjanpito-tietosuojaseloste.pdf": {
		"Tallennamme ja käsittelemme Helsingin yliopiston opiskelijoiden henkilötietoja EU:n tietosuojaasetuksen mukaisesti.": {
			text: "Tallennamme ja käsittelemme Helsingin yliopiston opiskelijoiden henkilötietoja EU:n tietosuoja-asetuksen mukaisesti.",
			why: "the line ends in \"tietosuoja-\"; pdftotext dropped the hyphen of a compound the same page writes " +
				"\"tietosuoja-asetuksen\" mid-line (Finnish hyphenates a compound whose parts meet with the same vowel)",
		},
	},
}

// checkQuotes verifies the expected quotes and refuses the near-misses of
// one document, and logs the counts.
func checkQuotes(t *testing.T, name, text string, exp expectedDoc) {
	t.Helper()
	v := NewVerifier(text)
	verified, refused, misses := 0, 0, 0
	for _, q := range exp.Quotes {
		if ok, _, closest := v.Verify(q.Text); ok {
			verified++
		} else {
			t.Errorf("quote does not verify:\n  quote:   %q\n  closest: %q", q.Text, closest)
		}
	}
	for _, m := range exp.NearMisses {
		if m.Text == nil {
			continue
		}
		misses++
		if ok, at, _ := v.Verify(*m.Text); ok {
			t.Errorf("near-miss (%s) verifies at %d but must not: %q", m.Kind, at, *m.Text)
		} else {
			refused++
		}
	}
	t.Logf("%s: %d chars of text; quotes verified %d/%d; near-misses refused %d/%d",
		name, len(text), verified, len(exp.Quotes), refused, misses)
}
