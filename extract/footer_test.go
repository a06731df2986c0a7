package extract

import (
	"strings"
	"testing"
)

// navLinks makes n ordinary links, so the page has the many links of a
// real page before its footer.
func navLinks(prefix string, n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(`<a href="/` + prefix + `/` + string(rune('a'+i%26)) + `">Item ` + string(rune('A'+i%26)) + `</a> `)
	}
	return b.String()
}

func footerURLs(p *Page) []string {
	var out []string
	for _, l := range p.Footer {
		out = append(out, strings.TrimPrefix(l.URL, "https://kommune.test"))
	}
	return out
}

func TestFooterDetection(t *testing.T) {
	cases := []struct {
		name  string
		html  string
		found bool
		how   string
		links []string // footer links, page-relative
	}{
		{
			name:  "footer element",
			html:  `<nav>` + navLinks("nav", 30) + `</nav><main><p>Text</p></main><footer><a href="/vilkar">Vilkår</a> <a href="/om">Om oss</a></footer>`,
			found: true, how: FooterByElement, links: []string{"/vilkar", "/om"},
		},
		{
			name: "byline with role=contentinfo in an article is a decoy",
			html: `<article><h1>Post</h1><div role="contentinfo">By <a href="/author/kari">Kari</a>, <a href="/privacy-news">privacy news</a></div><p>Body</p></article>` +
				`<div role="contentinfo"><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></div>`,
			found: true, how: FooterByRole, links: []string{"/privacy", "/terms"},
		},
		{
			name: "empty #footer, links in an end-of-page block",
			html: `<nav>` + navLinks("nav", 30) + `</nav><main><p>Content</p></main><div id="footer"></div>` +
				`<div class="bottom"><ul><li><a href="/personvern">Personvern</a></li><li><a href="/vilkar">Vilkår for bruk</a></li><li><a href="/kontakt">Kontakt</a></li></ul></div>`,
			found: true, how: FooterByEndBlock, links: []string{"/personvern", "/vilkar", "/kontakt"},
		},
		{
			name: "post footer in an article loses to the page footer",
			html: `<article><p>Story</p><footer class="articleFooter"><a href="/tag/data">Data</a> <a href="/tag/privacy">Privacy</a></footer></article>` +
				`<footer><a href="/legal">Legal</a></footer>`,
			found: true, how: FooterByElement, links: []string{"/legal"},
		},
		{
			name:  "a footer in an article is used when nothing else holds links",
			html:  `<article><p>Story</p><footer><a href="/terms">Terms</a></footer></article>`,
			found: true, how: FooterByElement, links: []string{"/terms"},
		},
		{
			name: "a page footer without legal links beats an article footer with some",
			html: `<article><p>Story</p><footer><a href="/tag/data">Data</a></footer></article>` +
				`<footer><a href="/om">Om oss</a> <a href="/kontakt">Kontakt</a></footer>`,
			found: true, how: FooterByElement, links: []string{"/om", "/kontakt"},
		},
		{
			name: "content-module footers with More links are decoys",
			html: `<div class="module"><p>News</p><div class="module-footer"><a href="/news">More</a></div></div>` +
				`<div class="module"><p>Sport</p><div class="module-footer"><a href="/sport">More</a></div></div>` +
				`<div id="footer"><div class="footer-nav"><a href="/about">About</a></div><div class="footer-legals"><a href="/help/termsconditions">Terms &amp; Conditions</a> <a href="/help/privacypolicy">Privacy Policy</a></div></div>`,
			found: true, how: FooterByIDClass, links: []string{"/about", "/help/termsconditions", "/help/privacypolicy"},
		},
		{
			name:  "outermost candidate wins, named by its strongest markup",
			html:  `<div class="site-footer-wrapper"><footer id="colophon" class="site-footer" role="contentinfo"><div class="footer-links"><a href="/privacy">Privacy</a></div><div class="footer-license"><a href="https://creativecommons.org/licenses/by/4.0/">CC BY</a></div></footer></div>`,
			found: true, how: FooterByElement, links: []string{"/privacy", "https://creativecommons.org/licenses/by/4.0/"},
		},
		{
			name:  "id foot, and a search form named footer with no links",
			html:  `<form id="footersrchfrm"><input name="q"></form><div id="foot"><a href="http://go.test/fwlink">MSN Privacy</a> <a href="/jobs">Jobs</a></div>`,
			found: true, how: FooterByIDClass, links: []string{"http://go.test/fwlink", "/jobs"},
		},
		{
			name:  "a wrapper class naming a footer around the whole page is not the footer",
			html:  `<div class="page has-footer"><main><h1>Title</h1>` + navLinks("c", 30) + `</main><footer><a href="/terms">Terms</a></footer></div>`,
			found: true, how: FooterByElement, links: []string{"/terms"},
		},
		{
			name:  "the later of two equal footers",
			html:  `<footer class="top"><a href="/privacy">Privacy</a></footer><p>Text</p><footer class="bottom"><a href="/terms">Terms</a></footer>`,
			found: true, how: FooterByElement, links: []string{"/terms"},
		},
		{
			name:  "more legal links beat position",
			html:  `<footer><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer><div class="footer-bottom"><a href="/cookies-legal">Legal</a></div>`,
			found: true, how: FooterByElement, links: []string{"/privacy", "/terms"},
		},
		{
			name:  "footer with links but none legal is still the footer",
			html:  `<p>` + navLinks("x", 5) + `</p><footer><a href="/om">Om oss</a></footer>`,
			found: true, how: FooterByElement, links: []string{"/om"},
		},
		{
			name:  "no footer markup and no legal links: not found",
			html:  `<p id="cp">© 2010 <a href="/duty/">Read before use</a> <a href="/about">About</a></p>`,
			found: false,
		},
		{
			name:  "empty footer and nothing else: not found",
			html:  `<p>` + navLinks("x", 3) + `</p><footer>© 2024 Kommune</footer>`,
			found: false,
		},
		{
			name:  "legal link early in the page is not an end-of-page block",
			html:  `<p><a href="/privacy">Privacy</a></p>` + `<p>` + navLinks("x", 40) + `</p>`,
			found: false,
		},
		{
			name:  "no links at all",
			html:  `<p>Nothing here</p>`,
			found: false,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := parse(t, c.html)
			if p.FooterFound != c.found {
				t.Fatalf("FooterFound = %v, want %v (how %q, links %q)", p.FooterFound, c.found, p.FooterHow, footerURLs(p))
			}
			if !c.found {
				if p.FooterHow != "" || len(p.Footer) != 0 {
					t.Errorf("not found, but FooterHow %q and %d links", p.FooterHow, len(p.Footer))
				}
				return
			}
			if p.FooterHow != c.how {
				t.Errorf("FooterHow = %q, want %q", p.FooterHow, c.how)
			}
			if got := footerURLs(p); strings.Join(got, " ") != strings.Join(c.links, " ") {
				t.Errorf("footer links = %q, want %q", got, c.links)
			}
		})
	}
}

func TestNamesFooter(t *testing.T) {
	yes := []string{"footer", "site-footer", "global-footer", "navFooter", "page-footer", "o-footer", "footerwrap", "foot", "page-foot", "pageFoot", "colophon", "Footer_Links"}
	no := []string{"", "footnote", "footnotes", "subfoot", "bigfoot-plugin", "header", "food", "sticky"}
	for _, s := range yes {
		if !namesFooter(s) {
			t.Errorf("namesFooter(%q) = false, want true", s)
		}
	}
	for _, s := range no {
		if namesFooter(s) {
			t.Errorf("namesFooter(%q) = true, want false", s)
		}
	}
}
