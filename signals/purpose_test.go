package signals

import (
	"slices"
	"strings"
	"testing"
)

// Each signal speaks to the purposes its keys or crawlers name, and the
// verdict is given per purpose: a site that refuses AI answers and keeps
// search and training open reads so (design §2.8).
func TestAIUsePerPurpose(t *testing.T) {
	home := "https://x.test/"
	cases := []struct {
		name    string
		robots  string
		headers []HeaderSignal
		want    map[string]string // purpose → verdict
		kind    string            // the kind of the source that decides answers or training, when one objects
	}{
		{"Content-Signal ai-input=no only", "User-agent: *\nContent-Signal: search=yes, ai-input=no\nAllow: /\n", nil,
			map[string]string{PurposeTraining: AINoObjection, PurposeAnswers: AIRefused, PurposeSearch: AINoObjection}, "content-signal"},
		{"Content-Signal ai-train=no", "User-agent: *\nContent-Signal: search=yes, ai-train=no\n",
			nil, map[string]string{PurposeTraining: AIRefused, PurposeAnswers: AINoObjection, PurposeSearch: AINoObjection}, "content-signal"},
		{"Content-Usage search=n", "User-agent: *\nContent-Usage: search=n\n", nil,
			map[string]string{PurposeTraining: AINoObjection, PurposeAnswers: AINoObjection, PurposeSearch: AIRefused}, "content-usage"},
		{"robots.txt refuses OAI-SearchBot", "User-agent: OAI-SearchBot\nDisallow: /\n", nil,
			map[string]string{PurposeTraining: AINoObjection, PurposeAnswers: AIPartlyRefused, PurposeSearch: AINoObjection}, "robots"},
		{"robots.txt refuses every crawler", "User-agent: *\nDisallow: /\n", nil,
			map[string]string{PurposeTraining: AIRefused, PurposeAnswers: AIRefused, PurposeSearch: AIRefused}, "robots"},
		{"Content-Usage header on the home page", "User-agent: *\nAllow: /\n",
			[]HeaderSignal{{URL: home, Source: "header", Name: "content-usage", Value: "train-ai=n"}},
			map[string]string{PurposeTraining: AIRefused, PurposeAnswers: AINoObjection, PurposeSearch: AINoObjection}, "content-usage-header"},
		{"Content-Usage header on another page", "User-agent: *\nAllow: /\n",
			[]HeaderSignal{{URL: home + "about", Source: "header", Name: "content-usage", Value: "train-ai=n"}},
			map[string]string{PurposeTraining: AIPartlyRefused, PurposeAnswers: AINoObjection, PurposeSearch: AINoObjection}, "content-usage-header"},
		{"Content-Signal header", "User-agent: *\nAllow: /\n",
			[]HeaderSignal{{URL: home, Source: "header", Name: "content-signal", Value: "ai-train=no, ai-input=no"}},
			map[string]string{PurposeTraining: AIRefused, PurposeAnswers: AIRefused, PurposeSearch: AINoObjection}, "content-signal-header"},
		{"content-usage meta", "User-agent: *\nAllow: /\n",
			[]HeaderSignal{{URL: home, Source: "meta", Name: "content-usage", Value: "train-ai=n"}},
			map[string]string{PurposeTraining: AIRefused, PurposeAnswers: AINoObjection, PurposeSearch: AINoObjection}, "content-usage-meta"},
		// noarchive is a training opt-out for Amazon (Amazonbot, a
		// training crawler) and for Microsoft's training and Copilot
		// answers (bingbot crawls for search): the agents list's honours.
		{"noarchive on the home page", "User-agent: *\nAllow: /\n",
			[]HeaderSignal{{URL: home, Source: "meta", Name: "robots", Value: "noarchive"}},
			map[string]string{PurposeTraining: AIPartlyRefused, PurposeAnswers: AIPartlyRefused, PurposeSearch: AINoObjection}, "meta"},
		{"nocache, which Amazon does not name", "User-agent: *\nAllow: /\n",
			[]HeaderSignal{{URL: home, Source: "header", Name: "x-robots-tag", Value: "nocache"}},
			map[string]string{PurposeTraining: AIPartlyRefused, PurposeAnswers: AIPartlyRefused, PurposeSearch: AINoObjection}, "x-robots-tag"},
		{"noarchive for a crawler no operator names it for", "User-agent: *\nAllow: /\n",
			[]HeaderSignal{{URL: home, Source: "header", Name: "x-robots-tag", Value: "googlebot: noarchive"}},
			map[string]string{PurposeTraining: AINoObjection, PurposeAnswers: AINoObjection, PurposeSearch: AINoObjection}, ""},
		{"a yes objects to nothing", "User-agent: *\nAllow: /\n",
			[]HeaderSignal{{URL: home, Source: "header", Name: "content-usage", Value: "train-ai=y, search=y"}},
			map[string]string{PurposeTraining: AINoObjection, PurposeAnswers: AINoObjection, PurposeSearch: AINoObjection}, ""},
	}
	for _, c := range cases {
		s := siteWithRobots(t, c.robots)
		s.Signals.Headers = c.headers
		u := aiUse(s)
		if len(u.Purposes) != len(Purposes) {
			t.Fatalf("%s: %d purposes", c.name, len(u.Purposes))
		}
		for _, ap := range u.Purposes {
			if ap.Verdict != c.want[ap.Purpose] {
				t.Errorf("%s: %s %q, want %q", c.name, ap.Purpose, ap.Verdict, c.want[ap.Purpose])
			}
			if len(ap.Sources) == 0 {
				t.Errorf("%s: %s decided by no source", c.name, ap.Purpose)
			}
			for _, i := range ap.Sources {
				src := u.Sources[i]
				if ap.Verdict != AINoObjection && len(src.Crawlers) == 0 && len(src.Honoured) == 0 {
					t.Errorf("%s: %s %s rests on %+v, which objects for no crawler", c.name, ap.Purpose, ap.Verdict, src)
				}
				if c.kind != "" && ap.Verdict != AINoObjection && src.Kind != c.kind {
					t.Errorf("%s: %s decided by %q, want %q", c.name, ap.Purpose, src.Kind, c.kind)
				}
			}
		}
		// noarchive objects for the crawlers whose operators say so, and
		// for no other.
		for _, src := range u.Sources {
			if c.kind == "meta" && src.Kind == "meta" {
				if !slices.Equal(src.Crawlers, []string{"Amazonbot"}) || !slices.Contains(src.Honoured, AIHonour{Agent: "bingbot", Purpose: PurposeTraining}) {
					t.Errorf("%s: noarchive objects for %v, honoured %v", c.name, src.Crawlers, src.Honoured)
				}
				if !strings.Contains(u.RestsOn, "noarchive in a robots meta tag (documented as an opt-out by Microsoft and Amazon)") {
					t.Errorf("%s: rests on %q", c.name, u.RestsOn)
				}
			}
		}
		if u.Verdict != u.Purposes[0].Verdict {
			t.Errorf("%s: headline %q, training %q", c.name, u.Verdict, u.Purposes[0].Verdict)
		}
		// The answers crawlers a robots.txt line refuses are named by it.
		if ap := u.Purpose(PurposeAnswers); strings.Contains(c.name, "OAI-SearchBot") {
			for _, cr := range ap.Crawlers {
				if refused := cr.Agent == "OAI-SearchBot"; cr.Refused != refused {
					t.Errorf("%s: %s refused %v", c.name, cr.Agent, cr.Refused)
				}
			}
		}
	}
}

