package e2e_test

import (
	"encoding/csv"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/signals"
)

// AI use per purpose, end to end (design §2.8; issue "AI use per crawler
// and per purpose"): fixture hosts whose one signal speaks to one purpose
// are crawled, built as the build command builds, and judged from what a
// reader gets: signals.json, sites.json, sites.csv and the pages.

const purposeList = `[[site]]
name = "Fjordmagasinet"
url = "https://svar.test/"
hosts = ["svar.test"]
category = "news"

[[site]]
name = "Fjordfoto"
url = "https://bruk.test/"
hosts = ["bruk.test"]
category = "other"

[[site]]
name = "Kystarkivet"
url = "https://arkiv.test/"
hosts = ["arkiv.test"]
category = "other"

[[site]]
name = "Appen"
url = "https://app.test/"
hosts = ["app.test"]
category = "other"

[[site]]
name = "Eksempel kommune"
url = "https://kommune.test/"
hosts = ["kommune.test", "data.kommune.test"]
category = "public-sector"
`

// purposeRun is what the build published.
type purposeRun struct {
	sites map[string]*signals.Site      // signals.json, read back
	index map[string]signals.IndexEntry // sites.json
	csv   map[string]map[string]string  // sites.csv: host → column → cell
	pages map[string]string             // sites/HOST/index.html, entities decoded
	dir   string                        // the directory's index.html, entities decoded
	// crawlers are crawlers/SLUG/index.html, entities decoded, and agents
	// agents.json.
	crawlers map[string]string
	agents   signals.AgentsIndex
}

