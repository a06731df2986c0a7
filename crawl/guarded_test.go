package crawl

import (
	"net/http"
	"strings"
	"testing"

	"github.com/crawlsignals/crawlsignals/crawl/guard"
)

// The crawler takes no client but the guard's: a plain one would dial any
// address, keep no limit, and let net/http send requests again unseen.
func TestNewRefusesAClientThatIsNotTheGuard(t *testing.T) {
	list := listFrom(t, "[[site]]\nname = \"Vert\"\nurl = \"http://vert.test/\"\nhosts = [\"vert.test\"]\ncategory = \"reference\"\n")
	guarded := guard.NewClient(guard.Options{})
	copied := *guarded
	for _, tc := range []struct {
		name   string
		client *http.Client
		want   string // what the refusal says; "" for none
	}{
		{"the guard's", guarded, ""},
		{"none", nil, "no HTTP client"},
		{"plain", &http.Client{}, "not the guard's"},
		{"net/http's transport", &http.Client{Transport: http.DefaultTransport}, "not the guard's"},
		{"a copy of the guard's", &copied, "not the guard's"},
	} {
		_, err := New(Config{Batches: t.TempDir(), Client: tc.client}, list, nil)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: err = %v, want a refusal saying %q", tc.name, err, tc.want)
		}
	}
}
