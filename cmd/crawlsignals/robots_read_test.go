package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runRobotsCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := robotsCommand(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

const cmdFile = "User-agent: *\nDisallow: /private\nCrawl-delay: 3\n\nUser-agent: GPTBot\nDisallow: /\n# Scraping is prohibited.\nSitemap: https://e.test/sitemap.xml\n"

func TestCommandURLs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(path, []byte(cmdFile), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runRobotsCmd(t, "", path, "https://e.test/", "https://e.test/private/x", "https://e.test/robots.txt")
	want := "allowed\thttps://e.test/\t0\ndisallowed\thttps://e.test/private/x\t2\nallowed\thttps://e.test/robots.txt\t0\n"
	if code != 0 || out != want || errs != "" {
		t.Errorf("code %d\n%s\nstderr %s", code, out, errs)
	}
	code, out, _ = runRobotsCmd(t, cmdFile, "-agent", "GPTBot", "-", "https://e.test/")
	if code != 0 || out != "disallowed\thttps://e.test/\t6\n" {
		t.Errorf("stdin, GPTBot: %d %q", code, out)
	}
	code, out, _ = runRobotsCmd(t, cmdFile, "-agent", "GPTBot/1.2 (+https://openai.com/gptbot)", "-", "https://e.test/")
	if code != 0 || out != "disallowed\thttps://e.test/\t6\n" {
		t.Errorf("full user agent: %d %q", code, out)
	}
	// The status decides before the body does, as RFC 9309 §2.3.1 reads
	// it: 4xx unavailable (allowed), 5xx and no answer unreachable
	// (disallowed); LINE names which.
	for status, want := range map[string]string{"404": "allowed\thttps://e.test/private/x\tunavailable", "410": "allowed\thttps://e.test/private/x\tunavailable", "403": "allowed\thttps://e.test/private/x\tunavailable", "503": "disallowed\thttps://e.test/private/x\tunreachable", "0": "disallowed\thttps://e.test/private/x\tunreachable"} {
		code, out, _ = runRobotsCmd(t, cmdFile, "-status", status, "-", "https://e.test/private/x")
		if code != 0 || out != want+"\n" {
			t.Errorf("status %s: %d %q", status, code, out)
		}
	}
}

func TestCommandReading(t *testing.T) {
	code, out, _ := runRobotsCmd(t, cmdFile, "-")
	if code != 0 {
		t.Fatalf("code %d", code)
	}
	for _, want := range []string{
		"status 200 (rules)",
		"1. lines 1-3: *",
		"disallowed, for example: /private",
		"Crawl-delay: 3 s (line 3)",
		"2. lines 5-6: GPTBot",
		"crawlsignals follows: star (group 1); Crawl-delay 3 s (line 3)",
		"https://e.test/sitemap.xml",
		"line 7: Scraping is prohibited.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("reading lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "GPTBot") || !strings.Contains(out, "disallowed  6") {
		t.Errorf("agents table:\n%s", out)
	}
	_, out, _ = runRobotsCmd(t, "<!DOCTYPE html><html><body>Not found</body></html>", "-")
	if !strings.Contains(out, "looks like an HTML page") {
		t.Errorf("HTML not noted:\n%s", out)
	}
	_, out, _ = runRobotsCmd(t, cmdFile, "-status", "500", "-")
	if !strings.Contains(out, "server error") {
		t.Errorf("status 500:\n%s", out)
	}
}

func TestCommandUsage(t *testing.T) {
	for name, args := range map[string][]string{
		"no file":      {},
		"unknown flag": {"-colour", "red", "-"},
		"bad status":   {"-status", "abc", "-"},
		"out of range": {"-status", "1000", "-"},
		"empty agent":  {"-agent", "", "-"},
	} {
		if code, _, errs := runRobotsCmd(t, "", args...); code != 2 || errs == "" {
			t.Errorf("%s: code %d, stderr %q", name, code, errs)
		}
	}
	if code, _, errs := runRobotsCmd(t, "", filepath.Join(t.TempDir(), "missing.txt"), "https://e.test/"); code != 1 || errs == "" {
		t.Errorf("missing file: code %d %q", code, errs)
	}
	if code, _, _ := runRobotsCmd(t, "", "-h"); code != 0 {
		t.Errorf("-h: code %d", code)
	}
}
