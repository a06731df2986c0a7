package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/crawl"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/sites"
)

const demoSites = "../../testdata/demo/sites.toml"

// "crawlsignals version" (and -version, --version) names the build in one
// line: the Go release and the deriving code's key among it.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, stderr := runCmd(t, args...)
		if code != exitOK {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
			continue
		}
		if strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "crawlsignals ") {
			t.Errorf("%v: %q, want one line starting with the program's name", args, out)
		}
		if !strings.Contains(out, runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH) {
			t.Errorf("%v: %q does not name the Go release %s", args, out, runtime.Version())
		}
		if cv := derived.CodeVersion(); cv != "" && !strings.Contains(out, ", deriving code "+cv) {
			t.Errorf("%v: %q does not name the deriving code %s", args, out, cv)
		}
	}
	if code, _, stderr := runCmd(t, "version", "extra"); code != exitUsage || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("version extra: exit %d, %q", code, stderr)
	}
	code, out, _ := runCmd(t, "help")
	if code != exitOK || !strings.Contains(out, "  version ") {
		t.Errorf("help does not list version:\n%s", out)
	}
}

func TestVersionLine(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	const rev = "e3ceb6a0be04d6459e2976cd15c1d931cf03752f"
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		code string
		want string
	}{
		{"a checkout with changes",
			&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261205200907-e3ceb6a0be04+dirty"},
				Settings: vcs("vcs", "git", "vcs.revision", rev, "vcs.time", "2026-12-05T20:09:07Z", "vcs.modified", "true")},
			"abc123",
			"crawlsignals v0.0.0-20261205200907-e3ceb6a0be04+dirty, revision " + rev + "+dirty (2026-12-05T20:09:07Z), go1.99 linux/amd64, deriving code abc123"},
		{"a clean checkout",
			&debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
				Settings: vcs("vcs.revision", rev, "vcs.modified", "false")},
			"abc123",
			"crawlsignals (devel), revision " + rev + ", go1.99 linux/amd64, deriving code abc123"},
		{"a release (go install …@v1.2.3)",
			&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}},
			"abc123",
			"crawlsignals v1.2.3, go1.99 linux/amd64, deriving code abc123"},
		{"no version control",
			&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			"abc123",
			"crawlsignals (devel), no revision recorded (built outside a checkout, or with -buildvcs=false), go1.99 linux/amd64, deriving code abc123"},
		{"no build information",
			nil, "",
			"crawlsignals (devel), no revision recorded (built outside a checkout, or with -buildvcs=false), go1.99 linux/amd64, deriving code unknown (the build information does not name the deriving code; derived files are neither read nor kept)"},
	}
	for _, tt := range tests {
		if got := versionLine(tt.bi, "go1.99", "linux/amd64", tt.code); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

// A binary built from a checkout names the commit it was built from.
func TestVersionOfABuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	head, err := exec.Command(git, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not a git checkout")
	}
	bin := filepath.Join(t.TempDir(), "crawlsignals")
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Skipf("go build -buildvcs=true: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	rev := strings.TrimSpace(string(head))
	if !regexp.MustCompile(`^crawlsignals \S+, revision ` + rev + `(\+dirty)? \(\d{4}-\d\d-\d\dT[0-9:]+Z\), go`).Match(out) {
		t.Errorf("version: %q, want the revision %s and its time", out, rev)
	}
}

// connCounter is a loopback listener that counts the connections made to it
// and closes them at once.
type connCounter struct {
	ln net.Listener
	n  atomic.Int64
}

func listenCounting(t *testing.T) *connCounter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &connCounter{ln: ln}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.n.Add(1)
			conn.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return c
}

// crawl -plan prints what the crawl would ask for first, site by site, with
// each host's delay and the sites it skips, and sends nothing: with every
// host mapped to a listener of the test's, not one connection reaches it,
// and no batch folder is made.
func TestCrawlPlan(t *testing.T) {
	list, err := sites.Load(demoSites)
	if err != nil {
		t.Fatal(err)
	}
	ln := listenCounting(t)
	batches := filepath.Join(t.TempDir(), "batches")
	args := []string{"crawl", "-plan", "-sites", demoSites, "-batches", batches, "-min-delay", "100ms"}
	for _, s := range list.Sites {
		for _, h := range s.Hosts {
			args = append(args, "-resolve", h+"="+ln.ln.Addr().String())
		}
	}
	code, out, stderr := runCmd(t, args...)
	if code != exitOK {
		t.Fatalf("crawl -plan: exit %d\n%s%s", code, out, stderr)
	}
	time.Sleep(50 * time.Millisecond) // a connection made would be counted by now
	if n := ln.n.Load(); n != 0 {
		t.Errorf("crawl -plan made %d connections", n)
	}
	if _, err := os.Stat(batches); !os.IsNotExist(err) {
		t.Errorf("crawl -plan wrote %s (%v)", batches, err)
	}
	for _, want := range []string{
		"21 sites of " + demoSites + "; 20 to crawl, 1 skipped. Nothing was sent",
		"\nkommune.test  Eksempel kommune (" + demoSites + ":5)\n",
		"  host data.kommune.test  100ms apart or more (-min-delay, allowed because every host is mapped to loopback), dialled at " + ln.ln.Addr().String() + " (-resolve, loopback)\n",
		"    1. robots.txt  https://kommune.test/robots.txt\n    2. home page   https://kommune.test/\n",
		"\nskipped, no request of any kind is sent:\n  stopp.test  Stoppet AS (" + demoSites + ":55): asked us to stop on 2026-11-15 (blocked)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "https://stopp.test/") {
		t.Errorf("the plan asks a blocked site for something:\n%s", out)
	}
	// Every site's requests are printed in the order the crawler asks for
	// them (crawl.FirstRequests, which the crawl package's tests hold to
	// the crawler).
	for _, s := range list.Sites {
		var want []string
		for _, p := range crawl.FirstRequests(&s) {
			want = append(want, p.URL)
		}
		if got := printedRequests(out, s.Host); !slices.Equal(got, want) {
			t.Errorf("%s: printed %q, want %q", s.Host, got, want)
		}
	}

	// Without -resolve: the floor, and a name looked up only when the
	// crawl runs.
	code, out, stderr = runCmd(t, "crawl", "-plan", "-sites", demoSites, "-site", "register.test")
	if code != exitOK {
		t.Fatalf("crawl -plan -site register.test: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"1 of 21 sites (-site, -shard)", "  host register.test  2s apart or more (the floor), found through DNS when the crawl runs\n", "approved    https://register.test/om/datadeling\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
}

// printedRequests is the numbered addresses the plan prints for site.
func printedRequests(out, site string) []string {
	var urls []string
	in := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, site+"  "):
			in = true
		case line == "" || !strings.HasPrefix(line, " "):
			in = false
		case in:
			if f := strings.Fields(line); len(f) >= 3 && strings.HasSuffix(f[0], ".") {
				urls = append(urls, f[len(f)-1])
			}
		}
	}
	return urls
}

