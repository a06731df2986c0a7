package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// TestAIUseByPurposeOnAPhone: a site page says, within the first two phone
// screens, what its AI training verdict rests on and the verdict per
// purpose (design §2.8, §8); the matrix of operators × purposes becomes
// labelled rows on a phone, with nothing scrolling sideways, and is a
// table with real headers at 1440 px.
func TestAIUseByPurposeOnAPhone(t *testing.T) {
	chromium := FindChromium()
	if chromium == "" {
		msg := "no Chromium found: install Debian's chromium package to run the browser check"
		if os.Getenv("BROWSER_TEST_REQUIRED") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	public := demoSite(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(public)))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b, err := Launch(ctx, chromium, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	page, err := b.NewPage(ctx, strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ host, rests, purposes string }{
		{"kommune.test", "only by a general scraping ban in the terms (no AI named)", "AI answers No objection found"},
		{"app.test", "no terms read", "AI training No objection found"},
		{"svar.test", "terms read: no objection", "AI answers Refused"},
		{"arkiv.test", "noarchive in a robots meta tag", "AI answers Partly refused"},
	}
	const measure = `(() => {
  const top = (sel) => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect().top + window.scrollY : -1; };
  const text = (sel) => { const e = document.querySelector(sel); return e ? e.textContent.replace(/\s+/g, ' ') : ''; };
  const m = document.querySelector('table.matrix');
  const td = m ? m.querySelector('tbody td') : null;
  return {
    Rests: top('.answers .rests'), RestsText: text('.answers .rests'),
    Purposes: top('.answers .purposes'), PurposesText: text('.answers .purposes'),
    Cols: m ? m.querySelectorAll('thead th[scope=col]').length : 0,
    Rows: m ? m.querySelectorAll('tbody tr').length : 0,
    RowHeads: m ? m.querySelectorAll('tbody th[scope=row]').length : 0,
    Label: td ? getComputedStyle(td, '::before').content : '',
    RowDisplay: m ? getComputedStyle(m.querySelector('tbody tr')).display : '',
    ScrollWidth: document.documentElement.scrollWidth, InnerWidth: window.innerWidth,
  };
})()`
	for _, width := range []int{phoneWidth, 1440} {
		if err := page.Viewport(ctx, width, phoneHeight, "light"); err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if err := page.Navigate(ctx, srv.URL+"/sites/"+c.host+"/"); err != nil {
				t.Fatal(err)
			}
			var m struct {
				Rests, Purposes                float64
				RestsText, PurposesText, Label string
				RowDisplay                     string
				Cols, Rows, RowHeads           int
				ScrollWidth, InnerWidth        int
			}
			if err := page.Eval(ctx, measure, &m); err != nil {
				t.Fatal(err)
			}
			limit := float64(2 * phoneHeight)
			if m.Rests < 0 || m.Rests > limit || !strings.Contains(m.RestsText, c.rests) {
				t.Errorf("%s at %d px: what the verdict rests on is at %.0f px and reads %q, want %q within %.0f px", c.host, width, m.Rests, m.RestsText, c.rests, limit)
			}
			if m.Purposes < 0 || m.Purposes > limit || !strings.Contains(m.PurposesText, c.purposes) {
				t.Errorf("%s at %d px: the verdicts per purpose are at %.0f px and read %q, want %q", c.host, width, m.Purposes, m.PurposesText, c.purposes)
			}
			if m.Cols != 4 || m.Rows < 10 || m.RowHeads != m.Rows {
				t.Errorf("%s: the matrix has %d column heads, %d rows, %d row heads", c.host, m.Cols, m.Rows, m.RowHeads)
			}
			switch {
			case width == phoneWidth && (m.RowDisplay != "block" || m.Label != `"AI training"`):
				t.Errorf("%s at %d px: a matrix row shows as %q, its first cell labelled %s", c.host, width, m.RowDisplay, m.Label)
			case width > phoneWidth && m.RowDisplay != "table-row":
				t.Errorf("%s at %d px: a matrix row shows as %q", c.host, width, m.RowDisplay)
			}
			if m.ScrollWidth > m.InnerWidth {
				t.Errorf("%s at %d px: the page is %d px wide", c.host, width, m.ScrollWidth)
			}
		}
	}
	for _, p := range page.Problems() {
		t.Error(p)
	}
}
