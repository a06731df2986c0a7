package pageweight

import "testing"

func TestWeightKind(t *testing.T) {
	for rel, want := range map[string]string{
		"sites/a.test/index.html":    "site index.html",
		"sites/a.test/signals.json":  "site signals.json",
		"crawlers/gptbot/index.html": "crawler pages",
		"crawlers/index.html":        "crawlers/index.html",
		"index.html":                 "index.html",
		"category/news/index.html":   "directory pages",
		"ai/refused/index.html":      "directory pages",
		"compare/index.html":         "compare/index.html",
		"sites.json":                 "sites.json",
		"schema/sites.schema.json":   "schemas",
	} {
		if got := weightKind(rel); got != want {
			t.Errorf("weightKind(%q) = %q, want %q", rel, got, want)
		}
	}
}
