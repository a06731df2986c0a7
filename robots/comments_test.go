package robots

import (
	"strings"
	"testing"
)

func TestProhibitingComments(t *testing.T) {
	forbid := []string{
		"Scraping of this site is prohibited.",
		"Automated access is forbidden without our written permission",
		"Do not crawl this site for AI training",
		"Don't scrape us",
		"Crawling is not allowed except by search engines",
		"Use of our content to train AI models is not permitted",
		"No scraping",
		"Unauthorized robots will be blocked",
		"Skraping av nettstedet er forbudt",
		"Automatisert innhenting av data er ikke tillatt",
		"Kopiering av innhold uten skriftlig samtykke er ikke lov",
		"Innhold må ikke brukes til trening av KI",
		"Det er forbudt å bruke roboter på dette nettstedet",
		"Il est interdit d'utiliser des robots",
		"Seuls les partenaires sont habilités à utiliser nos contenus",
		"Only approved partners are permitted to crawl this site",
		"Das automatisierte Auslesen ist untersagt",
	}
	allow := []string{
		"Please crawl our files.",
		"We appreciate if you can crawl responsibly.",
		"Blocks crawlers that are kind enough to obey robots",
		"This file is to prevent the crawling and indexing of certain parts",
		"Disallowing the OpenAI web crawler",
		"Our robots.txt is for search engines",
		"all use of FT content is subject to the Terms & Conditions",
		"the crawler will only accept URLs in this sitemap",
		"Robots exclus de toute indexation.",
		"Hovedinnstillinger",
		"version: 82a15735101eeeee99de50465f2c318613f7d82b",
		"Sitemaps",
		"Vi ønsker søkemotorer velkommen",
		"Block AI crawlers",
	}
	for _, c := range forbid {
		f := Parse([]byte("# " + c + "\nUser-agent: *\nDisallow:\n"))
		if got := f.ProhibitingComments(); len(got) != 1 || got[0].Text != c || got[0].Line != 1 {
			t.Errorf("%q: got %+v, want it quoted", c, got)
		}
	}
	for _, c := range allow {
		f := Parse([]byte("# " + c + "\nUser-agent: *\nDisallow:\n"))
		if got := f.ProhibitingComments(); len(got) != 0 {
			t.Errorf("%q read as a prohibition", c)
		}
	}
}

func TestProhibitingCommentsSpanLines(t *testing.T) {
	body := strings.Join([]string{
		"# 16/08/2019", // 1: a date, not part of the sentence below
		"# Collection of data through automated means is",             // 2
		"# prohibited unless you have our written permission and may", // 3
		"# only happen for the purpose in said",                       // 4
		"# permission.",                                               // 5
		"# Welcome, search engines.",                                  // 6
		"User-agent: *",                                               // 7
		"Disallow: /x ## no scraping here",                            // 8: an inline comment counts too
		"#",                                                           // 9
	}, "\n")
	got := Parse([]byte(body)).ProhibitingComments()
	var lines []int
	for _, c := range got {
		lines = append(lines, c.Line)
	}
	if len(lines) != 5 || lines[0] != 2 || lines[3] != 5 || lines[4] != 8 {
		t.Errorf("lines %v, want 2-5 and 8: %+v", lines, got)
	}
	if got[4].Text != "no scraping here" || !got[4].Inline {
		t.Errorf("inline comment %+v", got[4])
	}
}

func TestCommentURLs(t *testing.T) {
	body := "# Terms: https://e.test/terms. See also (https://e.test/ai-policy)\n# https://e.test/terms again\nUser-agent: *\nDisallow: /#http://not.a.comment.url\n"
	got := Parse([]byte(body)).CommentURLs()
	want := []string{"https://e.test/terms", "https://e.test/ai-policy", "http://not.a.comment.url"}
	if !equalStrings(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
