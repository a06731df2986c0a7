package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestReaderPromises holds every page kind of the demo site, at 360 and
// 1440 px, to what design §8 promises a reader (issue 23, items 1–7):
//
//  1. a read site's four answers end within two phone screens (360 × 740);
//  2. no table is cut off by its box, and no cell squeezed so narrow that a
//     word breaks over lines (a letter per line);
//  3. every keyboard stop is visible when it has the focus;
//  4. on the directory, search hides what it does not match, and the
//     columns can be sorted, on a phone too;
//  6. printed, the per-crawler table is on paper; a deciding-line link
//     shows the User-agent lines of the line's group;
//  7. the crawler chart uses the width it has and says what its share is of.
func TestReaderPromises(t *testing.T) {
	chromium := FindChromium()
	need(t, chromium == "", "no Chromium found: install Debian's chromium package to run the browser check")
	public := demoSite(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(public)))
	defer srv.Close()
	paths := pagePaths(t, public)
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(len(paths)*len(widths))*20*time.Second)
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
	for _, width := range widths {
		if err := page.Viewport(ctx, width, phoneHeight, "light"); err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if err := page.Navigate(ctx, srv.URL+p); err != nil {
				t.Fatal(err)
			}
			var problems []string
			if err := page.Eval(ctx, "("+readerChecks+")("+strconv.Itoa(2*phoneHeight)+")", &problems); err != nil {
				t.Fatalf("%s at %d px: %v", p, width, err)
			}
			for _, pr := range problems {
				t.Errorf("%s at %d px: %s", p, width, pr)
			}
			if strings.HasPrefix(p, "/sites/") {
				checkDecidingLinks(ctx, t, page, srv.URL+p, width)
			}
		}
		checkDirectory(ctx, t, page, srv.URL+"/", width)
	}
	// Printed: the evidence of a site page is on paper, the per-crawler
	// table included.
	if err := page.Viewport(ctx, 1440, 900, "print"); err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"kommune.test", "avis.test"} {
		if err := page.Navigate(ctx, srv.URL+"/sites/"+host+"/"); err != nil {
			t.Fatal(err)
		}
		var rows struct{ All, Shown int }
		if err := page.Eval(ctx, `(() => { const r = Array.from(document.querySelectorAll('table.agents tbody tr')); return {All: r.length, Shown: r.filter(x => x.checkVisibility() && x.getBoundingClientRect().height > 0).length}; })()`, &rows); err != nil {
			t.Fatal(err)
		}
		if rows.All == 0 || rows.Shown != rows.All {
			t.Errorf("%s printed: %d of %d rows of the per-crawler table are on paper", host, rows.Shown, rows.All)
		}
	}
	for _, pr := range page.Problems() {
		t.Error(pr)
	}
}

