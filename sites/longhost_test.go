package sites

import (
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/policy"
)

// hostOf is a valid host name of n characters: labels of 50 letters.
func hostOf(n int) string {
	var b strings.Builder
	for b.Len() < n-len(".no") {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(strings.Repeat("a", min(50, n-len(".no")-b.Len())))
	}
	return b.String() + ".no"
}

// A home host too long to name the site's evidence files is refused at
// load, at the url's line, before any request is sent; the longest that
// fits is accepted.
func TestHomeHostThatNamesFilesMustFit(t *testing.T) {
	list := func(host string) string {
		return "[[site]]\nname = \"A\"\nurl = \"https://" + host + "/\"\nhosts = [\"" + host + "\"]\n"
	}
	ok := hostOf(policy.MaxSiteHost)
	if len(ok) != policy.MaxSiteHost || hostProblem(ok) != "" {
		t.Fatalf("test host %q (%d): %s", ok, len(ok), hostProblem(ok))
	}
	if _, err := Parse("sites.toml", []byte(list(ok))); err != nil {
		t.Errorf("host of %d characters: %v", len(ok), err)
	}
	long := hostOf(238) // valid as a host name, too long as a file name
	if hostProblem(long) != "" {
		t.Fatalf("test host %q: %s", long, hostProblem(long))
	}
	_, err := Parse("sites.toml", []byte(list(long)))
	if err == nil || !strings.HasPrefix(err.Error(), "sites.toml:3: ") || !strings.Contains(err.Error(), "at most 200") {
		t.Errorf("host of %d characters: error %v, want sites.toml:3 and the limit", len(long), err)
	}
}
