package robots

import (
	"strings"
	"testing"
)

// Tests built on the examples of RFC 9309, in our own words.

type matchCase struct {
	agent, url string
	allowed    bool
	line       int
}

func runMatches(t *testing.T, name, body string, cases []matchCase) {
	t.Helper()
	f := Parse([]byte(body))
	for _, c := range cases {
		d := f.Decide(c.agent, c.url)
		if d.Err != nil {
			t.Errorf("%s: %s %s: %v", name, c.agent, c.url, d.Err)
		}
		if d.Allowed != c.allowed || d.Line != c.line {
			t.Errorf("%s: %s %s: allowed=%v line=%d, want allowed=%v line=%d",
				name, c.agent, c.url, d.Allowed, d.Line, c.allowed, c.line)
		}
	}
}

// §5.1: a file with a "*" group, one agent with its own group, two agents
// sharing one, and a last group with no rules at all.
func TestRFCSimpleExample(t *testing.T) {
	body := strings.Join([]string{
		"User-Agent: *",                // 1
		"Disallow: *.gif$",             // 2
		"Disallow: /example/",          // 3
		"Allow: /publications/",        // 4
		"",                             // 5
		"User-Agent: foobot",           // 6
		"Disallow:/",                   // 7
		"Allow:/example/page.html",     // 8
		"Allow:/example/allowed.gif",   // 9
		"",                             // 10
		"User-Agent: barbot",           // 11
		"User-Agent: bazbot",           // 12
		"Disallow: /example/page.html", // 13
		"",                             // 14
		"User-Agent: quxbot",           // 15
		"",                             // 16
	}, "\n")
	runMatches(t, "§5.1", body, []matchCase{
		// An agent the file does not name follows "*".
		{"otherbot", "https://www.example.com/example/x", false, 3},
		{"otherbot", "https://www.example.com/publications/x", true, 4},
		{"otherbot", "https://www.example.com/img/a.gif", false, 2},
		{"otherbot", "https://www.example.com/x", true, 0},
		// foobot has its own group: everything is closed but two pages.
		{"foobot", "https://www.example.com/example/page.html", true, 8},
		{"foobot", "https://www.example.com/example/allowed.gif", true, 9},
		{"foobot", "https://www.example.com/example/other", false, 7},
		{"foobot", "https://www.example.com/", false, 7},
		{"FooBot", "https://www.example.com/", false, 7}, // names match whatever their case
		// barbot and bazbot share a group, and ignore "*" completely.
		{"barbot", "https://www.example.com/example/page.html", false, 13},
		{"barbot", "https://www.example.com/example/other", true, 0},
		{"bazbot", "https://www.example.com/example/page.html", false, 13},
		{"bazbot", "https://www.example.com/publications/a.gif", true, 0},
		// quxbot's group is empty: it may fetch anything.
		{"quxbot", "https://www.example.com/example/page.html", true, 0},
		{"quxbot", "https://www.example.com/a.gif", true, 0},
	})
	f := Parse([]byte(body))
	for agent, want := range map[string]string{"otherbot": "star", "foobot": "own", "bazbot": "own", "quxbot": "own"} {
		if kind, _ := f.GroupFor(agent); kind != want {
			t.Errorf("%s follows %s, want %s", agent, kind, want)
		}
	}
	if g := f.Groups(); len(g) != 4 || strings.Join(g[2].AgentNames(), ",") != "barbot,bazbot" || len(g[3].Rules) != 0 {
		t.Errorf("groups read as %+v", g)
	}
}

// §5.2: the longest matching path wins, whatever the order of the lines.
func TestRFCLongestMatch(t *testing.T) {
	body := "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
	runMatches(t, "§5.2", body, []matchCase{
		{"foobot", "https://www.example.com/example/page/disallowed.gif", false, 3},
		{"foobot", "https://www.example.com/example/page/ok.gif", true, 2},
	})
	// Equally long allow and disallow: allow wins.
	tie := "User-agent: *\nDisallow: /page\nAllow: /page\n"
	runMatches(t, "§2.2.2 tie", tie, []matchCase{{"x", "https://e.test/page", true, 3}})
	tie = "User-agent: *\nAllow: /pag*\nDisallow: /page\n"
	runMatches(t, "§2.2.2 tie with wildcard", tie, []matchCase{{"x", "https://e.test/page", true, 2}})
}

