package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/crawl/guard"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/fixture"
	"github.com/crawlsignals/crawlsignals/render"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// testDelay is the per-host floor in these tests (loopback only).
const testDelay = 150 * time.Millisecond

// demoRun is one crawl and build of the whole fixture web, shared by the
// tests that judge it: the crawl is the expensive part, and each test reads
// the fixture server's own log and the built output.
type demoRun struct {
	log     []fixture.Request
	sum     *crawl.Summary
	public  string
	batches string
	sites   map[string]*signals.Site
}

var (
	runOnce sync.Once
	theRun  *demoRun
	runErr  error
)

func crawlFixtureWeb(t *testing.T) *demoRun {
	t.Helper()
	runOnce.Do(func() { theRun, runErr = doCrawl() })
	if runErr != nil {
		t.Fatal(runErr)
	}
	return theRun
}

func doCrawl() (*demoRun, error) {
	dir, err := os.MkdirTemp("", "crawlsignals-pipeline-")
	if err != nil {
		return nil, err
	}
	srv, err := fixture.New(crawlsignals.FixtureWeb())
	if err != nil {
		return nil, err
	}
	addr, roots, err := srv.StartTLS()
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		return nil, err
	}
	resolve := map[string]string{}
	for _, s := range list.Sites {
		for _, h := range s.Hosts {
			resolve[h] = addr
		}
	}
	r := &demoRun{batches: filepath.Join(dir, "batches"), public: filepath.Join(dir, "public"), sites: map[string]*signals.Site{}}
	c, err := crawl.New(crawl.Config{
		Batches: r.batches, MinDelay: testDelay, Resolve: resolve,
		Client: guard.NewClient(guard.Options{Resolve: resolve, RootCAs: roots}),
	}, list, nil)
	if err != nil {
		return nil, err
	}
	r.sum, err = c.Run(context.Background(), nil)
	if err != nil {
		return nil, err
	}
	r.log = srv.Log()
	all, err := derived.Build(context.Background(), list, r.batches, derived.Options{Content: crawlsignals.Content()})
	if err != nil {
		return nil, err
	}
	rd, err := render.New()
	if err != nil {
		return nil, err
	}
	if err := rd.Build(context.Background(), r.public, render.Input{Sites: all, Content: crawlsignals.Content(), Contact: list.Global.Contact}); err != nil {
		return nil, err
	}
	for _, host := range list.Sites {
		data, err := os.ReadFile(filepath.Join(r.public, "sites", host.Host, "signals.json"))
		if err != nil {
			return nil, err
		}
		var s signals.Site
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, err
		}
		r.sites[host.Host] = &s
	}
	return r, nil
}

func (r *demoRun) requests(host string) []fixture.Request {
	var out []fixture.Request
	for _, q := range r.log {
		if q.Host == host {
			out = append(out, q)
		}
	}
	return out
}

func (r *demoRun) paths(host string) []string {
	var out []string
	for _, q := range r.requests(host) {
		out = append(out, q.Path)
	}
	return out
}

func TestRobotsTxtIsFirstRequestToEachHost(t *testing.T) {
	r := crawlFixtureWeb(t)
	hosts := map[string]bool{}
	for _, q := range r.log {
		hosts[q.Host] = true
	}
	if len(hosts) < 6 {
		t.Fatalf("only %d hosts were contacted: %v", len(hosts), hosts)
	}
	for h := range hosts {
		if p := r.paths(h); p[0] != "/robots.txt" {
			t.Errorf("%s: first request was %s, want /robots.txt (all: %v)", h, p[0], p)
		}
	}
}

func TestNoRequestAfterRobotsRefusal(t *testing.T) {
	r := crawlFixtureWeb(t)
	for _, h := range []string{"nede.test", "stengt.test"} {
		if p := r.paths(h); !slices.Equal(p, []string{"/robots.txt"}) {
			t.Errorf("%s: requests %v, want only /robots.txt", h, p)
		}
	}
}

func TestBlockedSiteGetsNoRequest(t *testing.T) {
	r := crawlFixtureWeb(t)
	if p := r.paths("stopp.test"); len(p) != 0 {
		t.Errorf("stopp.test is blocked but got %v", p)
	}
	s := r.sites["stopp.test"]
	if !s.Blocked || len(s.NotRead) != 1 || s.NotRead[0].Reason != evidence.ReasonAskedToStop {
		t.Errorf("stopp.test signals: blocked=%v not_read=%+v", s.Blocked, s.NotRead)
	}
}

