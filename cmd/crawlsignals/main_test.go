package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestExitStatuses(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "sites.toml")
	os.WriteFile(bad, []byte("[[site]]\nname = \"A\"\nurll = \"https://a.no/\"\n"), 0o644)
	group := filepath.Join(dir, "group.toml")
	os.WriteFile(group, []byte("[[site]]\nname = \"N\"\nurl = \"https://nord.test/\"\nhosts = [\"nord.test\", \"info.fjordmedia.test\"]\n\n[[site]]\nname = \"S\"\nurl = \"https://sor.test/\"\nhosts = [\"sor.test\", \"info.fjordmedia.test\"]\n"), 0o644)
	cases := []struct {
		args []string
		code int
		want string // in stderr
	}{
		{nil, exitUsage, ""},
		{[]string{"nosuch"}, exitUsage, `unknown command "nosuch"`},
		{[]string{"crawl", "-nosuchflag"}, exitUsage, "flag provided but not defined"},
		{[]string{"crawl", "-sites", bad}, exitUsage, bad + ":3: unknown key \"urll\""},
		{[]string{"crawl", "-sites", "../../testdata/demo/sites.toml", "-resolve", "kommune.test=10.0.0.1:80", "-min-delay", "100ms", "-site", "kommune.test"}, exitUsage, "-min-delay"},
		{[]string{"crawl", "-sites", "../../testdata/demo/sites.toml", "-min-delay", "100ms"}, exitUsage, "loopback"},
		{[]string{"crawl", "-sites", "../../testdata/demo/sites.toml", "-resolve", "nope"}, exitUsage, "HOST=IP:PORT"},
		{[]string{"recheck", "-sites", "../../testdata/demo/sites.toml", "stopp.test"}, exitFailed, "stopp.test asked us to stop on 2026-11-15"},
		{[]string{"recheck", "-sites", "../../testdata/demo/sites.toml", "nosuch.test"}, exitUsage, "not in"},
		{[]string{"recheck", "-sites", "../../testdata/demo/sites.toml"}, exitUsage, "name the site"},
		// A host shared by several sites names no one site to re-check.
		{[]string{"recheck", "-sites", group, "info.fjordmedia.test"}, exitUsage, "reviewed for several sites (nord.test, sor.test)"},
		{[]string{"crawl", "-sites", "../../testdata/demo/sites.toml", "-ca", "x.pem", "-site", "kommune.test"}, exitUsage, "-ca is for the fixture web only"},
		{[]string{"serve", "-dir", filepath.Join(dir, "absent")}, exitFailed, "run crawlsignals build first"},
		// Nothing answers (port 1 refuses): the batch is written, the exit says it is worthless.
		{[]string{"crawl", "-sites", "../../testdata/demo/sites.toml", "-batches", filepath.Join(dir, "b"), "-site", "kommune.test", "-resolve", "kommune.test=127.0.0.1:1"}, exitFailed, "no site answered"},
	}
	for _, c := range cases {
		code, _, stderr := runCmd(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("crawlsignals %v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	code, out, _ := runCmd(t, "help")
	if code != exitOK {
		t.Fatalf("help: exit %d", code)
	}
	for _, c := range commands() {
		if !strings.Contains(out, c.name) {
			t.Errorf("help does not list %s", c.name)
		}
	}
}

func TestDemoEndToEnd(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "public")
	code, stdout, stderr := runCmd(t, "demo", "-out", out, "-batches", filepath.Join(dir, "batches"), "-content", "../../content")
	if code != exitOK {
		t.Fatalf("demo: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"kommune.test", "read,", "built ", "demo done", "requests to sites that asked us to stop: 0\n",
		"2 batches, the web changes between them", "avis.test     a crawler newly refused: CCBot: allowed → disallowed",
		"feed.test     a purpose newly refused: AI answers: No objection found → Refused (Content-Signal: search=yes, ai-train=no, ai-input=no (for *))",
		"kommune.test  a sentence of the terms changed: kommune.test/vilkar", "butikk.test   unchanged",
		" serve -dir " + out + "\n", "http://127.0.0.1:8080/changes/"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("demo output lacks %q:\n%s", want, stdout)
		}
	}
	// verify passes on the demo, then names a curated quote that does not verify.
	if code, stdout, stderr := runCmd(t, "verify", "-sites", "../../testdata/demo/sites.toml", "-batches", filepath.Join(dir, "batches"), "-content", filepath.Join(dir, "none")); code != exitOK {
		t.Errorf("verify on the demo: exit %d\n%s%s", code, stdout, stderr)
	}
	content := filepath.Join(dir, "content")
	os.MkdirAll(filepath.Join(content, "sites"), 0o755)
	os.WriteFile(filepath.Join(content, "sites", "register.test.md"), []byte("+++\n# curated\n[[quote]]\nurl = \"https://register.test/lisens\"\ntext = \"Alle data er lisensiert under CC BY 3.0.\"\n+++\n"), 0o644)
	code, _, stderr = runCmd(t, "verify", "-sites", "../../testdata/demo/sites.toml", "-batches", filepath.Join(dir, "batches"), "-content", content)
	if code != exitFailed || !strings.Contains(stderr, "content/sites/register.test.md:3:") || !strings.Contains(stderr, "closest text found") {
		t.Errorf("verify with a bad curated quote: exit %d\n%s", code, stderr)
	}
	// A curation file that does not load is named with its line; the
	// evidence, which is whole, is not blamed.
	os.WriteFile(filepath.Join(content, "sites", "register.test.md"), []byte("+++\n# curated\n[[quote]]\nurl = \"https://register.test/lisens\"\n+++\n"), 0o644)
	code, _, stderr = runCmd(t, "build", "-sites", "../../testdata/demo/sites.toml", "-batches", filepath.Join(dir, "batches"), "-content", content, "-out", filepath.Join(dir, "cur"))
	if code != exitFailed || !strings.Contains(stderr, "a curation file could not be read: content/sites/register.test.md:3: a quote needs url and text") || strings.Contains(stderr, "evidence") {
		t.Errorf("build with a curation file that does not load: exit %d\n%s", code, stderr)
	}
	// The PDF terms were read through the child process.
	data, err := os.ReadFile(filepath.Join(out, "sites", "butikk.test", "signals.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"content_type":"application/pdf"`) || strings.Contains(string(data), `"text_error"`) {
		t.Errorf("butikk.test PDF not read through the child:\n%s", data)
	}
	// The crawl kept the text it took of the PDF for the build, in each
	// batch's derived files (the build took it from there).
	if kept, _ := filepath.Glob(filepath.Join(dir, "batches", "*", ".derived", "pdf", "*.json")); len(kept) != 2 {
		t.Errorf("PDF texts kept by the crawl: %v, want one in each of the 2 batches", kept)
	}
	// The visible text of each read page is saved beside its evidence,
	// PDFs included (through the child process).
	for site, want := range map[string]string{
		"butikk.test":  "Alle priser er oppgitt i norske kroner inkludert merverdiavgift.",
		"kommune.test": "Automatisert innsamling av innhold fra nettstedet er ikke tillatt uten skriftlig samtykke.",
	} {
		files, _ := filepath.Glob(filepath.Join(dir, "batches", "*", site+".text.jsonl"))
		if len(files) != 2 { // one per batch of the demo
			t.Errorf("%s: saved texts %v", site, files)
			continue
		}
		data, _ := os.ReadFile(files[0])
		if !strings.Contains(string(data), want) {
			t.Errorf("%s: saved text lacks %q", site, want)
		}
	}
	// evidence verify passes, then names the file after one byte is damaged.
	batches := filepath.Join(dir, "batches")
	if code, stdout, stderr := runCmd(t, "evidence", "verify", "-batches", batches); code != exitOK || !strings.Contains(stdout, "0 problems") {
		t.Errorf("evidence verify: exit %d\n%s%s", code, stdout, stderr)
	}
	names, _ := filepath.Glob(filepath.Join(batches, "*", "kommune.test.warc.gz"))
	if len(names) != 2 {
		t.Fatalf("WARC files: %v", names)
	}
	warc, _ := os.ReadFile(names[0])
	warc[len(warc)/2] ^= 0x01
	os.WriteFile(names[0], warc, 0o644)
	if code, _, stderr := runCmd(t, "evidence", "verify", "-batches", batches); code != exitFailed || !strings.Contains(stderr, "kommune.test.warc.gz") {
		t.Errorf("evidence verify after damage: exit %d\n%s", code, stderr)
	}
	hosts := []string{"kommune.test", "avis.test", "nede.test", "stengt.test", "butikk.test", "app.test", "register.test", "stopp.test"}
	for _, h := range hosts {
		for _, f := range []string{"index.html", "signals.json"} {
			if _, err := os.Stat(filepath.Join(out, "sites", h, f)); err != nil {
				t.Error(err)
			}
		}
	}
}
