package sites

import (
	"slices"
	"strings"
	"testing"
)

// hosts is the reviewed list itself: a site must write it, with its url's
// host among it, or the url's host would be crawled without anyone having
// reviewed it. A blocked site says since when. Each problem names the file,
// the line and the site.
func TestReviewedHostsAreWritten(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // the whole error, one problem a line; nil: it loads
	}{
		{
			name: "no hosts",
			in: `[[site]]
name = "Avisa"
url = "https://avisa.no/"
`,
			want: []string{`sites.toml:1: site "Avisa" has no hosts: list the hostnames a person reviewed for it, its url's host among them (hosts = ["avisa.no"])`},
		},
		{
			name: "empty hosts",
			in: `[[site]]
name = "Avisa"
url = "https://avisa.no/"
hosts = []
`,
			want: []string{`sites.toml:4: site "Avisa" has no hosts (the list is empty): list the hostnames a person reviewed for it, its url's host among them (hosts = ["avisa.no"])`},
		},
		{
			name: "url's host not among hosts",
			in: `[[site]]
name = "Avisa"
url = "https://www.avisa.no/"
hosts = ["avisa.no", "data.avisa.no"]
`,
			want: []string{`sites.toml:4: site "Avisa": hosts does not list "www.avisa.no", the host of its url (line 3); add it there, or correct the url: only listed hosts are reviewed`},
		},
		{
			name: "url moved to a host nobody reviewed",
			in: `[[site]]
name = "Avisa"
url = "https://avisa.no/"
hosts = ["avisa.no"]

[[site]]
name = "Bladet"
url = "https://nytt-bladet.no/"
hosts = [
  "bladet.no",
]
`,
			want: []string{`sites.toml:9: site "Bladet": hosts does not list "nytt-bladet.no", the host of its url (line 8); add it there, or correct the url: only listed hosts are reviewed`},
		},
		{
			name: "a blocked site lists its hosts too",
			in: `[[site]]
name = "Stopp"
url = "https://stopp.no/"
blocked = true
blocked_since = "2026-11-15"
`,
			want: []string{`sites.toml:1: site "Stopp" has no hosts: list the hostnames a person reviewed for it, its url's host among them (hosts = ["stopp.no"])`},
		},
		{
			name: "home host listed twice",
			in: `[[site]]
name = "Avisa"
url = "https://avisa.no/"
hosts = ["avisa.no", "AVISA.no"]
`,
			want: []string{`sites.toml:4: hosts: "avisa.no" is listed twice`},
		},
		{
			name: "blocked without blocked_since",
			in: `[[site]]
name = "Stopp"
url = "https://stopp.no/"
hosts = ["stopp.no"]
blocked = true
`,
			want: []string{`sites.toml:5: site "Stopp" is blocked but has no blocked_since: add the day it asked us to stop (blocked_since = YYYY-MM-DD)`},
		},
		{
			name: "every problem of several sites",
			in: `[[site]]
name = "A"
url = "https://a.no/"

[[site]]
name = "B"
url = "https://b.no/"
hosts = ["data.b.no"]
blocked = true
`,
			want: []string{
				`sites.toml:1: site "A" has no hosts: list the hostnames a person reviewed for it, its url's host among them (hosts = ["a.no"])`,
				`sites.toml:8: site "B": hosts does not list "b.no", the host of its url (line 7); add it there, or correct the url: only listed hosts are reviewed`,
				`sites.toml:9: site "B" is blocked but has no blocked_since: add the day it asked us to stop (blocked_since = YYYY-MM-DD)`,
			},
		},
		{
			name: "url's host listed, in any case and place",
			in: `[[site]]
name = "Avisa"
url = "https://Avisa.no/"
hosts = ["data.avisa.no", "AVISA.NO"]
`,
		},
		{
			name: "not blocked, no date needed",
			in: `[[site]]
name = "Avisa"
url = "https://avisa.no/"
hosts = ["avisa.no"]
blocked = false
`,
		},
		{
			name: "blocked with its date",
			in: `[[site]]
name = "Stopp"
url = "https://stopp.no/"
hosts = ["stopp.no"]
blocked = true
blocked_since = 2026-11-15
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Parse("sites.toml", []byte(tt.in))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				for _, s := range l.Sites {
					if len(s.Hosts) == 0 || s.Hosts[0] != s.Host {
						t.Errorf("%s: hosts %q, want its home host %s first", s.Name, s.Hosts, s.Host)
					}
				}
				return
			}
			if err == nil {
				t.Fatalf("loaded; want:\n%s", strings.Join(tt.want, "\n"))
			}
			if got := lines(err); !slices.Equal(got, tt.want) {
				t.Errorf("got:\n%s\nwant:\n%s", err, strings.Join(tt.want, "\n"))
			}
		})
	}
	// A valid site keeps its hosts as written, home host first, each once.
	l, err := Parse("sites.toml", []byte(tests[8].in))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.Sites[0].Hosts, []string{"avisa.no", "data.avisa.no"}; !slices.Equal(got, want) {
		t.Errorf("Hosts = %q, want %q", got, want)
	}
}

// Every list the project ships loads under these rules (sites.toml and
// testdata/demo are loaded by TestRealLists too).
func TestShippedListsWriteTheirHosts(t *testing.T) {
	for _, path := range []string{"../sites.toml", "../testdata/demo/sites.toml", "../testdata/hostile/sites.toml", "../testdata/weekly/sites.toml"} {
		l, err := Load(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		for _, s := range l.Sites {
			if !s.Reviewed(s.Host) {
				t.Errorf("%s: %s: home host %s not reviewed", path, s.Name, s.Host)
			}
		}
	}
}
