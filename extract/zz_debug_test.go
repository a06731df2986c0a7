package extract

import (
	"net/url"
	"os"
	"testing"
)

func TestZZDebug(t *testing.T) {
	f := os.Getenv("DBG_FILE")
	if f == "" {
		t.Skip()
	}
	b, _ := os.ReadFile(f)
	u, _ := url.Parse(os.Getenv("DBG_URL"))
	p, err := HTML(b, "text/html", u)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("title=%q lang=%q charset=%s/%s app=%v alts=%v how=%s", p.Title, p.Lang, p.Charset, p.CharsetRule, p.AppShell, p.Alternates, p.FooterHow)
	for _, l := range p.Footer {
		w, ok := MatchReadingWord(l)
		t.Logf("F %v %q %s %v", ok, w, l.URL, l.Text+" hidden="+map[bool]string{true: "Y", false: ""}[l.Hidden])
	}
	if os.Getenv("DBG_TEXT") != "" {
		t.Log(p.Text)
	}
}
