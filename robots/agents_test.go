package robots

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEmbeddedAgents(t *testing.T) {
	agents, err := EmbeddedAgents()
	if err != nil {
		t.Fatal(err)
	}
	if len(agents) < 30 {
		t.Errorf("%d agents, want at least 30", len(agents))
	}
	if len(Agents()) != len(agents) {
		t.Error("Agents and EmbeddedAgents differ")
	}
	Agents()[0].Token = "changed"
	if Agents()[0].Token != "crawlsignals" {
		t.Error("the list can be changed by a caller, or does not start with ours")
	}
	byToken := map[string]Agent{}
	cats := map[string]int{}
	for _, a := range agents {
		byToken[a.Token] = a
		cats[a.Category]++
	}
	ours := byToken["crawlsignals"]
	if ours.Category != "ours" || ours.Operator != "crawlsignals" || ours.Purpose != "this directory" {
		t.Errorf("our entry: %+v", ours)
	}
	for _, c := range Categories {
		if cats[c] == 0 {
			t.Errorf("no agent in category %s", c)
		}
	}
	// The main operators' crawlers are all there.
	for _, tok := range []string{"GPTBot", "OAI-SearchBot", "ChatGPT-User", "ClaudeBot", "Claude-User", "Google-Extended",
		"Googlebot", "bingbot", "Applebot-Extended", "CCBot", "meta-externalagent", "PerplexityBot", "Bytespider",
		"Amazonbot", "MistralAI-User", "cohere-ai", "DeepSeekBot", "AI2Bot"} {
		if _, ok := byToken[tok]; !ok {
			t.Errorf("%s is missing", tok)
		}
	}
	if a := byToken["AI2Bot"]; a.ParserToken() != "AI" || a.Note == "" {
		t.Errorf("AI2Bot: read as %q, note %q", a.ParserToken(), a.Note)
	}
}

// Every agent but ours comes from the reference list, with a source that
// list gives for it, and is read as that list says Google's parser reads it.
func TestAgentsMatchReference(t *testing.T) {
	p := filepath.Join(sharedDir(), "reference", "agents.json")
	data, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		t.Skipf("%s not found (a clone outside the project's environment): skipping", p)
	}
	if err != nil {
		t.Fatal(err)
	}
	var ref []struct {
		Token    string `json:"token"`
		Operator string `json:"operator"`
		Source   string `json:"source"`
		ReadsAs  string `json:"google_parser_reads_as"`
		Valid    bool   `json:"rfc9309_valid_token"`
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	for _, a := range Agents() {
		if a.Category == "ours" {
			continue
		}
		found, sourced := false, false
		for _, r := range ref {
			if r.Token != a.Token {
				continue
			}
			found = true
			sourced = sourced || r.Source == a.Source
			if r.ReadsAs != a.ParserToken() {
				t.Errorf("%s: we read it as %q, the reference as %q", a.Token, a.ParserToken(), r.ReadsAs)
			}
			if !r.Valid && a.Note == "" {
				t.Errorf("%s: cut short by RFC 9309 parsers, but no note", a.Token)
			}
		}
		if !found {
			t.Errorf("%s is not in the reference list", a.Token)
		} else if !sourced {
			t.Errorf("%s: source %s is not one the reference gives", a.Token, a.Source)
		}
	}
}

func TestLoadAgentsErrors(t *testing.T) {
	good := "[[agent]]\ntoken = \"X\"\noperator = \"O\"\npurpose = \"p\"\ncategory = \"search\"\nsource = \"https://x.test\"\n"
	if a, err := LoadAgents([]byte(good)); err != nil || len(a) != 1 {
		t.Fatalf("good file: %v %v", a, err)
	}
	cases := map[string]string{
		"broken TOML":     "[[agent]\ntoken = ",
		"empty":           "",
		"unknown key":     good + "colour = \"red\"\n",
		"bad category":    strings.Replace(good, "search", "seo", 1),
		"no operator":     strings.Replace(good, "operator = \"O\"\n", "", 1),
		"no purpose":      strings.Replace(good, "purpose = \"p\"\n", "", 1),
		"http source":     strings.Replace(good, "https://", "http://", 1),
		"cut, no note":    strings.Replace(good, "\"X\"", "\"X1bot\"", 1),
		"no token":        strings.Replace(good, "token = \"X\"\n", "", 1),
		"unmatchable":     strings.Replace(good, "\"X\"", "\"1bot\"", 1),
		"repeated token":  good + strings.Replace(good, "\"X\"", "\"x\"", 1),
		"spaces in token": strings.Replace(good, "\"X\"", "\" X\"", 1),
	}
	for name, data := range cases {
		if _, err := LoadAgents([]byte(data)); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.HasPrefix(err.Error(), "agents.toml") {
			t.Errorf("%s: error %q does not say where", name, err)
		}
	}
	cut := strings.Replace(good, "\"X\"", "\"X1bot\"", 1) + "note = \"read as X\"\n"
	if a, err := LoadAgents([]byte(cut)); err != nil || a[0].ParserToken() != "X" {
		t.Errorf("cut token with a note: %v %v", a, err)
	}
}