func TestRobotsDisallowedPathNeverRequested(t *testing.T) {
	r := crawlFixtureWeb(t)
	if slices.Contains(r.paths("avis.test"), "/personvern") {
		t.Error("avis.test/personvern is disallowed for crawlsignals but was requested")
	}
	g := gapFor(r.sites["avis.test"], "https://avis.test/personvern")
	if g == nil || g.Reason != evidence.ReasonRobotsDisallowed {
		t.Errorf("avis.test/personvern gap = %+v, want robots-disallowed", g)
	}
}

func TestOneRequestAtATimePerHostWithGap(t *testing.T) {
	r := crawlFixtureWeb(t)
	for _, h := range []string{"kommune.test", "data.kommune.test", "avis.test", "butikk.test", "register.test", "app.test"} {
		qs := r.requests(h)
		if len(qs) < 2 {
			t.Errorf("%s: only %d requests", h, len(qs))
			continue
		}
		slices.SortFunc(qs, func(a, b fixture.Request) int { return a.Start.Compare(b.Start) })
		for i := 1; i < len(qs); i++ {
			gap := qs[i].Start.Sub(qs[i-1].End)
			if gap < testDelay {
				t.Errorf("%s: %s started %s after %s ended; the floor is %s", h, qs[i].Path, gap, qs[i-1].Path, testDelay)
			}
		}
	}
}

func TestOnlyLinkedAddressesRequested(t *testing.T) {
	r := crawlFixtureWeb(t)
	// Everything the crawler may ask kommune.test for: robots.txt, the home
	// page, the footer's matching links (with the redirect), the well-known
	// list, and what robots.txt names.
	allowed := map[string]bool{"/robots.txt": true, "/": true, "/vilkar": true, "/personvern": true,
		"/personvern/": true, "/apne-data": true, "/sitemap.xml": true, "/llms.txt": true,
		"/.well-known/security.txt": true, "/.well-known/tdmrep.json": true,
		"/.well-known/api-catalog": true, "/.well-known/gpc.json": true}
	for _, p := range r.paths("kommune.test") {
		if !allowed[p] {
			t.Errorf("kommune.test%s requested; no rule of design §2 plans it", p)
		}
	}
	for _, p := range []string{"/kontakt", "/jobb", "/nyheter/parkering", "/sok"} {
		if slices.Contains(r.paths("kommune.test"), p) {
			t.Errorf("kommune.test%s is not a footer reading-word link but was requested", p)
		}
	}
	if p := r.paths("data.kommune.test"); !slices.Equal(p, []string{"/robots.txt", "/api"}) {
		t.Errorf("data.kommune.test requests %v, want robots.txt then the API page (the data download is never read)", p)
	}
	for _, q := range r.log {
		if q.Host == "facebook.test" {
			t.Errorf("unreviewed host contacted: %s%s", q.Host, q.Path)
		}
		if q.UserAgent != crawl.UserAgent || q.From == "" {
			t.Errorf("%s%s: User-Agent %q From %q", q.Host, q.Path, q.UserAgent, q.From)
		}
	}
}

func TestFooterLinksAndHopRead(t *testing.T) {
	r := crawlFixtureWeb(t)
	s := r.sites["kommune.test"]
	want := map[string]string{
		"https://kommune.test/vilkar":     "footer",
		"https://kommune.test/personvern": "footer",
		"https://kommune.test/apne-data":  "footer",
		"https://data.kommune.test/api":   "hop",
	}
	for u, via := range want {
		d := docFor(s, u)
		if d == nil {
			t.Errorf("%s not read; read: %v", u, urls(s.Read))
			continue
		}
		if d.FoundVia != via || d.Status != 200 || d.SHA256 == "" || d.Chars == 0 {
			t.Errorf("%s: %+v", u, d)
		}
	}
	if d := docFor(s, "https://kommune.test/personvern"); d != nil && d.FinalURL != "https://kommune.test/personvern/" {
		t.Errorf("personvern final URL %q, want the redirect target", d.FinalURL)
	}
}

