package extract

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/crawlsignals/crawlsignals/extract/internal/readtest"
)

// realwebDir is the shared folder of real pages (see its README). It lives
// outside the project, so tests that need it skip where it is absent.
const realwebDir = "../../shared/realweb"

type expectedLink struct {
	Text        string `json:"text"`
	AbsoluteURL string `json:"absolute_url"`
}

type expectedHome struct {
	File          string         `json:"file"`
	OriginalURL   string         `json:"original_url"`
	FooterLinks   []expectedLink `json:"expected_footer_links"`
	Personvern    []expectedLink `json:"personvern_links"`
	FooterMarkup  string         `json:"footer_markup"`
	FooterLinkCnt int            `json:"footer_link_count"`
}

// unreachableFooterLinks lists expected footer links we knowingly do not
// find, page by page, each with the reason. It is empty: every expected
// link is found. A link added here must say why no reasonable reading of
// the page reaches it.
var unreachableFooterLinks = map[string]map[string]string{}

// canonicalURL puts an address in the form Link.URL uses, so expected and
// found addresses compare equal when they name the same thing.
func canonicalURL(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("expected.json has a bad address %q: %v", raw, err)
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

func TestRealwebHomeFooters(t *testing.T) {
	dir := readtest.Folder(t, realwebDir, "home")
	all, names := readtest.Entries(t, dir)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			var exp expectedHome
			if err := json.Unmarshal(all[name], &exp); err != nil {
				t.Fatal(err)
			}
			body, err := os.ReadFile(filepath.Join(realwebDir, exp.File))
			if err != nil {
				t.Fatal(err)
			}
			pageURL, err := url.Parse(exp.OriginalURL)
			if err != nil {
				t.Fatal(err)
			}
			page, err := HTML(body, "text/html", pageURL)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{}
			for _, l := range append(append([]expectedLink(nil), exp.FooterLinks...), exp.Personvern...) {
				want[canonicalURL(t, l.AbsoluteURL)] = l.Text
			}
			taken := map[string]string{}
			for _, l := range page.Footer {
				if w, ok := MatchReadingWord(l); ok {
					taken[l.URL] = w
				}
			}
			found := 0
			for u := range want {
				if _, ok := taken[u]; ok {
					found++
				} else if why, ok := unreachableFooterLinks[name][u]; ok {
					t.Logf("expected link %s not found, documented: %s", u, why)
					found++ // documented as unreachable: not a failure
				} else {
					t.Errorf("expected footer link not found: %s (%q)", u, want[u])
				}
			}
			right := 0
			for u, w := range taken {
				if _, ok := want[u]; ok {
					right++
				} else {
					t.Errorf("footer link taken that is not expected: %s (matched %q)", u, w)
				}
			}
			recall, precision := 1.0, 1.0
			if len(want) > 0 {
				recall = float64(found) / float64(len(want))
			}
			if len(taken) > 0 {
				precision = float64(right) / float64(len(taken))
			}
			t.Logf("%s: footer found=%v how=%q links=%d (expected markup: %s, %d links); reading-word links expected=%d taken=%d; recall=%.2f precision=%.2f; charset=%s (%s)",
				name, page.FooterFound, page.FooterHow, len(page.Footer), exp.FooterMarkup, exp.FooterLinkCnt,
				len(want), len(taken), recall, precision, page.Charset, page.CharsetRule)
			if len(want) > 0 && !page.FooterFound {
				t.Errorf("no footer found, want one with %d reading-word links", len(want))
			}
		})
	}
}

func TestRealwebDocsQuotes(t *testing.T) {
	dir := readtest.Folder(t, realwebDir, "docs")
	all, names := readtest.Entries(t, dir)
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
			var text string
			switch Kind(exp.ContentType) {
			case KindHTML:
				page, err := HTML(body, exp.ContentType, nil)
				if err != nil {
					t.Fatal(err)
				}
				text = page.Text
			case KindPDF:
				t.Skip("a PDF: extract/pdf's TestRealwebDocsQuotes checks its quotes")
			default:
				t.Fatalf("content type %q is not one we read", exp.ContentType)
			}
			readtest.CheckQuotes(t, name, text, exp, NewVerifier(text).Verify)
		})
	}
}