func crawlPurposeHosts(t *testing.T) *purposeRun {
	t.Helper()
	var run *purposeRun
	synctest.Test(t, func(t *testing.T) {
		list, batches, _ := crawlWeb(t, crawlsignals.FixtureWeb(), purposeList, "")
		out := streamTo(t, list, batches, derived.Options{})
		file := func(rel string) []byte {
			data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
		r := &purposeRun{sites: map[string]*signals.Site{}, index: map[string]signals.IndexEntry{},
			csv: map[string]map[string]string{}, pages: map[string]string{}, dir: html.UnescapeString(string(file("index.html"))),
			crawlers: map[string]string{}}
		for _, slug := range []string{"gptbot", "oai-searchbot"} {
			r.crawlers[slug] = html.UnescapeString(string(file("crawlers/" + slug + "/index.html")))
		}
		if err := json.Unmarshal(file("agents.json"), &r.agents); err != nil {
			t.Fatal(err)
		}
		for _, ls := range list.Sites {
			var s signals.Site
			if err := json.Unmarshal(file("sites/"+ls.Host+"/signals.json"), &s); err != nil {
				t.Fatal(err)
			}
			r.sites[ls.Host] = &s
			r.pages[ls.Host] = html.UnescapeString(string(file("sites/" + ls.Host + "/index.html")))
		}
		var idx signals.Index
		if err := json.Unmarshal(file("sites.json"), &idx); err != nil {
			t.Fatal(err)
		}
		for _, e := range idx.Sites {
			r.index[e.Host] = e
		}
		rows, err := csv.NewReader(strings.NewReader(string(file("sites.csv")))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows[1:] {
			m := map[string]string{}
			for i, h := range rows[0] {
				m[h] = row[i]
			}
			r.csv[m["host"]] = m
		}
		run = r
	})
	if run == nil || t.Failed() {
		t.FailNow()
	}
	return run
}

func TestAIUsePerPurposeEndToEnd(t *testing.T) {
	r := crawlPurposeHosts(t)
	cases := []struct {
		host    string
		want    map[string]string // purpose → verdict
		decides string            // the kind of source that objects, where one does
		restsOn string            // in rests_on, on the page and in the directory row
		terms   bool
	}{
		// Its only signal is Content-Signal ai-input=no: AI answers are
		// refused, training and search are not.
		{"svar.test", map[string]string{"training": "no-objection-found", "answers": "refused", "search": "no-objection-found"},
			"content-signal", "robots.txt: no objection; terms read: no objection", true},
		// A Content-Usage header on the home page says train-ai=n.
		{"bruk.test", map[string]string{"training": "refused", "answers": "no-objection-found", "search": "no-objection-found"},
			"content-usage-header", "by a Content-Usage header", true},
		// The home page says noarchive: Amazon documents it as
		// Amazonbot's training opt-out, Microsoft as its own for
		// training and Copilot answers (agents.json's honours).
		{"arkiv.test", map[string]string{"training": "partly-refused", "answers": "partly-refused", "search": "no-objection-found"},
			"meta", "by noarchive in a robots meta tag (documented as an opt-out by Microsoft and Amazon)", true},
		// A JavaScript shell: no terms were read, and the answer says so.
		{"app.test", map[string]string{"training": "no-objection-found", "answers": "no-objection-found", "search": "no-objection-found"},
			"", "robots.txt: no objection; no terms read", false},
		// robots.txt lets every crawler in; the one objection is a ban on
		// scraping that names no AI, and the headline says that kind.
		{"kommune.test", map[string]string{"training": "refused", "answers": "no-objection-found", "search": "no-objection-found"},
			"terms", "only by a general scraping ban in the terms (no AI named); robots.txt lets every AI training crawler in", true},
	}
	for _, c := range cases {
		s := r.sites[c.host]
		if s == nil {
			t.Fatalf("%s: not built", c.host)
		}
		u := s.AIUse
		for _, p := range signals.Purposes {
			ap := u.Purpose(p)
			if ap == nil || ap.Verdict != c.want[p] {
				t.Errorf("%s: %s verdict %+v, want %s", c.host, p, ap, c.want[p])
				continue
			}
			if len(ap.Crawlers) == 0 || len(ap.Sources) == 0 {
				t.Errorf("%s: %s has %d crawlers, decided by %v", c.host, p, len(ap.Crawlers), ap.Sources)
			}
			for _, i := range ap.Sources {
				if ap.Verdict != signals.AINoObjection && u.Sources[i].Kind != c.decides {
					t.Errorf("%s: %s decided by %+v, want a %s", c.host, p, u.Sources[i], c.decides)
				}
			}
			if got := r.index[c.host].AIPurposes[p]; got != c.want[p] {
				t.Errorf("%s: sites.json ai_purposes.%s = %q", c.host, p, got)
			}
			if got := r.csv[c.host]["ai_"+p]; got != c.want[p] {
				t.Errorf("%s: sites.csv ai_%s = %q", c.host, p, got)
			}
		}
		if u.Verdict != c.want["training"] || r.index[c.host].AIUse != c.want["training"] {
			t.Errorf("%s: the headline %q (sites.json %q) is not training's", c.host, u.Verdict, r.index[c.host].AIUse)
		}
		if !strings.HasPrefix(u.RestsOn, c.restsOn) || r.index[c.host].AIRestsOn != u.RestsOn || r.csv[c.host]["ai_use_rests_on"] != u.RestsOn {
			t.Errorf("%s: rests on %q (sites.json %q, csv %q), want %q", c.host, u.RestsOn, r.index[c.host].AIRestsOn, r.csv[c.host]["ai_use_rests_on"], c.restsOn)
		}
		if u.TermsRead != c.terms || r.index[c.host].TermsRead != c.terms || r.csv[c.host]["terms_read"] != map[bool]string{true: "true", false: "false"}[c.terms] {
			t.Errorf("%s: terms_read %v (sites.json %v, csv %q), want %v", c.host, u.TermsRead, r.index[c.host].TermsRead, r.csv[c.host]["terms_read"], c.terms)
		}
		// The page's answer, before anything else, says what the verdict
		// rests on and the verdict per purpose; the directory row too.
		answers := between(r.pages[c.host], `class="answer ai-answer"`, `class="answer reuse-answer"`)
		if !strings.Contains(answers, c.restsOn) {
			t.Errorf("%s: the AI answer does not say %q:\n%s", c.host, c.restsOn, answers)
		}
		for _, p := range signals.Purposes {
			word := signals.PurposeWords(p) + ` <span class="ai ai-` + c.want[p] + `">`
			if !strings.Contains(answers, word) {
				t.Errorf("%s: the AI answer lacks %q", c.host, word)
			}
		}
		row := between(r.dir, `sites/`+c.host+`/">`, "</tr>")
		if !strings.Contains(row, c.restsOn) {
			t.Errorf("%s: the directory row does not say %q:\n%s", c.host, c.restsOn, row)
		}
	}

	// The matrix: OpenAI's AI answers crawlers meet svar.test's line,
	// linked to it; its training crawler meets nothing, and the cell
	// links robots.txt.
	matrix := between(r.pages["svar.test"], `id="ai-matrix"`, "</table>")
	openai := between(matrix, "<th scope=\"row\">OpenAI</th>", "</tr>")
	cells := regexp.MustCompile(`<td>.*?</td>`).FindAllString(openai, -1)
	if len(cells) != 3 {
		t.Fatalf("OpenAI's row has %d cells: %s", len(cells), openai)
	}
	if !strings.Contains(cells[0], "ai-no-objection-found") || !strings.Contains(cells[0], `href="#robots"`) || !strings.Contains(cells[0], "GPTBot") {
		t.Errorf("OpenAI, training: %s", cells[0])
	}
	if !strings.Contains(cells[1], "ai-refused") || !strings.Contains(cells[1], `href="#L2"`) || !strings.Contains(cells[1], "OAI-SearchBot") {
		t.Errorf("OpenAI, AI answers: %s", cells[1])
	}
	if !strings.Contains(cells[2], "ai-unknown") {
		t.Errorf("OpenAI has no search crawler of ours: %s", cells[2])
	}
	if !strings.Contains(r.pages["svar.test"], `id="L2"`) {
		t.Error("svar.test: the deciding line 2 has no anchor")
	}
	// arkiv.test's matrix: Amazon's training crawler meets noarchive;
	// Microsoft, with no training crawler of ours, is refused for
	// training by its own statement, linked to the page's meta tag.
	matrix = between(r.pages["arkiv.test"], `id="ai-matrix"`, "</table>")
	for _, op := range []string{"Amazon", "Microsoft"} {
		cells := regexp.MustCompile(`<td>.*?</td>`).FindAllString(between(matrix, `<th scope="row">`+op+`</th>`, "</tr>"), -1)
		if len(cells) != 3 || !strings.Contains(cells[0], "ai-refused") || !strings.Contains(cells[0], "noarchive in a robots meta tag") || !strings.Contains(cells[0], `href="https://arkiv.test/"`) {
			t.Errorf("arkiv.test, %s: %q", op, cells)
		}
		if op == "Microsoft" && (!strings.Contains(cells[0], "bingbot, as Microsoft documents it") || !strings.Contains(cells[2], "ai-no-objection-found")) {
			t.Errorf("arkiv.test, Microsoft: %q", cells)
		}
	}
	// Each crawler is in its purpose's list once.
	for _, p := range signals.Purposes {
		var names []string
		for _, c := range r.sites["svar.test"].AIUse.Purpose(p).Crawlers {
			if slices.Contains(names, c.Agent) {
				t.Errorf("%s listed twice for %s", c.Agent, p)
			}
			names = append(names, c.Agent)
		}
	}
}

// between is the part of s from the first from to the next to after it.
func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, to); j >= 0 {
		return s[:j]
	}
	return s
}
