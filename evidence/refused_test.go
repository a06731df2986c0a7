package evidence

import (
	"errors"
	"net/url"
	"testing"
	"time"
)

// A record the WARC library refuses (here a request line with a raw space,
// which no reader could parse) costs that exchange only: nothing of it is
// written, the error says so, and the site's WARC goes on and completes.
func TestRefusedRecordCostsTheExchangeOnly(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, "a.test", map[string]string{"software": "crawlsignals/test"})
	if err != nil {
		t.Fatal(err)
	}
	bad := get(t, "https://a.test/terms", 200, nil, []byte("x"))
	bad.Request.URL = &url.URL{Scheme: "https", Host: "a.test", Path: "/terms", RawQuery: "a b"}
	if _, err := w.Record(bad); !errors.Is(err, ErrRecordRefused) {
		t.Fatalf("record with a raw space: error %v, want ErrRecordRefused", err)
	}
	good := get(t, "https://a.test/privacy", 200, nil, []byte("privacy"))
	ex, err := w.Record(good)
	if err != nil {
		t.Fatalf("the next exchange: %v", err)
	}
	m := Manifest{Name: "A", Started: testTime, Finished: testTime.Add(time.Minute), Addresses: []Address{
		{URL: "https://a.test/privacy", FoundVia: "footer", Outcome: OutcomeRead, Status: 200, Exchanges: []Exchange{ex}},
	}}
	if err := w.Close(m); err != nil {
		t.Fatal(err)
	}
	if errs := Verify(dir); len(errs) > 0 {
		t.Fatalf("verify: %v", errs)
	}
}