// §2.2.1: groups naming the same agent are read as one; an agent without
// a group follows "*"; with neither, nothing is disallowed.
func TestRFCUserAgentLine(t *testing.T) {
	merged := "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n"
	runMatches(t, "§2.2.1 merge", merged, []matchCase{
		{"ExampleBot", "https://www.example.com/foo", false, 2},
		{"ExampleBot", "https://www.example.com/bar", false, 3},
		{"ExampleBot", "https://www.example.com/baz", false, 6},
		{"examplebot", "https://www.example.com/baz", false, 6},
		{"ExampleBot", "https://www.example.com/qux", true, 0},
	})
	if kind, groups := Parse([]byte(merged)).GroupFor("ExampleBot"); kind != "own" || len(groups) != 2 {
		t.Errorf("merge: %s %v", kind, groups)
	}
	star := "user-agent: *\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: BazBot\ndisallow: /baz\n"
	runMatches(t, "§2.2.1 star", star, []matchCase{
		{"ExampleBot", "https://www.example.com/foo", false, 2},
		{"ExampleBot", "https://www.example.com/bar", false, 3},
		{"ExampleBot", "https://www.example.com/baz", true, 0},
		{"BazBot", "https://www.example.com/foo", true, 0},
	})
	none := "user-agent: BazBot\ndisallow: /\n"
	runMatches(t, "§2.2.1 none", none, []matchCase{{"ExampleBot", "https://www.example.com/x", true, 0}})
	if kind, _ := Parse([]byte(none)).GroupFor("ExampleBot"); kind != "none" {
		t.Errorf("no group: %s", kind)
	}
	// The product token in a full header is a substring; the group is found
	// from the token.
	runMatches(t, "§2.2.1 header", "user-agent: ExampleBot\ndisallow: /\n", []matchCase{
		{"ExampleBot/0.1", "https://www.example.com/x", false, 2},
	})
}

// §2.2.2: rules before the first user-agent line belong to no group and
// are ignored; a group with no matching rule allows; /robots.txt is always
// allowed.
func TestRFCAllowDisallow(t *testing.T) {
	runMatches(t, "outside a group", "Disallow: /\nUser-agent: *\nAllow: /x\n", []matchCase{
		{"anybot", "https://www.example.com/y", true, 0},
	})
	runMatches(t, "no match", "User-agent: *\nDisallow: /private\n", []matchCase{
		{"anybot", "https://www.example.com/public", true, 0},
		{"anybot", "https://www.example.com/Private", true, 0}, // case matters in paths
	})
	runMatches(t, "empty disallow", "User-agent: *\nDisallow:\n", []matchCase{
		{"anybot", "https://www.example.com/anything", true, 0},
	})
	runMatches(t, "robots.txt", "User-agent: *\nDisallow: /\n", []matchCase{
		{"anybot", "https://www.example.com/robots.txt", true, 0},
		{"anybot", "https://www.example.com/", false, 2},
	})
}

// §2.2.2's table of percent-encoding: non-ASCII is compared encoded, in
// rules and URLs alike; escaped unreserved characters are compared decoded;
// escapes compare whatever the case of their hex digits.
func TestRFCPercentEncoding(t *testing.T) {
	cases := []struct {
		rule, url string
		match     bool
	}{
		{"/foo/bar?baz=quz", "/foo/bar?baz=quz", true},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84", true},
		{"/foo/bar/ツ", "/foo/bar/ツ", true},
		{"/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", true},
		{"/foo/bar/%E3%83%84", "/foo/bar/ツ", true},
		{"/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84", true},
		{"/foo/bar/%62%61%7A", "/foo/bar/baz", true},
		{"/foo/bar/baz", "/foo/bar/%62%61%7a", true},
		{"/a%2Fb", "/a/b", false}, // an escaped "/" is not a "/"
		{"/søk", "/s%C3%B8k", true},
		{"/søk", "/S%C3%B8k", false},
	}
	for _, c := range cases {
		body := "User-agent: *\nDisallow: " + c.rule + "\n"
		ok, _ := Parse([]byte(body)).Allowed("anybot", "https://www.example.com"+c.url)
		if ok == c.match {
			t.Errorf("rule %q, URL %q: match=%v, want %v", c.rule, c.url, !ok, c.match)
		}
	}
}

// §2.2.3: "#" starts a comment, "$" ends a pattern, "*" stands for any
// run of characters; a literal "*" or "$" is written %2A or %24.
func TestRFCSpecialCharacters(t *testing.T) {
	body := strings.Join([]string{
		"User-agent: *",
		"Disallow: /this/path/exactly$",
		"Disallow: /that/*/exactly",
		"Disallow: /path/file-with-a-%2A.html",
		"Disallow: /path/foo-%24",
		"Disallow: /commented # and this is not part of the path",
		"Allow: /", // comment-free
	}, "\n")
	runMatches(t, "§2.2.3", body, []matchCase{
		{"x", "https://e.test/this/path/exactly", false, 2},
		{"x", "https://e.test/this/path/exactly/more", true, 7},
		{"x", "https://e.test/that/one/two/exactly", false, 3},
		{"x", "https://e.test/path/file-with-a-*.html", false, 4},
		{"x", "https://e.test/path/file-with-a-b.html", true, 7},
		{"x", "https://e.test/path/foo-$", false, 5},
		{"x", "https://e.test/commented", false, 6},
		{"x", "https://e.test/commented#fragment", false, 6},
	})
}