// readerChecks is a function of the two-screen limit (px) that returns the
// problems of the page it runs in.
const readerChecks = `function (limit) {
  const out = [];
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().replace(/\s+/g, '.') : '');
  const shown = (e) => e.getClientRects().length > 0 && e.checkVisibility();
  // clipped: inside a box clipped to nothing (a visually hidden header).
  const clipped = (e) => {
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const cs = getComputedStyle(a), ar = a.getBoundingClientRect();
      if ((cs.clip !== 'auto' || cs.clipPath !== 'none' || cs.overflow === 'hidden') && (ar.width <= 2 || ar.height <= 2)) return true;
    }
    return false;
  };
  const W = window.innerWidth;

  // 1. Answers first: on a read site's page, every answer ends within two phone screens.
  if (W <= 400) {
    for (const a of document.querySelectorAll('.answers .answer')) {
      if (!document.querySelector('.toc')) break; // a site not read (blocked, not yet): nothing to push down
      const bottom = a.getBoundingClientRect().bottom + window.scrollY;
      if (bottom > limit) out.push('answer "' + a.querySelector('h3').textContent + '" ends at ' + Math.round(bottom) + ' px, past two phone screens (' + limit + ' px)');
    }
  }

  // 2. Tables: not cut off, not squeezed, those folded in a <details> too.
  document.querySelectorAll('details').forEach(d => d.open = true);
  const lines = (el) => {
    const tops = new Set();
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.textContent.trim()) continue;
      const r = document.createRange();
      r.selectNodeContents(n);
      for (const b of r.getClientRects()) if (b.width > 0) tops.add(Math.round(b.top));
    }
    return tops.size;
  };
  for (const t of document.querySelectorAll('main table')) {
    if (!shown(t)) continue;
    const box = t.parentElement;
    const tw = Math.max(t.getBoundingClientRect().width, t.scrollWidth);
    // A wide table in a region that scrolls sideways, which a keyboard can
    // focus and a screen reader names, is not cut off: it scrolls.
    const bs = getComputedStyle(box);
    const scrolls = (bs.overflowX === 'auto' || bs.overflowX === 'scroll') && box.getAttribute('role') === 'region' &&
      box.tabIndex >= 0 && (box.hasAttribute('aria-labelledby') || box.hasAttribute('aria-label'));
    if (tw > box.clientWidth + 1 && !scrolls) {
      const cap = t.caption ? t.caption.textContent.trim().slice(0, 50) : name(t);
      out.push('table "' + cap + '" is ' + Math.round(tw) + ' px wide in a box of ' + box.clientWidth + ' px: cut off');
    }
    for (const c of t.querySelectorAll('th, td')) {
      const r = c.getBoundingClientRect();
      if (!shown(c) || r.width <= 2 || clipped(c)) continue; // a visually hidden header
      const words = c.textContent.trim().split(/[\s-]+/).filter(Boolean).length; // a hyphen is a place to break
      if (words && r.width < 120 && lines(c) > words) out.push('cell "' + c.textContent.trim().slice(0, 40) + '" squeezed to ' + Math.round(r.width) + ' px: its words break over ' + lines(c) + ' lines');
    }
  }

  // 3. Every keyboard stop is visible when focused.
  const stops = document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])');
  for (const e of stops) {
    if (!shown(e) || e.closest('[hidden]') || e.tabIndex < 0) continue;
    e.focus();
    if (document.activeElement !== e) continue;
    const r = e.getBoundingClientRect(), cut = clipped(e);
    if (cut || r.width < 4 || r.height < 4) out.push('keyboard stop ' + name(e) + ' "' + e.textContent.trim().slice(0, 30) + '" is not visible when focused (' + Math.round(r.width) + '×' + Math.round(r.height) + ' px' + (cut ? ', clipped' : '') + ')');
  }
  if (document.activeElement) document.activeElement.blur();
  window.scrollTo(0, 0);

  // 7. The crawler chart: wide enough to read, and it says what its share is of.
  for (const f of document.querySelectorAll('figure.chart')) {
    const svg = f.querySelector('svg'), main = document.querySelector('main');
    const w = svg.getBoundingClientRect().width, avail = Math.min(main.clientWidth, 52 * 16);
    if (w < 0.6 * avail) out.push('the chart is ' + Math.round(w) + ' px wide of the ' + Math.round(avail) + ' px it could use');
    const cap = f.querySelector('figcaption').textContent;
    if (!/unknown/i.test(cap)) out.push('the chart does not say whether unknown sites count in its share: "' + cap + '"');
  }
  return out;
}`

