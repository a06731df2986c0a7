package sites

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// lines splits an error message into its problems, one per line.
func lines(err error) []string {
	if err == nil {
		return nil
	}
	return strings.Split(err.Error(), "\n")
}

// TestParseErrors gives each rule of the loader a small file and the exact
// messages it must produce, in order (they are sorted by line). A want ending
// in "*" is matched as a prefix, for messages worded by the TOML decoder.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{
			name: "unknown key in site",
			in: `[[site]]
name = "A"
urll = "https://a.no/"
url = "https://a.no/"
hosts = ["a.no"]
`,
			want: []string{`sites.toml:3: unknown key "urll" in [[site]]`},
		},
		{
			name: "keys are case-sensitive",
			in: `[[site]]
name = "A"
URL = "https://a.no/"
hosts = ["a.no"]
`,
			want: []string{
				`sites.toml:1: missing url in [[site]] "A"`,
				`sites.toml:3: unknown key "URL" in [[site]]`,
			},
		},
		{
			name: "unknown subtable of a site",
			in: `[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]
[site.extra]
x = 1
`,
			want: []string{`sites.toml:5: unknown key "extra" in [[site]]`},
		},
		{
			name: "unknown key in global",
			in: `[global]
max_adresses = 10

[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]
`,
			want: []string{`sites.toml:2: unknown key "max_adresses" in [global]`},
		},
		{
			name: "unknown top-level key and table",
			in: `title = "x"
[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]

[sites]
name = "B"
`,
			want: []string{
				`sites.toml:1: unknown key "title"`,
				`sites.toml:7: unknown table [sites]`,
			},
		},
		{
			name: "syntax error",
			in: `[[site]]
name = "A
url = "https://a.no/"
hosts = ["a.no"]
`,
			want: []string{`sites.toml:2: TOML syntax error: *`},
		},
		{
			name: "key defined twice",
			in: `[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]
name = "B"
`,
			want: []string{`sites.toml:5: TOML syntax error: *`},
		},
		{
			name: "site as a single table",
			in: `[site]
name = "A"
url = "https://a.no/"
`,
			want: []string{`sites.toml:1: site must be written as [[site]] tables, not as a table`},
		},
		{
			name: "no sites",
			in: `# nothing yet
[global]
max_addresses = 5
`,
			want: []string{`sites.toml: no [[site]] entries: the list is empty`},
		},
		{
			name: "missing name and empty name",
			in: `[[site]]
url = "https://a.no/"
hosts = ["a.no"]

[[site]]
name = "  "
url = "https://b.no/"
hosts = ["b.no"]
`,
			want: []string{
				`sites.toml:1: missing name in [[site]]`,
				`sites.toml:6: name is empty`,
			},
		},
		{
			name: "missing url",
			in: `[[site]]
name = "A"
hosts = ["a.no"]
`,
			want: []string{`sites.toml:1: missing url in [[site]] "A"`},
		},
		{
			name: "bad urls",
			in: `[[site]]
name = "A"
url = "ftp://a.no/"
hosts = ["a.no"]

[[site]]
name = "B"
url = "https:///b"
hosts = ["b.no"]

[[site]]
name = "C"
url = "c.no"
hosts = ["c.no"]

[[site]]
name = "D"
url = "https://d.no:8443/"
hosts = ["d.no"]

[[site]]
name = "E"
url = "https://user@e.no/"
hosts = ["e.no"]

[[site]]
name = "F"
url = "https://bad_host.no/"
hosts = ["f.no"]
`,
			want: []string{
				`sites.toml:3: url "ftp://a.no/" is not an absolute http(s) address`,
				`sites.toml:8: url "https:///b" has no host`,
				`sites.toml:13: url "c.no" is not an absolute http(s) address`,
				`sites.toml:18: url "https://d.no:8443/" must not name a port`,
				`sites.toml:23: url "https://user@e.no/" must not contain a user name or password`,
				`sites.toml:28: url "https://bad_host.no/" has a host that has a character not allowed in hostnames`,
			},
		},
		{
			name: "duplicate name",
			in: `[[site]]
name = "Avisa"
url = "https://a.no/"
hosts = ["a.no"]

[[site]]
name = "avisa"
url = "https://b.no/"
hosts = ["b.no"]
`,
			want: []string{`sites.toml:7: duplicate site: the name "avisa" is already used by the site at line 1`},
		},
		{
			name: "duplicate home host",
			in: `[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]

[[site]]
name = "A in English"
url = "https://A.no/en/"
hosts = ["a.no"]
`,
			want: []string{`sites.toml:8: duplicate site: "a.no" is already the home host of "A" (line 1)`},
		},
		{
			name: "host listed twice in one site",
			in: `[[site]]
name = "A"
url = "https://a.no/"
hosts = [
  "a.no",
  "data.a.no",
  "DATA.a.no",
]
`,
			want: []string{`sites.toml:7: hosts: "data.a.no" is listed twice`},
		},
		{
			name: "invalid hostnames",
			in: `[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no",
  "bad_host.a.no",
  "a.no:8080",
  "https://www.a.no/",
  "localhost",
  "192.0.2.1",
  "blåbær.no",
  "-x.a.no",
  "x..a.no",
  "x.a.no.",
  "",
  7,
]
`,
			want: []string{
				`sites.toml:5: hosts: "bad_host.a.no" has a character not allowed in hostnames`,
				`sites.toml:6: hosts: "a.no:8080" must not name a port`,
				`sites.toml:7: hosts: "https://www.a.no/" is an address, not a bare hostname`,
				`sites.toml:8: hosts: "localhost" is not a full domain name (it has no dot)`,
				`sites.toml:9: hosts: "192.0.2.1" is an IP address, not a hostname`,
				`sites.toml:10: hosts: "blåbær.no" has non-ASCII letters: write internationalised names in their xn-- form`,
				`sites.toml:11: hosts: "-x.a.no" has a label that starts or ends with a hyphen`,
				`sites.toml:12: hosts: "x..a.no" has an empty label (two dots in a row)`,
				`sites.toml:13: hosts: "x.a.no." must not end with a dot`,
				`sites.toml:14: hosts: "" is empty`,
				`sites.toml:15: hosts: element 12 is an integer, not a string`,
			},
		},
		{
			name: "blocked_since",
			in: `[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]
blocked = true
blocked_since = "15.11.2026"

[[site]]
name = "B"
url = "https://b.no/"
hosts = ["b.no"]
blocked_since = "2026-11-15"

[[site]]
name = "C"
url = "https://c.no/"
hosts = ["c.no"]
blocked = true
blocked_since = 2026-11-15T06:00:00Z

[[site]]
name = "D"
url = "https://d.no/"
hosts = ["d.no"]
blocked = "yes"
`,
			want: []string{
				`sites.toml:6: blocked_since "15.11.2026" is not a date written as YYYY-MM-DD`,
				`sites.toml:12: blocked_since is set but blocked is not true`,
				`sites.toml:19: blocked_since 2026-11-15T06:00:00Z has a time or a time zone; write the day alone, like 2026-11-15`,
				`sites.toml:25: blocked must be true or false, not a string`,
			},
		},
		{
			// Issue 24: a blocked site's host listed for another site
			// (before or after it) would be asked for that site.
			name: "host of a blocked site listed for another",
			in: `[[site]]
name = "Nordposten"
url = "https://nord.test/"
hosts = ["nord.test", "sor.test", "felles.test"]

[[site]]
name = "Sørbladet"
url = "https://sor.test/"
hosts = ["sor.test", "felles.test"]
blocked = true
blocked_since = "2026-11-15"

[[site]]
name = "Vestavind"
url = "https://felles.test/"
hosts = ["felles.test"]
`,
			want: []string{
				`sites.toml:4: hosts: "felles.test" is a host of "Sørbladet" (line 6), which is blocked (asked us to stop since 2026-11-15): no request may be sent to it for any site; remove it from this site, or from the blocked site if it is not theirs`,
				`sites.toml:4: hosts: "sor.test" is a host of "Sørbladet" (line 6), which is blocked (asked us to stop since 2026-11-15): no request may be sent to it for any site; remove it from this site, or from the blocked site if it is not theirs`,
				`sites.toml:15: hosts: "felles.test" is a host of "Sørbladet" (line 6), which is blocked (asked us to stop since 2026-11-15): no request may be sent to it for any site; remove it from this site, or from the blocked site if it is not theirs`,
			},
		},
		{
			name: "approved addresses",
			in: `[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no", "data.a.no"]
approved = [
  "https://data.a.no/om/data",
  "/om/data",
  "ftp://a.no/x",
  "https://b.no/x",
  "https://a.no:444/x",
  "https://data.a.no/om/data",
]
`,
			want: []string{
				`sites.toml:7: approved address "/om/data" is not an absolute http(s) address`,
				`sites.toml:8: approved address "ftp://a.no/x" is not an absolute http(s) address`,
				`sites.toml:9: approved address "https://b.no/x" is not on one of this site's hosts (a.no, data.a.no)`,
				`sites.toml:10: approved address "https://a.no:444/x" must not name a port`,
				`sites.toml:11: approved address "https://data.a.no/om/data" is listed twice`,
			},
		},
		{
			name: "rechecked dates",
			in: `[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]
rechecked = ["2026-01-05", "2026-02-30", "2026-3-1"]

[[site]]
name = "B"
url = "https://b.no/"
hosts = ["b.no"]
rechecked = "2026-01-05"
`,
			want: []string{
				`sites.toml:5: rechecked: "2026-02-30" is not a date written as YYYY-MM-DD`,
				`sites.toml:5: rechecked: "2026-3-1" is not a date written as YYYY-MM-DD`,
				`sites.toml:11: rechecked must be an array of dates, not a string`,
			},
		},
		{
			name: "unknown category",
			in: `[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]
category = "shops"
`,
			want: []string{`sites.toml:5: unknown category "shops"; use one of: ` + categoryNames()},
		},
		{
			name: "wrong types",
			in: `[[site]]
name = 3
url = "https://a.no/"
category = ["news"]
notes = 1.5
hosts = "a.no"
`,
			want: []string{
				`sites.toml:2: name must be a string, not an integer`,
				`sites.toml:4: category must be a string, not an array`,
				`sites.toml:5: notes must be a string, not a decimal number`,
				`sites.toml:6: hosts must be an array of strings, not a string`,
			},
		},
		{
			name: "global values",
			in: `[global]
max_addresses = 0
max_crawl_delay = "0s"
contact = "Crawler <crawler@example.no>"

[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]
`,
			want: []string{
				`sites.toml:2: max_addresses must be between 1 and 1000000, not 0`,
				`sites.toml:3: max_crawl_delay must be longer than zero, not "0s"`,
				`sites.toml:4: contact "Crawler <crawler@example.no>" is not an email address`,
			},
		},
		{
			name: "global types",
			in: `[global]
max_addresses = "40"
max_crawl_delay = 300
contact = "nobody"

[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]

[global.more]
`,
			want: []string{
				`sites.toml:2: max_addresses must be a whole number, not a string`,
				`sites.toml:3: max_crawl_delay must be a duration string like "300s" or "5m", not an integer`,
				`sites.toml:4: contact "nobody" is not an email address`,
				`sites.toml:11: unknown key "more" in [global]`,
			},
		},
		{
			name: "bad duration",
			in: `[global]
max_crawl_delay = "five minutes"
[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no"]
`,
			want: []string{`sites.toml:2: max_crawl_delay "five minutes" is not a duration like "300s" or "5m"`},
		},
		{
			name: "every problem, sorted by line",
			in: `[[site]]
name = "B"
url = "https://b.no/"
hosts = ["b.no"]
category = "nope"
urll = "x"

[global]
contact = "x"

[[site]]
url = "https://b.no/"
hosts = ["b.no"]
`,
			want: []string{
				`sites.toml:5: unknown category "nope"; use one of: ` + categoryNames(),
				`sites.toml:6: unknown key "urll" in [[site]]`,
				`sites.toml:9: contact "x" is not an email address`,
				`sites.toml:11: missing name in [[site]]`,
				`sites.toml:12: duplicate site: "b.no" is already the home host of "B" (line 1)`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Parse("sites.toml", []byte(tt.in))
			if err == nil {
				t.Fatalf("no error; want:\n%s", strings.Join(tt.want, "\n"))
			}
			if l != nil {
				t.Errorf("got a list along with the error")
			}
			got := lines(err)
			ok := len(got) == len(tt.want)
			for i := 0; ok && i < len(got); i++ {
				if p, prefix := strings.CutSuffix(tt.want[i], "*"); prefix {
					ok = strings.HasPrefix(got[i], p)
				} else {
					ok = got[i] == tt.want[i]
				}
			}
			if !ok {
				t.Errorf("got:\n%s\nwant:\n%s", err, strings.Join(tt.want, "\n"))
			}
			var e *Error
			if !errors.As(err, &e) || e.File != "sites.toml" {
				t.Errorf("error does not unwrap to *Error with the file name: %#v", err)
			}
		})
	}
}

