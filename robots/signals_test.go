package robots

import "testing"

func TestContentSignalAndUsage(t *testing.T) {
	body := "Content-Signal: ai-train=no\n" + // 1: before any group
		"User-Agent: *\n" + // 2
		"Content-Signal: search=yes, ai-train=no, ai-input=yes\n" + // 3
		"Allow: /\n" + // 4
		"Content-Usage: train-ai=n\n" + // 5: still the same group
		"Content-Usage: /docs/ ai=y\n" + // 6: limited to a path
		"\n" +
		"User-agent: GPTBot\n" + // 8
		"content-signal: ai-train=no; search = yes\n" // 9
	f := Parse([]byte(body))
	g := f.Groups()
	if len(g) != 2 {
		t.Fatalf("%d groups", len(g))
	}
	cs := g[0].ContentSignals
	if len(cs) != 1 || cs[0].Line != 3 || len(cs[0].Pairs) != 3 ||
		cs[0].Pairs[0] != (Pair{"search", "yes"}) || cs[0].Pairs[1] != (Pair{"ai-train", "no"}) || cs[0].Pairs[2] != (Pair{"ai-input", "yes"}) {
		t.Errorf("content-signal %+v", cs)
	}
	cu := g[0].ContentUsage
	if len(cu) != 2 || cu[0].Pairs[0] != (Pair{"train-ai", "n"}) || cu[1].Path != "/docs/" || cu[1].Pairs[0] != (Pair{"ai", "y"}) {
		t.Errorf("content-usage %+v", cu)
	}
	if cs := g[1].ContentSignals; len(cs) != 1 || cs[0].Pairs[1] != (Pair{"search", "yes"}) || cs[0].Key != "content-signal" {
		t.Errorf("second group %+v", cs)
	}
	if out := f.Outside(); len(out) != 1 || out[0].Line != 1 || out[0].Pairs[0] != (Pair{"ai-train", "no"}) {
		t.Errorf("outside %+v", out)
	}
	// These lines are not rules: they change nothing the matcher decides.
	if ok, line := f.Allowed("crawlsignals", "/anything"); !ok || line != 4 {
		t.Errorf("allowed=%v line=%d", ok, line)
	}
}

// TestLicenseLines: RSL's License line is read wherever it stands, as a
// record of no group (like Sitemap): it neither ends nor joins a group, and
// each address is listed once with the line that first names it.
func TestLicenseLines(t *testing.T) {
	body := "License: https://e.test/license.xml\n" + // 1: before any group
		"User-agent: *\n" + // 2
		"Disallow: /private/\n" + // 3
		"licence: https://other.test/rsl.xml # spelled the British way\n" + // 4: inside the group
		"Disallow: /tmp/\n" + // 5: still the * group
		"License: https://e.test/license.xml\n" + // 6: the same address again
		"License:\n" // 7: no address
	f := Parse([]byte(body))
	want := []License{{1, "https://e.test/license.xml"}, {4, "https://other.test/rsl.xml"}}
	got := f.Licenses()
	if len(got) != len(want) {
		t.Fatalf("licenses %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("license %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	g := f.Groups()
	if len(g) != 1 || len(g[0].Rules) != 2 {
		t.Fatalf("groups %+v", g)
	}
	if ok, line := f.Allowed("crawlsignals", "/tmp/x"); ok || line != 5 {
		t.Errorf("/tmp/x: allowed=%v line=%d, want disallowed by line 5", ok, line)
	}
}