func TestGapReasonsInSignals(t *testing.T) {
	r := crawlFixtureWeb(t)
	cases := []struct{ site, url, reason string }{
		{"nede.test", "https://nede.test/", evidence.ReasonRobotsUnavailable},
		{"stengt.test", "https://stengt.test/", evidence.ReasonRobotsUnavailable},
		{"app.test", "https://app.test/", evidence.ReasonNeedsJavaScript},
	}
	for _, c := range cases {
		g := gapFor(r.sites[c.site], c.url)
		if g == nil || g.Reason != c.reason {
			t.Errorf("%s: gap %+v, want %s", c.url, g, c.reason)
		}
	}
	if o := r.sites["nede.test"].Robots; o.Outcome != "not-read" || o.Status != 503 {
		t.Errorf("nede.test robots %+v", o)
	}
	if o := r.sites["stengt.test"].Robots; o.Outcome != "not-read" || o.Status != 403 {
		t.Errorf("stengt.test robots %+v", o)
	}
	if o := r.sites["butikk.test"].Robots; o.Outcome != "none" || o.Status != 404 {
		t.Errorf("butikk.test robots %+v", o)
	}
	if d := docFor(r.sites["butikk.test"], "https://butikk.test/kjopsbetingelser.pdf"); d == nil || d.Chars == 0 {
		t.Errorf("the PDF terms were not read as text: %+v", d)
	}
	if d := docFor(r.sites["register.test"], "https://register.test/om/datadeling"); d == nil || d.FoundVia != "approved" {
		t.Errorf("approved address not read: %+v", d)
	}
	if d := docFor(r.sites["kommune.test"], "https://kommune.test/.well-known/security.txt"); d == nil || d.FoundVia != "well-known" {
		t.Errorf("security.txt not read: %+v", d)
	}
	if !slices.Contains(r.sites["avis.test"].NotPublished, "https://avis.test/llms.txt") {
		t.Errorf("avis.test llms.txt should be 'not published': %v", r.sites["avis.test"].NotPublished)
	}
}

func TestBuildOutput(t *testing.T) {
	r := crawlFixtureWeb(t)
	for _, p := range []string{"index.html", "sites.json", "about/index.html", "style.css", "404.html"} {
		if _, err := os.Stat(filepath.Join(r.public, p)); err != nil {
			t.Error(err)
		}
	}
	page, err := os.ReadFile(filepath.Join(r.public, "sites", "kommune.test", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Not read by us", "robots.txt", "https://kommune.test/vilkar", "mailto:"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("kommune.test page lacks %q", want)
		}
	}
}

func TestMinDelayBelowFloorRefusedOffLoopback(t *testing.T) {
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	for _, resolve := range []map[string]string{
		{"kommune.test": "10.0.0.1:80"},
		nil, // DNS: never loopback-only
	} {
		_, err := crawl.New(crawl.Config{MinDelay: 100 * time.Millisecond, Resolve: resolve,
			Client: guard.NewClient(guard.Options{Resolve: resolve})}, list, []string{"kommune.test"})
		if err == nil || !strings.Contains(err.Error(), "-min-delay") {
			t.Errorf("resolve %v with -min-delay 100ms: err = %v, want a refusal naming -min-delay", resolve, err)
		}
	}
	if _, err := crawl.New(crawl.Config{Resolve: map[string]string{"unknown.test": "127.0.0.1:1"},
		Client: guard.NewClient(guard.Options{})}, list, nil); err == nil {
		t.Error("-resolve of a host that is not reviewed was accepted")
	}
}

func docFor(s *signals.Site, u string) *signals.Document {
	for i := range s.Read {
		if s.Read[i].URL == u {
			return &s.Read[i]
		}
	}
	return nil
}

func gapFor(s *signals.Site, u string) *signals.Gap {
	for i := range s.NotRead {
		if s.NotRead[i].URL == u {
			return &s.NotRead[i]
		}
	}
	return nil
}

func urls(docs []signals.Document) []string {
	var out []string
	for _, d := range docs {
		out = append(out, d.URL)
	}
	return out
}

