package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/signals"
)

// The paths to "yes" of issue 38 (design §2.6, §2.8), end to end on the
// fixture web: robots.txt's License line, the RSL file it names (read on
// a reviewed host only), and licences declared for programs.

func sitePage(t *testing.T, r *demoRun, host string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.public, "sites", host, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func rslSource(s *signals.Site) *signals.AISource {
	for i := range s.AIUse.Sources {
		if s.AIUse.Sources[i].Kind == "rsl" {
			return &s.AIUse.Sources[i]
		}
	}
	return nil
}

// TestRSLProhibitsTraining: magasin.test's robots.txt names an RSL file on
// its own host that prohibits ai-train for "/": the file is read once,
// kept as evidence, and objects for every AI training crawler, so AI
// training is refused though robots.txt lets every crawler in.
func TestRSLProhibitsTraining(t *testing.T) {
	r := crawlFixtureWeb(t)
	s := r.sites["magasin.test"]
	const u = "https://magasin.test/license.xml"
	n := 0
	for _, q := range r.requests("magasin.test") {
		if q.Path == "/license.xml" {
			n++
		}
	}
	d := docFor(s, u)
	if n != 1 || d == nil || d.FoundVia != "robots-named" || d.Role != signals.RoleFile || d.Record == "" {
		t.Fatalf("%s: requested %d times, read as %+v; want once, robots-named, a file kept as evidence", u, n, d)
	}
	if l := s.Robots.LicenseLines; len(l) != 1 || l[0].Line != 5 || l[0].URL != u {
		t.Errorf("License lines %+v", l)
	}
	if len(s.RSL) != 1 || s.RSL[0].State != signals.RSLRead || s.RSL[0].Record != d.Record || len(s.RSL[0].Contents) != 1 || !s.RSL[0].Contents[0].CoversHome {
		t.Fatalf("rsl %+v", s.RSL)
	}
	src := rslSource(s)
	if src == nil || src.Objects != signals.ObjectsAll || src.Line != 6 || src.Says != `<prohibits type="usage">ai-train</prohibits>` {
		t.Errorf("rsl source %+v", src)
	}
	if s.AIUse.Verdict != signals.AIRefused {
		t.Errorf("AI use %s: %s; want refused", s.AIUse.Verdict, s.AIUse.Why)
	}
	page := sitePage(t, r, "magasin.test")
	for _, want := range []string{
		`id="rsl"`, "line 5: ",
		`<code>&lt;prohibits type=&#34;usage&#34;&gt;ai-train&lt;/prohibits&gt;</code>`,
		"an RSL licence file", "RSL file magasin.test/license.xml line 6",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("magasin.test's page lacks %q", want)
		}
	}
}

// TestRSLFreeLicence: bibliotek.test's RSL file permits every use under CC BY
// 4.0 for attribution: the licence part of Open by design, shown as the
// file's line; with no API the verdict stays no, and nothing objects.
func TestRSLFreeLicence(t *testing.T) {
	r := crawlFixtureWeb(t)
	s := r.sites["bibliotek.test"]
	var got *signals.Licence
	for i := range s.Licences {
		if s.Licences[i].Via == "rsl" {
			got = &s.Licences[i]
		}
	}
	if got == nil || got.Name != "CC BY 4.0" || got.URL != "https://bibliotek.test/license.xml" || got.Line != 7 ||
		got.Evidence != "<standard>https://creativecommons.org/licenses/by/4.0/</standard>" || got.Record == "" {
		t.Fatalf("licences %+v", s.Licences)
	}
	o := s.OpenByDesign
	if o.Declared == nil || o.Declared.Via != "rsl" || o.Verdict == nil || *o.Verdict || !strings.Contains(o.Why, "CC BY 4.0") {
		t.Errorf("open by design %+v", o)
	}
	if src := rslSource(s); src == nil || src.Objects != "" || s.AIUse.Verdict != signals.AINoObjection {
		t.Errorf("AI use %s, rsl source %+v: a permit objects to nothing", s.AIUse.Verdict, src)
	}
	if p := s.RSL[0].Contents[0].Licenses[0].Payment; p == nil || p.Type != "attribution" {
		t.Errorf("payment %+v", p)
	}
	page := sitePage(t, r, "bibliotek.test")
	if !strings.Contains(page, "the RSL file") || !strings.Contains(page, "<strong>Standard</strong> CC BY 4.0 · line 7") {
		t.Errorf("bibliotek.test's page does not show the licence with its line")
	}
}