func TestParseValid(t *testing.T) {
	in := `# a comment
[global]
max_addresses = 12
max_crawl_delay = "5m"
contact = "ops@example.no"

[[site]]
name = " Eksempel kommune "
url = "https://Kommune.test/"
hosts = ["data.kommune.test", "KOMMUNE.test"]
approved = ["https://data.kommune.test/om/data"]
category = "public-sector"
notes = "Notes."
rechecked = ["2026-12-01", "2027-01-15"]

[[site]]
name = "Stopp"
url = "http://stopp.test"
hosts = ["stopp.test"]
blocked = true
blocked_since = "2026-11-15"
`
	l, err := Parse("list.toml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if l.Path != "list.toml" {
		t.Errorf("Path = %q", l.Path)
	}
	wantGlobal := Global{MaxAddresses: 12, MaxCrawlDelay: 5 * time.Minute, Contact: "ops@example.no"}
	if l.Global != wantGlobal {
		t.Errorf("Global = %+v, want %+v", l.Global, wantGlobal)
	}
	if len(l.Sites) != 2 {
		t.Fatalf("%d sites, want 2", len(l.Sites))
	}
	k := l.Sites[0]
	if k.Name != "Eksempel kommune" || k.URL != "https://Kommune.test/" || k.Host != "kommune.test" || k.Line != 7 {
		t.Errorf("first site = %+v", k)
	}
	if want := []string{"kommune.test", "data.kommune.test"}; !slices.Equal(k.Hosts, want) {
		t.Errorf("Hosts = %q, want %q (home host first, lower-cased, once)", k.Hosts, want)
	}
	if !slices.Equal(k.Approved, []string{"https://data.kommune.test/om/data"}) || k.Category != "public-sector" ||
		k.Notes != "Notes." || !slices.Equal(k.Rechecked, []string{"2026-12-01", "2027-01-15"}) || k.Blocked {
		t.Errorf("first site = %+v", k)
	}
	s := l.Sites[1]
	if s.Host != "stopp.test" || !slices.Equal(s.Hosts, []string{"stopp.test"}) || !s.Blocked ||
		s.BlockedSince != "2026-11-15" || s.Category != DefaultCategory || s.Line != 16 {
		t.Errorf("second site = %+v", s)
	}
}

