package e2e_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/signals"
	"github.com/crawlsignals/crawlsignals/sites"
)

// TestChangesPerPurpose: two batches in which only a Content-Signal line
// appears in robots.txt, saying no to AI answers: the change lists the
// per-purpose verdict that changed, with the line that decides it, and
// not the purposes it left alone.
func TestChangesPerPurpose(t *testing.T) {
	list, err := sites.Parse("testdata/demo/sites.toml", crawlsignals.DemoSites())
	if err != nil {
		t.Fatal(err)
	}
	batches := filepath.Join(t.TempDir(), "batches")
	web := copyHosts(t, "kommune.test", "data.kommune.test")
	robots := string(web["kommune.test/robots.txt"].Data)
	if strings.Contains(robots, "Content-Signal") {
		t.Fatal("fixture robots.txt already has a Content-Signal line; update this test")
	}
	crawlInto(t, web, list, batches, "20261101T060000Z")
	robots = strings.Replace(robots, "User-agent: *\n", "User-agent: *\nContent-Signal: ai-input=no\n", 1)
	web["kommune.test/robots.txt"] = &fstest.MapFile{Data: []byte(robots)}
	crawlInto(t, web, list, batches, "20261201T060000Z")

	all, err := derived.Build(context.Background(), list, batches, derived.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var s *signals.Site
	for _, x := range all {
		if x.Host == "kommune.test" {
			s = x
		}
	}
	if s == nil || len(s.Changes) != 1 || len(s.History) != 2 {
		t.Fatalf("kommune.test: %+v", s)
	}
	is := s.AIUse.PurposeVerdict(signals.PurposeAnswers)
	if is == signals.AINoObjection || is == signals.AIUnknown {
		t.Fatalf("AI answers is %s after ai-input=no", is)
	}
	var answers []string
	for _, item := range s.Changes[0].Items {
		switch {
		case strings.HasPrefix(item, "AI answers: "):
			answers = append(answers, item)
		case strings.HasPrefix(item, "Search: "), strings.HasPrefix(item, "AI use: "):
			t.Errorf("a purpose the line does not speak to is said to change: %s", item)
		}
	}
	want := "AI answers: " + signals.AIWord(signals.AINoObjection) + " → " + signals.AIWord(is) + " (Content-Signal: ai-input=no"
	if len(answers) != 1 || !strings.HasPrefix(answers[0], want) {
		t.Errorf("AI answers changes %q, want one starting %q; items: %q", answers, want, s.Changes[0].Items)
	}
	if !strings.Contains(strings.Join(s.Changes[0].Kinds, " "), signals.ChangeVerdict) {
		t.Errorf("kinds %v lack %s", s.Changes[0].Kinds, signals.ChangeVerdict)
	}
}