// What a verdict rests on is said beside it: the kind of objection, and for
// no objection found whether any terms were read (design §2.8).
func TestAIRestsOn(t *testing.T) {
	ban := Quote{URL: "https://x.test/terms", Text: "Automated collection of content from this site is not permitted.", Verified: true, Objects: "all", Kind: "scraping ban"}
	ai := Quote{URL: "https://x.test/terms", Text: "You may not use our content to train AI models.", Verified: true, Objects: "all", Kind: "AI/TDM reservation"}
	cases := []struct {
		name   string
		robots string
		quotes []Quote
		terms  bool // a policy page was read
		want   string
		not    string
	}{
		{"no terms read", "User-agent: *\nAllow: /\n", nil, false, "robots.txt: no objection; no terms read", "terms read:"},
		{"terms read", "User-agent: *\nAllow: /\n", nil, true, "robots.txt: no objection; terms read: no objection", "no terms read"},
		{"only a scraping ban", "User-agent: *\nAllow: /\n", []Quote{ban}, true, "only by a general scraping ban in the terms (no AI named); robots.txt lets every AI training crawler in", ""},
		{"a reservation naming AI", "User-agent: *\nAllow: /\n", []Quote{ai}, true, "by an AI/TDM reservation in the terms; robots.txt lets", "only"},
		{"robots.txt refuses GPTBot and a ban", "User-agent: GPTBot\nDisallow: /\n", []Quote{ban}, true, "by robots.txt (1 of ", "only"},
		{"robots.txt refuses all", "User-agent: *\nDisallow: /\n", nil, true, "by robots.txt", "lets"},
	}
	for _, c := range cases {
		s := siteWithRobots(t, c.robots)
		s.Quotes = c.quotes
		if c.terms {
			s.Read = []Document{{URL: "https://x.test/terms", Role: RolePolicy, Chars: 900}}
		}
		u := aiUse(s)
		if u.TermsRead != c.terms {
			t.Errorf("%s: terms_read %v", c.name, u.TermsRead)
		}
		if !strings.HasPrefix(u.RestsOn, c.want) || (c.not != "" && strings.Contains(u.RestsOn, c.not)) {
			t.Errorf("%s: rests on %q, want it to start %q and not say %q", c.name, u.RestsOn, c.want, c.not)
		}
		if c.quotes != nil && c.quotes[0].Kind == "scraping ban" && !strings.Contains(u.Why, "naming no AI") {
			t.Errorf("%s: why %q does not name the kind of term", c.name, u.Why)
		}
		for _, src := range u.Sources {
			if want := map[bool]string{true: "natural-language", false: "machine-readable"}[src.Kind == "terms"]; src.Strength != want {
				t.Errorf("%s: %s source strength %q", c.name, src.Kind, src.Strength)
			}
		}
	}
}
