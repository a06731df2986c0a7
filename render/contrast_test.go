package render

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/templates"
)

// TestContrast reads the colour variables of style.css, light and dark, and
// checks each pair the pages use against WCAG 2.2 AA: 4.5:1 for text, 3:1
// for the focus ring and other non-text marks.
func TestContrast(t *testing.T) {
	css, err := templates.FS.ReadFile("style.css")
	if err != nil {
		t.Fatal(err)
	}
	schemes := colourSchemes(t, string(css))
	if len(schemes) != 2 {
		t.Fatalf("found %d colour schemes in style.css, want light and dark", len(schemes))
	}
	backgrounds := []string{"bg", "panel", "warn-bg"}
	text := []string{"fg", "muted", "link", "visited", "yes", "no"}
	for name, vars := range schemes {
		for _, bg := range backgrounds {
			for _, fg := range text {
				checkPair(t, name, vars, fg, bg, 4.5)
			}
			checkPair(t, name, vars, "focus", bg, 3)
		}
	}
}

func checkPair(t *testing.T, scheme string, vars map[string]string, fg, bg string, min float64) {
	t.Helper()
	a, okA := vars[fg]
	b, okB := vars[bg]
	if !okA || !okB {
		t.Errorf("%s: --%s or --%s is not defined", scheme, fg, bg)
		return
	}
	r := contrast(t, a, b)
	if r < min {
		t.Errorf("%s: --%s %s on --%s %s has contrast %.2f:1, want at least %.1f:1", scheme, fg, a, bg, b, r, min)
	}
}

var (
	rootBlock = regexp.MustCompile(`(?s):root\s*\{(.*?)\}`)
	colourVar = regexp.MustCompile(`--([a-z-]+):\s*(#[0-9a-fA-F]{6})\s*;`)
)

// colourSchemes returns the variables of the first :root block (light) and
// of the :root inside the prefers-color-scheme: dark query.
func colourSchemes(t *testing.T, css string) map[string]map[string]string {
	out := map[string]map[string]string{}
	dark := strings.Index(css, "prefers-color-scheme: dark")
	print := strings.Index(css, "@media print")
	for _, m := range rootBlock.FindAllStringSubmatchIndex(css, -1) {
		name := "light"
		switch {
		case print >= 0 && m[0] > print:
			continue // print forces black on white
		case dark >= 0 && m[0] > dark:
			name = "dark"
		}
		vars := map[string]string{}
		for _, v := range colourVar.FindAllStringSubmatch(css[m[2]:m[3]], -1) {
			vars[v[1]] = v[2]
		}
		if out[name] == nil {
			out[name] = vars
		}
	}
	return out
}

// contrast is the WCAG contrast ratio of two #rrggbb colours.
func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(t *testing.T, hex string) float64 {
	var c [3]float64
	for i := range c {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		if err != nil {
			t.Fatalf("colour %s: %v", hex, err)
		}
		s := float64(v) / 255
		if s <= 0.04045 {
			c[i] = s / 12.92
		} else {
			c[i] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
}

func TestContrastFormula(t *testing.T) {
	// Black on white is 21:1, and a colour on itself 1:1.
	for _, c := range []struct {
		a, b string
		want float64
	}{{"#000000", "#ffffff", 21}, {"#777777", "#777777", 1}, {"#767676", "#ffffff", 4.54}} {
		if got := contrast(t, c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("contrast(%s, %s) = %s, want %.2f", c.a, c.b, fmt.Sprintf("%.3f", got), c.want)
		}
	}
}
