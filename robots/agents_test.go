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
	for _, a := range agents {
		if a.Checked == "" {
			t.Errorf("%s: no checked date", a.Token)
		}
	}
}

// TestAgentsAsOperatorsSay: the categories, robots.txt flags and honoured
// signals of the crawlers the operators split by purpose, as each
// operator's documentation states them (sources in agents.toml). A
// category is what another part maps to a purpose: ai-training →
// training, ai-assistant → AI answers, search → search.
func TestAgentsAsOperatorsSay(t *testing.T) {
	byToken := map[string]Agent{}
	for _, a := range Agents() {
		byToken[a.Token] = a
	}
	for _, c := range []struct {
		token, category string
		mayNotApply     bool
	}{
		{"GPTBot", "ai-training", false}, {"OAI-SearchBot", "ai-assistant", false}, {"ChatGPT-User", "ai-assistant", true},
		{"OAI-AdsBot", "ai-assistant", false},
		{"ClaudeBot", "ai-training", false}, {"Claude-SearchBot", "ai-assistant", false}, {"Claude-User", "ai-assistant", false},
		{"PerplexityBot", "ai-assistant", false}, {"Perplexity-User", "ai-assistant", true},
		{"meta-externalagent", "ai-training", false}, {"meta-externalfetcher", "ai-assistant", true}, {"meta-webindexer", "ai-assistant", false},
		{"Amazonbot", "ai-training", false}, {"Amzn-SearchBot", "ai-assistant", false}, {"Amzn-User", "ai-assistant", false},
		{"Google-Extended", "ai-training", false}, {"Google-Agent", "ai-assistant", true}, {"Googlebot", "search", false},
		{"Applebot-Extended", "ai-training", false}, {"Applebot", "search", false}, {"bingbot", "search", false},
		{"Diffbot", "search", true},
	} {
		a, ok := byToken[c.token]
		if !ok {
			t.Errorf("%s is missing", c.token)
			continue
		}
		if a.Category != c.category {
			t.Errorf("%s: category %s, its operator's documentation says %s", c.token, a.Category, c.category)
		}
		if (a.RobotsMayNotApply != "") != c.mayNotApply {
			t.Errorf("%s: robots_may_not_apply %q, want it set: %v", c.token, a.RobotsMayNotApply, c.mayNotApply)
		}
	}
	// The page-level training opt-outs two operators document: the
	// purpose verdicts read them from here.
	honours := func(token, signal, purpose string) bool {
		for _, h := range byToken[token].Honours {
			if h.Signal == signal && h.Purpose == purpose {
				return true
			}
		}
		return false
	}
	for _, c := range []struct{ token, signal, purpose string }{
		{"bingbot", "noarchive", "training"}, {"bingbot", "noarchive", "answers"}, {"bingbot", "nocache", "training"},
		{"Amazonbot", "noarchive", "training"}, {"Amazonbot", "robots.txt", "training"},
		{"GPTBot", "robots.txt", "training"}, {"OAI-SearchBot", "robots.txt", "answers"}, {"ClaudeBot", "robots.txt", "training"},
		{"Google-Extended", "robots.txt", "training"}, {"Google-Extended", "robots.txt", "answers"},
	} {
		if !honours(c.token, c.signal, c.purpose) {
			t.Errorf("%s: no honour of %s for %s", c.token, c.signal, c.purpose)
		}
	}
	// No one says GPTBot honours noarchive: a noarchive page objects for
	// the operators that say so, not for every crawler.
	for _, tok := range []string{"GPTBot", "ClaudeBot", "Googlebot"} {
		if honours(tok, "noarchive", "training") {
			t.Errorf("%s honours noarchive for training: no source says so", tok)
		}
	}
}

// operatorPages are the operators' own pages the list cites where the
// reference list gives another (an older address, or a third party's list
// for a crawler its operator now documents), and the tokens the reference
// lacks: each is the operator's documentation, read for the entry.
var operatorPages = map[string]string{
	"https://developers.openai.com/api/docs/bots":                                                  "OpenAI's crawlers page (platform.openai.com/docs/bots moved here)",
	"https://developers.google.com/crawling/docs/google-extended":                                  "Google's page on the Google-Extended token",
	"https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers": "Google's list of fetchers a user sets off",
	"https://docs.diffbot.com/docs/does-crawl-respect-robotstxt":                                   "Diffbot's page on its crawler and robots.txt",
	"https://developers.facebook.com/docs/sharing/webmasters/web-crawlers":                         "Meta's crawlers page",
	"https://developer.amazon.com/amazonbot":                                                       "Amazon's crawlers page",
}

// notInReference are tokens the reference list lacks, each documented by
// its operator on a page of operatorPages.
var notInReference = map[string]bool{"OAI-AdsBot": true}

// Every agent but ours comes from the reference list, with a source that
// list gives for it or an operator's own page (operatorPages), and is read
// as that list says Google's parser reads it.
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
	used := map[string]bool{}
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
		_, operators := operatorPages[a.Source]
		switch {
		case !found && !notInReference[a.Token]:
			t.Errorf("%s is not in the reference list", a.Token)
		case !found && !operators:
			t.Errorf("%s: not in the reference list, and its source %s is not an operator's page we read", a.Token, a.Source)
		case found && notInReference[a.Token]:
			t.Errorf("%s is in the reference list now: take it out of notInReference", a.Token)
		case !sourced && !operators:
			t.Errorf("%s: source %s is not one the reference gives, nor an operator's page we read", a.Token, a.Source)
		}
		used[a.Source] = true
	}
	for page := range operatorPages {
		if !used[page] {
			t.Errorf("operatorPages lists %s, which no agent cites", page)
		}
	}
}