// checkDecidingLinks follows each deciding-line link of a site page and
// checks that the line and the User-agent lines of its group are on screen.
func checkDecidingLinks(ctx context.Context, t *testing.T, page *Page, address string, width int) {
	t.Helper()
	var hrefs []string
	if err := page.Eval(ctx, `(() => { document.querySelectorAll('details').forEach(d => d.open = true); return Array.from(new Set(Array.from(document.querySelectorAll('table.agents a[href^="#"]')).map(a => a.getAttribute('href')))); })()`, &hrefs); err != nil {
		t.Fatal(err)
	}
	for _, h := range hrefs {
		var got struct {
			Found          bool
			Line, GroupTop float64
			Group          string
			Height         float64
		}
		js := `(() => {
  location.hash = ` + jsString(h) + `;
  const li = document.getElementById(` + jsString(strings.TrimPrefix(h, "#")) + `);
  if (!li) return {Found: false};
  let g = li;
  // The group starts at the first of the User-agent lines above the line.
  while (g && !/^\s*user-agent\s*:/i.test(g.textContent)) g = g.previousElementSibling;
  while (g && g.previousElementSibling && /^\s*user-agent\s*:/i.test(g.previousElementSibling.textContent)) g = g.previousElementSibling;
  if (!g) g = li;
  const box = li.closest('ol').getBoundingClientRect();
  return {Found: true, Line: li.getBoundingClientRect().top, GroupTop: g.getBoundingClientRect().top, Group: g.textContent, Height: window.innerHeight, Box: box.top};
})()`
		if err := page.Eval(ctx, js, &got); err != nil {
			t.Fatal(err)
		}
		if !got.Found {
			t.Errorf("%s at %d px: deciding-line link %s has no target", address, width, h)
			continue
		}
		if got.GroupTop < 0 || got.Line > got.Height {
			t.Errorf("%s at %d px: after following %s the line is at %.0f px and its group's %q at %.0f px: not both on screen", address, width, h, got.Line, strings.TrimSpace(got.Group), got.GroupTop)
		}
	}
	if err := page.Eval(ctx, `(() => { history.replaceState(null, '', location.pathname); window.scrollTo(0, 0); return true; })()`, new(bool)); err != nil {
		t.Fatal(err)
	}
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// checkDirectory types a search and sorts a column, as a reader on this
// screen would: by clicking what is on screen.
func checkDirectory(ctx context.Context, t *testing.T, page *Page, address string, width int) {
	t.Helper()
	if err := page.Navigate(ctx, address); err != nil {
		t.Fatal(err)
	}
	var all int
	if err := page.Eval(ctx, `(() => { document.getElementById('site-search').focus(); return document.querySelectorAll('#sites-table tbody tr').length; })()`, &all); err != nil {
		t.Fatal(err)
	}
	if err := page.Type(ctx, "fjord"); err != nil {
		t.Fatal(err)
	}
	var visible []string
	// Visible means on screen: a rule that overrides [hidden] leaves a row in sight.
	if err := page.Eval(ctx, `Array.from(document.querySelectorAll('#sites-table tbody tr')).filter(r => r.getClientRects().length > 0 && r.getBoundingClientRect().height > 0).map(r => r.getAttribute('data-search'))`, &visible); err != nil {
		t.Fatal(err)
	}
	if len(visible) == 0 || len(visible) >= all {
		t.Errorf("%s at %d px: typing %q leaves %d of %d sites in sight", address, width, "fjord", len(visible), all)
	}
	for _, s := range visible {
		if !strings.Contains(s, "fjord") {
			t.Errorf("%s at %d px: %q in sight after typing %q", address, width, s, "fjord")
		}
	}
	if err := page.Navigate(ctx, address); err != nil {
		t.Fatal(err)
	}
	var sorted struct {
		Found bool
		Gaps  []int
	}
	if err := page.Eval(ctx, `(() => {
  const b = Array.from(document.querySelectorAll('#sites-table button.sort')).find(x => x.textContent.includes('Not read by us'));
  if (!b) return {Found: false};
  b.scrollIntoView({block: 'center'});
  const r2 = b.getBoundingClientRect();
  const at = document.elementFromPoint(r2.left + r2.width / 2, r2.top + r2.height / 2);
  if (!at || !b.contains(at) || r2.width < 4 || r2.height < 4) return {Found: false};
  at.click();
  const th = b.closest('th'), col = Array.from(th.parentNode.cells).indexOf(th);
  return {Found: true, Gaps: Array.from(document.querySelectorAll('#sites-table tbody tr')).map(r => Number(r.cells[col].textContent.replace(/\D+/g, '')))};
})()`, &sorted); err != nil {
		t.Fatal(err)
	}
	if !sorted.Found {
		t.Errorf("%s at %d px: no sort button for “Not read by us” on screen to press", address, width)
	} else if len(sorted.Gaps) < 5 || !slices.IsSorted(sorted.Gaps) || sorted.Gaps[0] == sorted.Gaps[len(sorted.Gaps)-1] {
		t.Errorf("%s at %d px: after sorting by gaps the rows read %v", address, width, sorted.Gaps)
	}
}