// -plan refuses what the crawl would refuse, and says a resumed batch is
// not what it shows.
func TestCrawlPlanRefusals(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"crawl", "-plan", "-sites", demoSites, "-min-delay", "100ms"}, "below the 2s floor"},
		{[]string{"crawl", "-plan", "-sites", demoSites, "-resume", "20261201T060000Z"}, "-plan shows a new batch"},
		{[]string{"crawl", "-plan", "-sites", demoSites, "-site", "nosuch.test"}, "not in"},
		{[]string{"crawl", "-plan", "-sites", demoSites, "-resolve", "nosuch.test=127.0.0.1:1"}, "not a reviewed host"},
	}
	for _, c := range cases {
		code, out, stderr := runCmd(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, stderr, c.want)
		}
	}
}

// fixture without -sites maps the demo list's hosts, the ones the fixture
// web serves, not the real list's.
func TestFixtureDefaultsToTheDemoList(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	done := make(chan int)
	go func() { done <- run(ctx, []string{"fixture", "-dir", dir}, strings.NewReader(""), &out, &errb) }()
	var flags []byte
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var err error
		if flags, err = os.ReadFile(filepath.Join(dir, "crawl-flags")); err == nil {
			break
		}
		select {
		case code := <-done:
			t.Fatalf("fixture ended with exit %d before writing its flags\n%s%s", code, out.String(), errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("no crawl-flags after 30 s")
		}
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("fixture: exit %d\n%s", code, errb.String())
	}
	demo, err := sites.Parse("demo", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, s := range demo.Sites {
		want = append(want, s.Hosts...)
	}
	var mapped []string
	lines := strings.Split(strings.TrimSpace(string(flags)), "\n")
	for i, l := range lines {
		if l == "-resolve" && i+1 < len(lines) {
			host, _, _ := strings.Cut(lines[i+1], "=")
			mapped = append(mapped, host)
		}
	}
	if !slices.Equal(mapped, want) {
		t.Errorf("fixture maps %q, want the demo list's hosts %q", mapped, want)
	}
	if !strings.Contains(out.String(), "flags for the hosts of testdata/demo/sites.toml") || errb.Len() != 0 {
		t.Errorf("fixture said:\n%s%s", out.String(), errb.String())
	}
}

// recheck takes its flags before and after the host.
func TestRecheckFlagsAroundTheHost(t *testing.T) {
	// stopp.test is blocked: reaching that refusal shows the flags were
	// read (the list is the demo's), and nothing is sent.
	for _, args := range [][]string{
		{"recheck", "stopp.test", "-sites", demoSites},
		{"recheck", "-sites", demoSites, "stopp.test"},
		{"recheck", "-min-delay", "3s", "stopp.test", "-sites", demoSites},
		{"recheck", "-sites", demoSites, "stopp.test", "-min-delay", "3s", "-content", "x"},
		{"recheck", "-sites", demoSites, "--", "stopp.test"},
	} {
		code, _, stderr := runCmd(t, args...)
		if code != exitFailed || !strings.Contains(stderr, "stopp.test asked us to stop on 2026-11-15") {
			t.Errorf("%v: exit %d, %q; want the refusal of the blocked site", args, code, stderr)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"recheck", "-sites", demoSites, "stopp.test", "avis.test"}, "one host at a time (got stopp.test, avis.test)"},
		{[]string{"recheck", "stopp.test", "-sites", demoSites, "avis.test"}, "one host at a time (got stopp.test, avis.test)"},
		{[]string{"recheck", "stopp.test", "-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"recheck", "-sites", demoSites}, "name the site to re-check"},
	} {
		if code, _, stderr := runCmd(t, c.args...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