func TestDefaults(t *testing.T) {
	l, err := Parse("x.toml", []byte("[[site]]\nname = \"A\"\nurl = \"https://a.no/\"\nhosts = [\"a.no\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Global{MaxAddresses: DefaultMaxAddresses, MaxCrawlDelay: DefaultMaxCrawlDelay, Contact: DefaultContact}
	if l.Global != want {
		t.Errorf("Global = %+v, want %+v", l.Global, want)
	}
}

func TestInlineSites(t *testing.T) {
	// Inline tables are unusual in a reviewed list but valid TOML; lines
	// still point at the element.
	in := "site = [\n  {name = \"A\", url = \"https://a.no/\", hosts = [\"a.no\"]},\n  {name = \"B\", url = \"https://b.no/\", hosts = [\"b.no\"], urll = 1},\n]\n"
	_, err := Parse("sites.toml", []byte(in))
	if got, want := lines(err), []string{`sites.toml:3: unknown key "urll" in [[site]]`}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLookup(t *testing.T) {
	l, err := Parse("x.toml", []byte(`[[site]]
name = "A"
url = "https://a.no/"
hosts = ["a.no", "data.a.no"]

[[site]]
name = "B"
url = "https://www.b.no/"
hosts = ["www.b.no"]
`))
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]string{"a.no": "A", "data.a.no": "A", "DATA.A.NO.": "A", "www.b.no": "B"} {
		s, ok := l.Lookup(host)
		if !ok || s.Name != want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", host, s, ok, want)
		}
	}
	for _, host := range []string{"b.no", "x.a.no", ""} {
		if s, ok := l.Lookup(host); ok {
			t.Errorf("Lookup(%q) = %s, want none", host, s.Name)
		}
	}
	if s, _ := l.Lookup("a.no"); s != &l.Sites[0] {
		t.Errorf("Lookup does not point into Sites")
	}
}

func TestCategories(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Categories {
		if c.Name == "" || c.Label == "" || seen[c.Name] {
			t.Errorf("bad or repeated category %+v", c)
		}
		seen[c.Name] = true
	}
	if !seen[DefaultCategory] {
		t.Errorf("DefaultCategory %q is not in Categories", DefaultCategory)
	}
	if got := CategoryLabel("shop"); got != "Shops" {
		t.Errorf("CategoryLabel(shop) = %q", got)
	}
	if got := CategoryLabel("unheard-of"); got != "unheard-of" {
		t.Errorf("CategoryLabel(unheard-of) = %q", got)
	}
}

func TestLoadMissingFile(t *testing.T) {
	if _, err := Load("testdata/no-such-file.toml"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want a not-exist error", err)
	}
}

// TestRealLists loads the lists the project ships.
func TestRealLists(t *testing.T) {
	l, err := Load("../sites.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Sites) < 100 {
		t.Errorf("sites.toml has %d sites, want at least 100", len(l.Sites))
	}
	// Every category of the vocabulary has sites.
	for _, c := range Categories {
		if !slices.ContainsFunc(l.Sites, func(s Site) bool { return s.Category == c.Name }) {
			t.Errorf("sites.toml has no site of category %s", c.Name)
		}
	}
	norwegian := 0
	for _, s := range l.Sites {
		if slices.ContainsFunc(s.Hosts, func(h string) bool { return strings.HasSuffix(h, ".no") }) {
			norwegian++
		}
		if !strings.HasPrefix(s.URL, "https://") {
			t.Errorf("%s: url %q is not https", s.Name, s.URL)
		}
		if s.Blocked {
			t.Errorf("%s is blocked in the shipped list", s.Name)
		}
	}
	if norwegian*2 <= len(l.Sites) {
		t.Errorf("%d of %d sites have a .no host, want more than half", norwegian, len(l.Sites))
	}
	want := Global{MaxAddresses: DefaultMaxAddresses, MaxCrawlDelay: DefaultMaxCrawlDelay, Contact: DefaultContact}
	if l.Global != want {
		t.Errorf("sites.toml [global] = %+v, want the defaults %+v", l.Global, want)
	}

	demo, err := Load("../testdata/demo/sites.toml")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range demo.Sites {
		names = append(names, s.Name)
		for _, h := range s.Hosts {
			if !strings.HasSuffix(h, ".test") {
				t.Errorf("demo site %s has a host outside .test: %s", s.Name, h)
			}
		}
	}
	wantNames := []string{"Eksempel kommune", "Eksempelavisa", "Nede AS", "Stengt AS", "Eksempelbutikken", "Appen", "Åpent register", "Stoppet AS"}
	for _, w := range wantNames {
		if !slices.Contains(names, w) {
			t.Errorf("demo sites = %q, missing %q", names, w)
		}
	}
	// Every host of the demo list is served by the fixture web.
	for _, s := range demo.Sites {
		for _, h := range s.Hosts {
			if st, err := os.Stat("../testdata/web/" + h); err != nil || !st.IsDir() {
				t.Errorf("demo host %s has no folder in testdata/web", h)
			}
		}
	}
	if s, ok := demo.Lookup("data.kommune.test"); !ok || s.Host != "kommune.test" {
		t.Errorf("data.kommune.test does not belong to kommune.test")
	}
	if s, _ := demo.Lookup("register.test"); s == nil || !slices.Equal(s.Approved, []string{"https://register.test/om/datadeling"}) {
		t.Errorf("register.test approved = %v", s)
	}
	if s, _ := demo.Lookup("stopp.test"); s == nil || !s.Blocked || s.BlockedSince != "2026-11-15" {
		t.Errorf("stopp.test is not blocked: %v", s)
	}
}

// FuzzParse checks that no input makes the loader or its line index panic,
// and that an accepted list keeps the loader's promises.
func FuzzParse(f *testing.F) {
	for _, path := range []string{"../sites.toml", "../testdata/demo/sites.toml"} {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("[[site]]\nname = \"A\"\nurl = \"https://a.no/\"\nhosts = [\n 'a.no', # c\n \"\"\"b.no\"\"\",\n]\n"))
	f.Add([]byte("site = [{name = \"A\", url = \"https://a.no/\", x = {y = [1, 2]}}]\n[global]\nmax_crawl_delay = \"1s\"\n"))
	f.Add([]byte("[[site]]\nname = '''A\n'''\nurl = \"https://a.no/\"\nrechecked = [1979-05-27 07:32:00, \"x\"]\n[[site.sub]]\n"))
	f.Add([]byte("[a.\"b.c\".'d']\n\"k\\\"q\" = 1\n[[site]]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = indexLines(data)
		l, err := Parse("f.toml", data)
		if err != nil {
			if l != nil {
				t.Fatal("list and error together")
			}
			for _, line := range lines(err) {
				if !strings.HasPrefix(line, "f.toml") {
					t.Fatalf("problem without the file name: %q", line)
				}
			}
			return
		}
		if len(l.Sites) == 0 || l.Global.MaxAddresses <= 0 || l.Global.MaxCrawlDelay <= 0 {
			t.Fatalf("accepted a list without sites or with bad settings: %+v", l)
		}
		home := map[string]string{}
		for i := range l.Sites {
			s := &l.Sites[i]
			if s.Name == "" || s.Host == "" || !s.Reviewed(s.Host) {
				t.Fatalf("accepted a bad site: %+v", s)
			}
			// Other hosts may be shared; a home host is one site's key.
			if o, dup := home[s.Host]; dup {
				t.Fatalf("home host %s belongs to %s and %s", s.Host, o, s.Name)
			}
			home[s.Host] = s.Name
			if got, ok := l.Lookup(s.Host); !ok || got != s {
				t.Fatalf("Lookup(%s) does not find its site", s.Host)
			}
		}
	})
}
