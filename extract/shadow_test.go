package extract

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestDeclarativeShadowDOM(t *testing.T) {
	base, _ := url.Parse("https://kommune.test/")
	cases := []struct {
		name      string
		html      string
		footer    []string // footer links, page-relative; nil: no footer
		text      string   // the page's visible text
		notInText []string
	}{
		{
			name: "footer rendered in an open shadow root (as FINN.no does)",
			html: `<nav>` + navLinks("nav", 20) + `</nav><main><p>Annonser</p></main>` +
				`<site-footer><template shadowrootmode="open"><footer><a href="/personvern">Personvern</a> <a href="/vilkar">Brukervilkår</a></footer></template></site-footer>`,
			footer: []string{"/personvern", "/vilkar"},
		},
		{
			name: "closed shadow root, links slotted from the light tree",
			html: `<main><p>Tekst</p></main><x-foot><template shadowrootmode="closed"><footer><slot name="legal"></slot><p>Laget i Fjordvik</p><slot></slot></footer></template>` +
				`<a slot="legal" href="/lisens">Lisens</a><a href="/api">API</a></x-foot>`,
			footer: []string{"/lisens", "/api"},
			text:   "Tekst Lisens Laget i Fjordvik API",
		},
		{
			name:      "an ordinary template stays invisible",
			html:      `<main><p>Tekst</p></main><template><footer><a href="/personvern">Personvern</a> Skjult</footer></template>`,
			text:      "Tekst",
			notInText: []string{"Skjult"},
		},
		{
			name:      "a second shadowrootmode template is an ordinary one",
			html:      `<main><p>Tekst</p></main><x-a><template shadowrootmode="open"><p>Vises</p></template><template shadowrootmode="open"><p>Skjult</p></template></x-a>`,
			text:      "Tekst Vises",
			notInText: []string{"Skjult"},
		},
		{
			name:      "unslotted light children and slot fallback",
			html:      `<main><p>Tekst</p></main><x-a><template shadowrootmode="open"><slot name="tom">Reserve</slot><p>Skygge</p></template><span slot="annet">Utenfor</span></x-a>`,
			text:      "Tekst Reserve Skygge",
			notInText: []string{"Utenfor"},
		},
		{
			name:      "only the first slot of a name shows the children",
			html:      `<main><p>Tekst</p></main><x-a><template shadowrootmode="open"><slot></slot><slot>Reserve</slot></template><b>Lys</b></x-a>`,
			text:      "Tekst LysReserve",
			notInText: []string{"LysLys"},
		},
		{
			name:      "an element that cannot host a shadow root keeps the template invisible",
			html:      `<main><p>Tekst</p></main><a href="/x"><template shadowrootmode="open">Skjult</template>Lenke</a>`,
			notInText: []string{"Skjult"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := HTML([]byte(`<!doctype html><html><body>`+c.html+`</body></html>`), "text/html; charset=utf-8", base)
			if err != nil {
				t.Fatal(err)
			}
			if c.footer != nil {
				if got := footerURLs(p); !p.FooterFound || !slices.Equal(got, c.footer) {
					t.Errorf("footer found=%v links %v, want %v", p.FooterFound, got, c.footer)
				}
			}
			if c.text != "" && p.Text != c.text {
				t.Errorf("text %q, want %q", p.Text, c.text)
			}
			for _, s := range c.notInText {
				if strings.Contains(p.Text, s) {
					t.Errorf("text %q shows %q", p.Text, s)
				}
			}
		})
	}
}