// TestDeclaredLicenceOpensByDesign: statistikk.test names no licence in
// any text; its home page declares CC BY 4.0 in <link rel="license"> and
// its API page in a Link header. With its free API that is Open by
// design: yes, the declaration shown as written.
func TestDeclaredLicenceOpensByDesign(t *testing.T) {
	r := crawlFixtureWeb(t)
	s := r.sites["statistikk.test"]
	vias := map[string]string{}
	for _, l := range s.Licences {
		vias[l.Via] = l.Name + " " + l.URL + " " + l.Evidence
	}
	if vias["link-element"] != `CC BY 4.0 https://statistikk.test/ <link rel="license" href="https://creativecommons.org/licenses/by/4.0/">` ||
		vias["link-header"] != `CC BY 4.0 https://statistikk.test/api Link: <https://creativecommons.org/licenses/by/4.0/>; rel="license"` {
		t.Errorf("licences %+v", s.Licences)
	}
	o := s.OpenByDesign
	if o.Verdict == nil || !*o.Verdict || o.API == nil || o.Declared == nil || o.Licence != nil {
		t.Fatalf("open by design %+v", o)
	}
	page := sitePage(t, r, "statistikk.test")
	if !strings.Contains(page, "Declared for programs: <strong>CC BY 4.0</strong>") {
		t.Errorf("statistikk.test's page does not show the declaration under (b)")
	}
	var index struct {
		Sites []map[string]any `json:"sites"`
	}
	readJSONFile(t, filepath.Join(r.public, "sites.json"), &index)
	var entry map[string]any
	for _, e := range index.Sites {
		if e["host"] == "statistikk.test" {
			entry = e
		}
	}
	if entry == nil || entry["open_by_design"] != true {
		t.Errorf("sites.json entry %v", entry)
	}
}

// TestRSLOffListNoRequest: ekstern.test's License line names a file on
// bibliotek.test, a host reviewed for another site but not for this one: a gap
// (off-list), shown as not read by us, and no request for it is sent.
func TestRSLOffListNoRequest(t *testing.T) {
	r := crawlFixtureWeb(t)
	s := r.sites["ekstern.test"]
	for _, q := range r.requests("bibliotek.test") {
		if q.Path == "/andres-lisens.xml" {
			t.Fatalf("a request was sent for %s%s", q.Host, q.Path)
		}
	}
	if len(s.RSL) != 1 || s.RSL[0].State != signals.RSLNotRead || s.RSL[0].Reason != "off-list" || s.RSL[0].URL != "https://bibliotek.test/andres-lisens.xml" {
		t.Fatalf("rsl %+v", s.RSL)
	}
	found := false
	for _, g := range s.NotRead {
		found = found || (g.URL == "https://bibliotek.test/andres-lisens.xml" && g.Reason == "off-list")
	}
	if !found || rslSource(s) != nil {
		t.Errorf("not read %+v; an unread file must be a gap and no AI source", s.NotRead)
	}
	if !strings.Contains(s.AIUse.Why, "RSL licence file robots.txt names was not read") {
		t.Errorf("AI use %s: %q does not say the RSL file was not read", s.AIUse.Verdict, s.AIUse.Why)
	}
	page := sitePage(t, r, "ekstern.test")
	if !strings.Contains(page, "<strong>Not read by us</strong> (<code>off-list</code>)") || !strings.Contains(page, "not on the reviewed list") {
		t.Errorf("ekstern.test's page does not show the RSL file as our gap")
	}
}
