package crawl

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/fixture"
)

// A PDF's text is taken while the site goes on: a slow PDF reader holds
// back none of the site's requests, and its text is still saved, at the
// PDF's place among the site's saved texts.
func TestPDFTextDoesNotHoldTheSite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newWeb(t, nil)
		list := listFrom(t, `[[site]]
name = "Butikken"
url = "https://butikk.test/"
hosts = ["butikk.test"]
approved = ["https://butikk.test/kjopsbetingelser.pdf", "https://butikk.test/garn.html", "https://butikk.test/handlekurv.html"]
category = "shop"
`)
		var mu sync.Mutex
		var returned []time.Time
		cfg := Config{PDFText: func(_ string, body []byte) (string, error) {
			time.Sleep(time.Minute) // a slow reader, in the bubble's time
			mu.Lock()
			returned = append(returned, time.Now())
			mu.Unlock()
			return "Kjøpsbetingelsene, som PDF-leseren gav dem.", nil
		}}
		r := crawlMemory(t, srv, list, []string{"butikk.test"}, cfg)
		if r.err != nil {
			t.Fatal(r.err)
		}
		if len(returned) != 1 {
			t.Fatalf("the PDF reader was called %d times, want once", len(returned))
		}
		reqs := r.requests("butikk.test")
		at := slices.IndexFunc(reqs, func(q fixture.Request) bool { return q.Path == "/kjopsbetingelser.pdf" })
		if at < 0 || at == len(reqs)-1 {
			t.Fatalf("the PDF should be asked for before the site's last request: %q", r.paths("butikk.test"))
		}
		for _, q := range reqs[at+1:] {
			if !q.Start.Before(returned[0]) {
				t.Errorf("%s asked at %s, after the PDF reader returned (%s): the site waited for it", q.Path, q.Start, returned[0])
			}
		}
		texts, err := evidence.ReadTexts(r.sum.Dir, "butikk.test")
		if err != nil {
			t.Fatal(err)
		}
		var urls []string
		found := false
		for _, x := range texts {
			urls = append(urls, x.URL)
			if strings.HasSuffix(x.URL, "/kjopsbetingelser.pdf") {
				found = x.Text == "Kjøpsbetingelsene, som PDF-leseren gav dem." && x.Problem == ""
			}
		}
		if !found {
			t.Errorf("the PDF's text is not among the saved texts: %+v", texts)
		}
		if planned := r.planned("butikk.test", urls); !slices.Equal(urls, planned) {
			t.Errorf("saved texts in the order %q, want the plan's %q", urls, planned)
		}
	})
}
