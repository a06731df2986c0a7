package pdf

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract"
	"github.com/crawlsignals/crawlsignals/extract/internal/readtest"
)

// realwebDir is the shared folder of real pages (see its README). It lives
// outside the project, so tests that need it skip where it is absent.
const realwebDir = "../../../shared/realweb"

// TestRealwebPDFQuotes reads every real PDF of ../shared/realweb/pdf (see
// its README): each expected quote must verify in our text, and no
// near-miss may. The quotes were chosen in pdftotext's text, so this
// measures whether we read these documents as a reader does.
func TestRealwebPDFQuotes(t *testing.T) {
	dir := readtest.Folder(t, realwebDir, "pdf")
	all, names := readtest.Entries(t, dir)
	if len(names) == 0 {
		t.Fatal("expected.json lists no PDF")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			var exp readtest.Doc
			if err := json.Unmarshal(all[name], &exp); err != nil {
				t.Fatal(err)
			}
			body, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			text, info, err := Extract(body, 0)
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
			readtest.CheckQuotes(t, name, text, exp, extract.NewVerifier(text).Verify)
		})
	}
}

// TestRealwebDocsQuotes checks the quotes of the real PDFs among the
// documents of ../shared/realweb/docs (extract's test of the same name
// checks the HTML ones): each expected quote must verify in our text, and
// no near-miss may.
func TestRealwebDocsQuotes(t *testing.T) {
	dir := readtest.Folder(t, realwebDir, "docs")
	all, names := readtest.Entries(t, dir)
	pdfs := 0
	for _, name := range names {
		var exp readtest.Doc
		if err := json.Unmarshal(all[name], &exp); err != nil {
			t.Fatal(err)
		}
		if extract.Kind(exp.ContentType) != extract.KindPDF {
			continue
		}
		pdfs++
		t.Run(name, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			text, err := Text(body, 0)
			if err != nil {
				t.Fatal(err)
			}
			readtest.CheckQuotes(t, name, text, exp, extract.NewVerifier(text).Verify)
		})
	}
	if pdfs == 0 {
		t.Fatal("docs/expected.json lists no PDF")
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