func TestBuildIsDeterministic(t *testing.T) {
	r := crawlFixtureWeb(t)
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(t.TempDir(), "public")
	all, err := derived.Build(context.Background(), list, r.batches, derived.Options{Content: crawlsignals.Content()})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := render.New()
	if err != nil {
		t.Fatal(err)
	}
	if err := rd.Build(context.Background(), again, render.Input{Sites: all, Content: crawlsignals.Content(), Contact: list.Global.Contact}); err != nil {
		t.Fatal(err)
	}
	n := 0
	err = filepath.WalkDir(r.public, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(r.public, p)
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join(again, rel))
		if err != nil {
			t.Errorf("%s missing from the second build", rel)
			return nil
		}
		if string(a) != string(b) {
			t.Errorf("%s differs between two builds of the same evidence", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Errorf("only %d files compared", n)
	}
}

func TestCuratedQuotesAndOverride(t *testing.T) {
	r := crawlFixtureWeb(t)
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	good := "Automatisert innsamling av innhold fra nettstedet er ikke tillatt uten skriftlig samtykke."
	bad := "Automatisk innsamling av innhold fra nettstedet er ikke tillatt uten skriftlig samtykke."
	content := fstest.MapFS{
		"sites/kommune.test.md": {Data: []byte("+++\n[[quote]]\nurl = \"https://kommune.test/vilkar\"\ntext = \"" + good +
			"\"\ntopic = \"scraping\"\n\n[[quote]]\nurl = \"https://kommune.test/vilkar\"\ntext = \"" + bad + "\"\n+++\nNotes.\n")},
		"sites/avis.test.md": {Data: []byte("+++\n[open_by_design]\nverdict = true\nreason = \"The archive API is described in a signed agreement.\"\n+++\n")},
	}
	all, err := derived.Build(context.Background(), list, r.batches, derived.Options{Content: content})
	if err != nil {
		t.Fatal(err)
	}
	byHost := map[string]*signals.Site{}
	for _, s := range all {
		byHost[s.Host] = s
	}
	var curated []signals.Quote
	for _, q := range byHost["kommune.test"].Quotes {
		if q.Source == "curated" {
			curated = append(curated, q)
		}
	}
	if len(curated) != 2 {
		t.Fatalf("curated quotes: %+v", curated)
	}
	if !curated[0].Verified || curated[0].Line != 2 || curated[0].File != "content/sites/kommune.test.md" {
		t.Errorf("good quote: %+v", curated[0])
	}
	if q := curated[1]; q.Verified || q.Line != 7 || !strings.Contains(q.Closest, "Automatisert innsamling") || q.Problem == "" {
		t.Errorf("bad quote: %+v", q)
	}
	o := byHost["avis.test"].OpenByDesign
	if !o.IsOpen() || !o.Overridden || !strings.Contains(o.Why, "signed agreement") || o.Formula == "" {
		t.Errorf("override: %+v", o)
	}
	// The page says what the formula said, one sentence, one full stop.
	rd, err := render.New()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if err := rd.Build(context.Background(), out, render.Input{Sites: all, Content: content}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "sites", "avis.test", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(page, []byte(`<p class="note">A curator overruled the formula`))
	if i < 0 {
		t.Fatal("avis.test: the page does not say a curator overruled the formula")
	}
	note := string(page[i : i+bytes.Index(page[i:], []byte("</p>"))])
	if !strings.Contains(note, ", which says: "+strings.TrimSuffix(o.Formula, ".")+". The reason given") || strings.Contains(note, "..") {
		t.Errorf("avis.test: the override note reads %q", note)
	}
}

// TestSignalsOfFixtureSites checks each site of issue 6's acceptance list:
// its verdict, the quotes behind it, and its machine-readable signals.
func TestSignalsOfFixtureSites(t *testing.T) {
	r := crawlFixtureWeb(t)
	verdicts := []struct {
		host string
		open bool
		why  string // substring of the verdict's reason
	}{
		{"kommune.test", true, "both quoted"},  // NLOD and an API page
		{"register.test", true, "both quoted"}, // CC BY 4.0 and an API with a free key
		{"feed.test", true, "both quoted"},     // CC BY 4.0 and a feed
		{"buss.test", false, "API found, licence not stated"},
		{"kart.test", false, "Licence stated, no official API found"},
		{"avis.test", false, "Neither"},
	}
	for _, v := range verdicts {
		o := r.sites[v.host].OpenByDesign
		if o.Verdict == nil || *o.Verdict != v.open || !strings.Contains(o.Why, v.why) {
			t.Errorf("%s: open by design %v (%s), want %v (%s)", v.host, o.Verdict, o.Why, v.open, v.why)
		}
		for _, q := range []*signals.Quote{o.API, o.Licence} {
			if q != nil && (!q.Verified || q.URL == "" || q.ReadAt == "") {
				t.Errorf("%s: verdict quote %+v", v.host, q)
			}
		}
	}
	if q := r.sites["kommune.test"].OpenByDesign.Licence; q == nil || !strings.Contains(q.Text, "NLOD") {
		t.Errorf("kommune.test licence quote: %+v", q)
	}
	if q := r.sites["feed.test"].OpenByDesign.API; q == nil || !strings.Contains(q.Text, "RSS-feed") {
		t.Errorf("feed.test feed quote: %+v", q)
	}
	if q := r.sites["buss.test"].OpenByDesign.API; q == nil || !strings.Contains(q.Text, "gratis API-nøkkel") {
		t.Errorf("buss.test API quote: %+v", q)
	}
	licences := func(host string) []string {
		var out []string
		for _, l := range r.sites[host].Licences {
			out = append(out, l.Name)
		}
		return out
	}
	for host, want := range map[string]string{"kommune.test": "NLOD 2.0", "register.test": "CC BY 4.0", "feed.test": "CC BY 4.0", "kart.test": "CC BY 4.0"} {
		if !slices.Contains(licences(host), want) {
			t.Errorf("%s licences %v, want %s", host, licences(host), want)
		}
	}
	if l := licences("buss.test"); len(l) != 0 {
		t.Errorf("buss.test states no licence, found %v", l)
	}

	// API evidence with its access terms, and how the page was reached.
	access := func(host string) map[string]bool {
		out := map[string]bool{}
		for _, a := range r.sites[host].APIs {
			out[a.Access+"/"+a.Via] = true
		}
		return out
	}
	if a := access("buss.test"); !a["free-key/link"] {
		t.Errorf("buss.test APIs: %+v", r.sites["buss.test"].APIs)
	}
	if a := access("feed.test"); !a["open/link"] {
		t.Errorf("feed.test APIs: %+v", r.sites["feed.test"].APIs)
	}
	if a := r.sites["kart.test"].APIs; len(a) != 0 {
		t.Errorf("kart.test describes no API, found %+v", a)
	}

	// TDM reservations: by file (kart.test) and by header (buss.test).
	if tdm := r.sites["kart.test"].Signals.TDMReservation; tdm == nil || tdm.Source != "well-known" || !tdm.Reservation || tdm.Policy == "" {
		t.Errorf("kart.test TDM: %+v", tdm)
	}
	if tdm := r.sites["buss.test"].Signals.TDMReservation; tdm == nil || tdm.Source != "header" || !tdm.Reservation {
		t.Errorf("buss.test TDM: %+v", tdm)
	}
	if !hasContradiction(r.sites["buss.test"], "tdm-reservation-without-policy") {
		t.Errorf("buss.test: reservation without policy not flagged: %+v", r.sites["buss.test"].Contradictions)
	}
	// Content-Signal ai-train=no, read inside its group.
	cs := r.sites["feed.test"].Robots.ContentSignals
	if len(cs) != 1 || cs[0].Values["ai-train"] != "no" || !slices.Equal(cs[0].Agents, []string{"*"}) {
		t.Errorf("feed.test Content-Signal: %+v", cs)
	}
	// noai in the robots meta.
	found := false
	for _, h := range r.sites["kart.test"].Signals.Headers {
		found = found || (h.Source == "meta" && h.Name == "robots" && strings.Contains(h.Value, "noai"))
	}
	if !found {
		t.Errorf("kart.test robots meta noai not found: %+v", r.sites["kart.test"].Signals.Headers)
	}
	// security.txt: valid on kommune.test, expired on register.test.
	if st := r.sites["kommune.test"].Signals.SecurityTxt; st == nil || st.Expired || len(st.Contact) == 0 {
		t.Errorf("kommune.test security.txt: %+v", st)
	}
	// Each signal names the stored response it came from.
	if st := r.sites["kommune.test"].Signals.SecurityTxt; st == nil || !strings.HasPrefix(st.Record, "urn:uuid:") {
		t.Errorf("security.txt record: %+v", st)
	}
	if tdm := r.sites["kart.test"].Signals.TDMReservation; tdm == nil || tdm.Record == "" {
		t.Errorf("kart.test TDM record: %+v", tdm)
	}
	for _, d := range r.sites["kommune.test"].Read {
		if d.Record == "" {
			t.Errorf("%s: no record", d.URL)
		}
	}
	if st := r.sites["register.test"].Signals.SecurityTxt; st == nil || !st.Expired {
		t.Errorf("register.test security.txt should be expired: %+v", st)
	}
	if l := r.sites["kommune.test"].Signals.LLMsTxt; l == nil || l.Title == "" || len(l.Links) == 0 {
		t.Errorf("kommune.test llms.txt: %+v", l)
	}
	// Terms forbid scraping while robots.txt lets AI crawlers in.
	if !hasContradiction(r.sites["kommune.test"], "robots-allows-terms-objects") {
		t.Errorf("kommune.test: terms forbid scraping, robots allows all: not flagged: %+v", r.sites["kommune.test"].Contradictions)
	}
}

func hasContradiction(s *signals.Site, kind string) bool {
	for _, c := range s.Contradictions {
		if c.Kind == kind {
			return true
		}
	}
	return false
}
