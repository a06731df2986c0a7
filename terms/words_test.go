package terms

import (
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	cases := map[string]string{
		"You DON’T scrape.":          "you don't scrape",
		"Vil\u00ADkår for bruk":      "vilkår for bruk",
		"Copy.AI's terms, e.g. here": "copy.ai's terms e.g here",
		"API-en og  KI-modeller":     "api en og ki modeller",
		"ÅPNE data":                  "åpne data",
	}
	for in, want := range cases {
		ws := tokenize(in)
		if got := strings.Join(ws.w, " "); got != want {
			t.Errorf("tokenize(%q) = %q, want %q", in, got, want)
		}
		for k := range ws.w {
			if ws.start[k] >= ws.end[k] || ws.end[k] > len(in) {
				t.Errorf("tokenize(%q): word %d at %d..%d", in, k, ws.start[k], ws.end[k])
			}
		}
	}
}
