package crawl

import (
	"strings"
	"testing"
	"testing/fstest"
	"testing/synctest"
)

// spaceWeb is a one-host web whose footer, robots.txt and a redirect each
// give an address with a space in it, the way careless markup does.
func spaceWeb() fstest.MapFS {
	page := "<!DOCTYPE html>\n<html lang=\"nb\"><head><title>Rom</title></head><body><main><p>Hei.</p></main>" +
		"<footer><a href=\"/vilkar?a b\">Vilkår</a> <a href=\"/personvern\">Personvern</a></footer></body></html>\n"
	doc := "<!DOCTYPE html>\n<html lang=\"nb\"><head><title>Vilkår</title></head><body><p>Vilkår for bruk.</p></body></html>\n"
	return fstest.MapFS{
		"rom.test/robots.txt":    {Data: []byte("User-agent: *\nAllow: /\nSitemap: https://rom.test/kart?x y\n")},
		"rom.test/index.html":    {Data: []byte(page)},
		"rom.test/vilkar.html":   {Data: []byte(doc)},
		"rom.test/lisens.html":   {Data: []byte(doc)},
		"rom.test/kart.html":     {Data: []byte(doc)},
		"rom.test/_fixture.toml": {Data: []byte("[\"/personvern\"]\nstatus = 301\nlocation = \"/lisens?p q\"\n")},
	}
}

const romSite = `
[[site]]
name = "Rom"
url = "https://rom.test/"
hosts = ["rom.test"]
`

// An address with a space (a footer link, a Sitemap line, a Location
// header) is escaped as a browser escapes it before it is planned,
// requested and recorded; the site's evidence is whole and the progress
// line counts the requests sent.
func TestAddressesWithSpacesAreEscaped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, spaceWeb())
		var progress strings.Builder
		r := crawlMemory(t, srv, listFrom(t, romSite), nil, Config{Progress: &progress})
		if r.err != nil {
			t.Fatalf("crawl: %v", r.err)
		}
		for _, p := range r.paths("rom.test") {
			if strings.ContainsAny(p, " ") {
				t.Errorf("request %q sent with a raw space", p)
			}
		}
		r.wantRead(t, "rom.test", "https://rom.test/vilkar?a%20b")
		a := r.wantRead(t, "rom.test", "https://rom.test/personvern")
		if a.FinalURL != "https://rom.test/lisens?p%20q" {
			t.Errorf("redirect ended at %q, want the escaped address", a.FinalURL)
		}
		r.address(t, "rom.test", "https://rom.test/kart?x%20y")
		n := len(r.requests("rom.test"))
		if want := strings.TrimSpace(progress.String()); !strings.Contains(want, " "+itoa(n)+" requests") {
			t.Errorf("progress %q does not count the %d requests sent", want, n)
		}
	})
}

func TestBrowserURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://a.test/terms?a b", "https://a.test/terms?a%20b"},
		{"https://a.test/a b/c", "https://a.test/a%20b/c"},
		{"https://a.test/t?q=\"x\"<y>'z'", "https://a.test/t?q=%22x%22%3Cy%3E%27z%27"},
		{"https://a.test/t?navn=bjørn", "https://a.test/t?navn=bj%C3%B8rn"},
		{"https://a.test/t?a%20b&c=d", "https://a.test/t?a%20b&c=d"}, // escaped already: unchanged
		{"https://a.test/t?a b#x y", "https://a.test/t?a%20b#x%20y"},
		{"https://a.test/vilkår", "https://a.test/vilk%C3%A5r"},
		{"https://a.test/ok", "https://a.test/ok"},
	}
	for _, c := range cases {
		if got := browserURL(c.in); got != c.want {
			t.Errorf("browserURL(%q) = %q, want %q", c.in, got, c.want)
		}
		if again := browserURL(c.want); again != c.want {
			t.Errorf("browserURL(%q) = %q: escaping twice changed it", c.want, again)
		}
	}
}
