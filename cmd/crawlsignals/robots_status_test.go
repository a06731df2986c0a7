package main

import (
	"strings"
	"testing"
)

// TestCommandStatusAsRFC9309: the verdict for a URL is what RFC 9309 §2.3.1
// tells the agent named, for every status: 2xx, the file's rules for that
// agent; 4xx ("unavailable", §2.3.1.3), the crawler MAY access any
// resource, whatever the body says; 5xx or no answer ("unreachable",
// §2.3.1.4), it MUST assume complete disallow. Our crawler's stricter rule
// (it reads nothing else on the host) is a note on standard error labelled
// as ours, never the verdict.
func TestCommandStatusAsRFC9309(t *testing.T) {
	const root, private = "https://e.test/", "https://e.test/private/x"
	// GPTBot has its own group (Disallow: / on line 6); CCBot has none and
	// follows the * group (Disallow: /private on line 2).
	type answer struct{ root, private string }
	rules := map[string]answer{
		"GPTBot": {"disallowed\t" + root + "\t6\n", "disallowed\t" + private + "\t6\n"},
		"CCBot":  {"allowed\t" + root + "\t0\n", "disallowed\t" + private + "\t2\n"},
	}
	unavailable := answer{"allowed\t" + root + "\tunavailable\n", "allowed\t" + private + "\tunavailable\n"}
	unreachable := answer{"disallowed\t" + root + "\tunreachable\n", "disallowed\t" + private + "\tunreachable\n"}
	cases := []struct {
		status string
		want   func(agent string) answer
		rfc    string // on standard error: what RFC 9309 says
		ours   bool   // a note on our crawler's stricter rule
	}{
		{"200", func(a string) answer { return rules[a] }, "", false},
		{"404", func(string) answer { return unavailable }, "MAY access any resource", false},
		{"410", func(string) answer { return unavailable }, "MAY access any resource", false},
		{"403", func(string) answer { return unavailable }, "MAY access any resource", true},
		{"401", func(string) answer { return unavailable }, "MAY access any resource", true},
		{"429", func(string) answer { return unavailable }, "no exception for 429", true},
		{"451", func(string) answer { return unavailable }, "MAY access any resource", true},
		{"500", func(string) answer { return unreachable }, "MUST assume complete disallow", true},
		{"503", func(string) answer { return unreachable }, "30 days", true},
		{"0", func(string) answer { return unreachable }, "MUST assume complete disallow", true},
		// A redirect that did not lead to a file: §2.3.1.2 lets a crawler
		// assume unavailable. A status that is no HTTP answer: unreachable.
		{"301", func(string) answer { return unavailable }, "MAY access any resource", true},
		{"102", func(string) answer { return unreachable }, "MUST assume complete disallow", true},
		{"600", func(string) answer { return unreachable }, "MUST assume complete disallow", true},
	}
	for _, c := range cases {
		for _, agent := range []string{"GPTBot", "CCBot"} {
			code, out, errs := runRobotsCmd(t, cmdFile, "-agent", agent, "-status", c.status, "-", root, private)
			w := c.want(agent)
			if code != 0 || out != w.root+w.private {
				t.Errorf("-agent %s -status %s: exit %d, stdout\n%s\nwant\n%s", agent, c.status, code, out, w.root+w.private)
			}
			if c.rfc != "" && !strings.Contains(errs, c.rfc) {
				t.Errorf("-agent %s -status %s: standard error does not say %q: %q", agent, c.status, c.rfc, errs)
			}
			note := strings.Contains(errs, "note, our crawler's rule")
			if note != c.ours {
				t.Errorf("-agent %s -status %s: note on our own rule printed %v, want %v: %q", agent, c.status, note, c.ours, errs)
			}
			if c.status == "200" && errs != "" {
				t.Errorf("-agent %s -status 200: standard error %q", agent, errs)
			}
		}
	}
}

// TestCommandOurRuleIsANote: for a 403 the verdict is RFC 9309's, also for
// our own crawler, and our rule is one line of its own that says it is ours
// and is not the verdict; stdout holds the verdicts only.
func TestCommandOurRuleIsANote(t *testing.T) {
	code, out, errs := runRobotsCmd(t, cmdFile, "-status", "403", "-", "https://e.test/private/x")
	if code != 0 || out != "allowed\thttps://e.test/private/x\tunavailable\n" {
		t.Errorf("crawlsignals, 403: exit %d %q", code, out)
	}
	var ours []string
	for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
		if strings.Contains(l, "our crawler") {
			ours = append(ours, l)
		}
	}
	if len(ours) != 1 || !strings.Contains(ours[0], "not the verdict") || !strings.Contains(ours[0], "reads nothing else") || strings.Contains(ours[0], "RFC 9309 §") {
		t.Errorf("our rule is not one note line of its own:\n%s", errs)
	}
	// The whole reading says what RFC 9309 tells the agent named.
	_, out, _ = runRobotsCmd(t, cmdFile, "-agent", "GPTBot", "-status", "403", "-")
	if !strings.Contains(out, "GPTBot, as RFC 9309 reads status 403 (unavailable): allowed everywhere") {
		t.Errorf("reading, 403:\n%s", out)
	}
	_, out, _ = runRobotsCmd(t, cmdFile, "-agent", "GPTBot", "-status", "503", "-")
	if !strings.Contains(out, "GPTBot, as RFC 9309 reads status 503 (unreachable): disallowed everywhere") {
		t.Errorf("reading, 503:\n%s", out)
	}
}

// TestCommandBadURL: an argument that is not an absolute http(s) URL is a
// usage error naming it; no verdict is printed (for it or any other).
func TestCommandBadURL(t *testing.T) {
	for _, bad := range []string{"notaurl", "e.test/private", "/private", "ftp://e.test/x", "https://", "https:/private", "mailto:a@e.test", "https://e.test:port/", ""} {
		for _, status := range []string{"200", "403", "503"} {
			code, out, errs := runRobotsCmd(t, cmdFile, "-status", status, "-", "https://e.test/", bad)
			if code != 2 || out != "" || !strings.Contains(errs, `"`+bad+`"`) {
				t.Errorf("-status %s, URL %q: exit %d, stdout %q, stderr %q", status, bad, code, out, errs)
			}
		}
	}
	// Scheme letters in any case are still http(s).
	if code, out, errs := runRobotsCmd(t, cmdFile, "-", "HTTPS://e.test/private/x"); code != 0 || out != "disallowed\tHTTPS://e.test/private/x\t2\n" {
		t.Errorf("HTTPS: exit %d %q %q", code, out, errs)
	}
}