// §2.2.4: records the protocol does not define (Sitemap among them) must
// not end a group; nor do blank lines or comments.
func TestRFCOtherRecordsKeepTheGroup(t *testing.T) {
	body := strings.Join([]string{
		"User-agent: a",                       // 1
		"Sitemap: https://e.test/sitemap.xml", // 2
		"",                                    // 3
		"# a comment",                         // 4
		"Crawl-delay: 5",                      // 5
		"Unknown-directive: x",                // 6
		"User-agent: b",                       // 7: no rule yet, so same group
		"Disallow: /private",                  // 8
		"Sitemap: https://e.test/other.xml",   // 9
		"Disallow: /secret",                   // 10: still the group of a and b
		"User-agent: c",                       // 11: after a rule: a new group
		"Disallow: /",                         // 12
	}, "\n")
	f := Parse([]byte(body))
	g := f.Groups()
	if len(g) != 2 {
		t.Fatalf("%d groups, want 2: %+v", len(g), g)
	}
	if got := strings.Join(g[0].AgentNames(), ","); got != "a,b" || len(g[0].Rules) != 2 || g[0].FirstLine != 1 || g[0].LastLine != 10 {
		t.Errorf("first group %+v", g[0])
	}
	runMatches(t, "§2.2.4", body, []matchCase{
		{"a", "https://e.test/secret", false, 10},
		{"b", "https://e.test/private", false, 8},
		{"a", "https://e.test/open", true, 0},
		{"c", "https://e.test/open", false, 12},
	})
	if s := f.Sitemaps(); len(s) != 2 {
		t.Errorf("sitemaps %v", s)
	}
	if d, ok := f.CrawlDelay("b"); !ok || d != 5 {
		t.Errorf("crawl-delay for b: %v %v", d, ok)
	}
}

// §2.3.1: how the status of the answer decides, as design §2.3 applies it.
func TestStatusRules(t *testing.T) {
	cases := []struct {
		status int
		want   Outcome
	}{
		{200, Rules}, {203, Rules}, {204, Rules}, {299, Rules},
		{404, None}, {410, None},
		{400, DisallowAll}, {401, DisallowAll}, {403, DisallowAll}, {418, DisallowAll},
		{429, DisallowAll}, {451, DisallowAll},
		{500, DisallowAll}, {502, DisallowAll}, {503, DisallowAll}, {599, DisallowAll},
		{0, DisallowAll},                       // no answer
		{301, DisallowAll}, {308, DisallowAll}, // a redirect left unresolved
		{100, DisallowAll}, {-1, DisallowAll}, {999, DisallowAll},
	}
	for _, c := range cases {
		got, reason := FromStatus(c.status)
		if got != c.want {
			t.Errorf("status %d: %s, want %s", c.status, got, c.want)
		}
		if (got == DisallowAll) != (reason == "robots-unavailable") {
			t.Errorf("status %d: reason %q", c.status, reason)
		}
		if StatusMeaning(c.status) == "" {
			t.Errorf("status %d has no meaning", c.status)
		}
	}
	if o, r := Challenged(); o != DisallowAll || r != ReasonUnavailable {
		t.Errorf("challenge: %s %s", o, r)
	}
}

// §2.5: at least 500 KiB are read; we read exactly that, without a partial
// last line.
func TestParseLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for b.Len()+2*len("Disallow: /filler\n") < MaxBytes {
		b.WriteString("Disallow: /filler\n")
	}
	b.WriteString("Disallow: /within\n") // ends just under the limit
	for b.Len() <= MaxBytes+10 {
		b.WriteString("Disallow: /beyond-the-limit\n")
	}
	body := b.String()
	f := Parse([]byte(body))
	if !f.Truncated || f.Size != len(body) {
		t.Fatalf("Truncated=%v Size=%d", f.Truncated, f.Size)
	}
	if ok, _ := f.Allowed("x", "https://e.test/within"); ok {
		t.Error("a rule inside the limit was lost")
	}
	if ok, _ := f.Allowed("x", "https://e.test/beyond-the-limit"); !ok {
		t.Error("a rule past the limit was read")
	}
	for _, r := range f.Groups()[0].Rules {
		if r.Path != "/filler" && r.Path != "/within" {
			t.Errorf("line %d: a rule cut short or past the limit was read: %q", r.Line, r.Path)
		}
	}
	if Parse([]byte("User-agent: *\nDisallow: /\n")).Truncated {
		t.Error("a short file is marked truncated")
	}
}