func TestLoadAgentsErrors(t *testing.T) {
	good := "[[agent]]\ntoken = \"X\"\noperator = \"O\"\npurpose = \"p\"\ncategory = \"search\"\nsource = \"https://x.test\"\nchecked = \"2026-12-05\"\n"
	honour := "\n[[agent.honours]]\nsignal = \"noarchive\"\npurpose = \"training\"\nsays = \"s\"\nsource = \"https://x.test/doc\"\ndate = \"2026-04-19\"\n"
	if a, err := LoadAgents([]byte(good + honour)); err != nil || len(a) != 1 || len(a[0].Honours) != 1 {
		t.Fatalf("good file: %v %v", a, err)
	} else if h := a[0].Honours[0]; h != (Honour{Signal: "noarchive", Purpose: "training", Says: "s", Source: "https://x.test/doc", Date: "2026-04-19"}) {
		t.Errorf("honour read as %+v", h)
	}
	month := strings.Replace(good+honour, "2026-04-19", "2023-09", 1)
	if _, err := LoadAgents([]byte(month)); err != nil {
		t.Errorf("an honour dated by month: %v", err)
	}
	flagged := good + "robots_may_not_apply = \"The operator says so.\"\n"
	if a, err := LoadAgents([]byte(flagged)); err != nil || a[0].RobotsMayNotApply != "The operator says so." {
		t.Errorf("robots_may_not_apply: %v %v", a, err)
	}
	// Each case: the file, and what its error must name (the agent is
	// named by every error below the TOML's own).
	cases := []struct{ name, data, want string }{
		{"broken TOML", "[[agent]\ntoken = ", "agents.toml"},
		{"empty", "", "no [[agent]]"},
		{"unknown key", good + "colour = \"red\"\n", "colour"},
		{"unknown honour key", good + honour + "weight = 1\n", "weight"},
		{"bad category", strings.Replace(good, "search", "seo", 1), "category"},
		{"no operator", strings.Replace(good, "operator = \"O\"\n", "", 1), "operator"},
		{"no purpose", strings.Replace(good, "purpose = \"p\"\n", "", 1), "purpose"},
		{"http source", strings.Replace(good, "https://", "http://", 1), "source"},
		{"cut, no note", strings.Replace(good, "\"X\"", "\"X1bot\"", 1), "note"},
		{"no token", strings.Replace(good, "token = \"X\"\n", "", 1), "token"},
		{"unmatchable", strings.Replace(good, "\"X\"", "\"1bot\"", 1), "token"},
		{"repeated token", good + strings.Replace(good, "\"X\"", "\"x\"", 1), "repeats"},
		{"spaces in token", strings.Replace(good, "\"X\"", "\" X\"", 1), "token"},
		{"no checked", strings.Replace(good, "checked = \"2026-12-05\"\n", "", 1), "checked is missing"},
		{"checked not a date", strings.Replace(good, "2026-12-05", "5 Dec 2026", 1), "checked \"5 Dec 2026\""},
		{"checked a month", strings.Replace(good, "2026-12-05", "2026-12", 1), "checked"},
		{"unknown signal", strings.Replace(good+honour, "noarchive", "noindex", 1), "signal \"noindex\""},
		{"signal's case", strings.Replace(good+honour, "noarchive", "NOARCHIVE", 1), "signal"},
		{"unknown purpose", strings.Replace(good+honour, "\"training\"", "\"grounding\"", 1), "purpose \"grounding\""},
		{"no says", strings.Replace(good+honour, "says = \"s\"\n", "", 1), "says is missing"},
		{"blank says", strings.Replace(good+honour, "says = \"s\"", "says = \" \"", 1), "says is missing"},
		{"no honour source", strings.Replace(good+honour, "source = \"https://x.test/doc\"\n", "", 1), "source is missing"},
		{"http honour source", strings.Replace(good+honour, "https://x.test/doc", "http://x.test/doc", 1), "source \"http://x.test/doc\""},
		{"no date", strings.Replace(good+honour, "date = \"2026-04-19\"\n", "", 1), "date is missing"},
		{"date not a date", strings.Replace(good+honour, "2026-04-19", "April 2026", 1), "date \"April 2026\""},
		{"flag with a robots.txt honour", flagged + strings.Replace(honour, "noarchive", "robots.txt", 1), "robots_may_not_apply"},
		{"flag with spaces", good + "robots_may_not_apply = \" says so\"\n", "robots_may_not_apply"},
	}
	for _, c := range cases {
		_, err := LoadAgents([]byte(c.data))
		switch {
		case err == nil:
			t.Errorf("%s: no error", c.name)
		case !strings.HasPrefix(err.Error(), "agents.toml"):
			t.Errorf("%s: error %q does not say where", c.name, err)
		case !strings.Contains(err.Error(), c.want):
			t.Errorf("%s: error %q does not name %q", c.name, err, c.want)
		case c.want != "agents.toml" && c.want != "no [[agent]]" && !strings.Contains(c.name, "unknown") && !strings.Contains(err.Error(), "agent 1"):
			t.Errorf("%s: error %q does not name the agent", c.name, err)
		}
	}
	cut := strings.Replace(good, "\"X\"", "\"X1bot\"", 1) + "note = \"read as X\"\n"
	if a, err := LoadAgents([]byte(cut)); err != nil || a[0].ParserToken() != "X" {
		t.Errorf("cut token with a note: %v %v", a, err)
	}
}
