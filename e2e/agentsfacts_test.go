package e2e_test

import (
	"encoding/json"
	"testing"
)

// TestAgentsJSONCarriesOperatorFacts: agents.json, read as plain JSON the
// way a script reads it, gives each crawler its source and the day it was
// checked, the operator's robots.txt caveat where there is one, and what
// the operator says it honours (issue 38 item 7; design §6).
func TestAgentsJSONCarriesOperatorFacts(t *testing.T) {
	r := crawlFixtureWeb(t)
	var doc struct {
		Agents []map[string]any `json:"agents"`
	}
	if err := json.Unmarshal([]byte(readPublic(t, r, "agents.json")), &doc); err != nil {
		t.Fatal(err)
	}
	by := map[string]map[string]any{}
	for _, a := range doc.Agents {
		tok, _ := a["agent"].(string)
		by[tok] = a
		if s, _ := a["source"].(string); s == "" {
			t.Errorf("%s: no source", tok)
		}
		if c, _ := a["checked"].(string); len(c) != len("2026-12-05") {
			t.Errorf("%s: checked %v", tok, a["checked"])
		}
		if _, ok := a["honours"].([]any); !ok {
			t.Errorf("%s: honours is %T, want an array (empty when nothing is known)", tok, a["honours"])
		}
	}
	for tok, want := range map[string]string{"Amazonbot": "ai-training", "Amzn-SearchBot": "ai-assistant", "Amzn-User": "ai-assistant",
		"OAI-AdsBot": "ai-assistant", "Google-Agent": "ai-assistant", "GPTBot": "ai-training", "ChatGPT-User": "ai-assistant"} {
		if got := by[tok]["category"]; got != want {
			t.Errorf("%s: category %v, want %s", tok, got, want)
		}
	}
	for _, tok := range []string{"ChatGPT-User", "Perplexity-User", "meta-externalfetcher", "Google-Agent"} {
		if s, _ := by[tok]["robots_may_not_apply"].(string); s == "" {
			t.Errorf("%s: no robots_may_not_apply", tok)
		}
	}
	for _, tok := range []string{"GPTBot", "Claude-User", "Amzn-User"} {
		if _, ok := by[tok]["robots_may_not_apply"]; ok {
			t.Errorf("%s: robots_may_not_apply present; its operator says it follows robots.txt", tok)
		}
	}
	// The training opt-out by noarchive, where its operators document it.
	found := map[string]bool{}
	for _, tok := range []string{"Amazonbot", "bingbot"} {
		hs, _ := by[tok]["honours"].([]any)
		for _, h := range hs {
			m := h.(map[string]any)
			if m["signal"] == "noarchive" && m["purpose"] == "training" {
				found[tok] = true
				for _, k := range []string{"says", "source", "date"} {
					if s, _ := m[k].(string); s == "" {
						t.Errorf("%s: noarchive honour without %s", tok, k)
					}
				}
			}
		}
		if !found[tok] {
			t.Errorf("%s: agents.json does not say it honours noarchive for training", tok)
		}
	}
}
