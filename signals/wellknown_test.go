package signals

import (
	"testing"
	"time"
)

func TestParseSecurityTxt(t *testing.T) {
	at := time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC)
	cases := []struct {
		name, text     string
		contacts       int
		expired, noExp bool
		problems       int
		preferred      string
	}{
		{"valid", "Contact: mailto:sikkerhet@kommune.test\nExpires: 2027-06-30T00:00:00Z\nPreferred-Languages: nb, en\n", 1, false, false, 0, "nb, en"},
		{"expired", "Contact: https://register.test/kontakt\nExpires: 2025-01-01T00:00:00Z\n", 1, true, false, 0, ""},
		{"no expires", "# comment\nContact: mailto:a@b.test\nContact: tel:+47-1234\n", 2, false, true, 1, ""},
		{"bad date", "Contact: mailto:a@b.test\nExpires: next year\n", 1, false, false, 1, ""},
		{"empty", "", 0, false, true, 2, ""},
		{"signed", "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nContact: mailto:a@b.test\nExpires: 2027-01-01T00:00:00Z\n-----BEGIN PGP SIGNATURE-----\n", 1, false, false, 0, ""},
	}
	for _, c := range cases {
		s := parseSecurityTxt("u", c.text, at)
		if len(s.Contact) != c.contacts || s.Expired != c.expired || s.ExpiresMissing != c.noExp || len(s.Problems) != c.problems || s.PreferredLanguages != c.preferred {
			t.Errorf("%s: %+v", c.name, s)
		}
	}
}

func TestParseLLMsTxt(t *testing.T) {
	l := parseLLMsTxt("u", "# Fjordvik kommune\n\n> Kommunens tjenester og åpne data.\n\n## Dokumenter\n- [Vilkår](https://kommune.test/vilkar): bruksvilkår\n- [Åpne data](/apne-data)\n- [E-post](mailto:x@y)\n")
	if l.Title != "Fjordvik kommune" || l.Summary != "Kommunens tjenester og åpne data." {
		t.Errorf("title/summary: %+v", l)
	}
	if len(l.Links) != 2 || l.Links[0].URL != "https://kommune.test/vilkar" || l.Links[1].Text != "Åpne data" {
		t.Errorf("links: %+v", l.Links)
	}
}

func TestTDMRepJSON(t *testing.T) {
	text := `[{"location":"/media/*.jpg","tdm-reservation":0},{"location":"/","tdm-reservation":1,"tdm-policy":"https://x.test/policy.json"}]`
	r, problem := parseTDMRepJSON("u", text, "/")
	if r == nil || !r.Reservation || r.Policy != "https://x.test/policy.json" || r.Location != "/" {
		t.Fatalf("got %+v (%s)", r, problem)
	}
	if _, problem := parseTDMRepJSON("u", `{"location":"/"}`, "/"); problem == "" {
		t.Error("an object instead of an array was accepted")
	}
	if r, _ := parseTDMRepJSON("u", `[{"location":"/docs/","tdm-reservation":1}]`, "/"); r != nil {
		t.Errorf("a rule for /docs/ applied to /: %+v", r)
	}
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"/", "/", true}, {"/", "/a/b", true}, {"/a/", "/a/b", true}, {"/a/", "/b", false},
		{"/a/*.jpg", "/a/x/y.jpg", true}, {"/a/*.jpg", "/a/x.png", false},
		{"/exact$", "/exact", true}, {"/exact$", "/exact/more", false}, {"", "/", false},
	} {
		if got := tdmLocationMatches(c.pattern, c.path); got != c.want {
			t.Errorf("tdmLocationMatches(%q, %q) = %v", c.pattern, c.path, got)
		}
	}
}

func TestAPICatalogAndGPC(t *testing.T) {
	a := parseAPICatalog("u", `{"linkset":[{"anchor":"https://api.x.test/v1","service-desc":[{"href":"https://api.x.test/openapi.json"}]}]}`)
	if !a.Valid || len(a.Facts) != 2 {
		t.Errorf("api-catalog: %+v", a)
	}
	if a := parseAPICatalog("u", `<html>`); a.Valid || a.Detail == "" {
		t.Errorf("HTML as api-catalog: %+v", a)
	}
	g := parseGPC("u", `{"gpc": true, "lastUpdate": "2026-01-01"}`)
	if !g.Valid || len(g.Facts) != 2 {
		t.Errorf("gpc: %+v", g)
	}
	if g := parseGPC("u", `{}`); g.Valid {
		t.Errorf("gpc without member: %+v", g)
	}
}
