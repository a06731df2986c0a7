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
