package render

import (
	"slices"
	"testing"
	"time"
)

// Batches run by hand in one minute read apart: a batch started off the
// minute shows its seconds, and a chart's labels are the day, or the time
// of day to the second, whichever tells its bars apart.
func TestBatchesReadApart(t *testing.T) {
	for _, c := range []struct{ batch, want string }{
		{"20261201T060000Z", "1 December 2026, 06:00 UTC"},
		{"20261205T175507Z", "5 December 2026, 17:55:07 UTC"},
	} {
		if got := batchDate(c.batch).Human; got != c.want {
			t.Errorf("batch %s reads %q, want %q", c.batch, got, c.want)
		}
	}
	at := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	for _, c := range []struct {
		name  string
		times []string
		want  []string
	}{
		{"days apart", []string{"2026-11-01T06:00:00Z", "2026-12-01T06:00:00Z"}, []string{"1 Nov", "1 Dec"}},
		{"one day", []string{"2026-12-05T06:00:00Z", "2026-12-05T18:30:00Z"}, []string{"5 Dec 06:00", "5 Dec 18:30"}},
		{"one minute", []string{"2026-12-05T17:55:07Z", "2026-12-05T17:55:41Z"}, []string{"17:55:07", "17:55:41"}},
	} {
		var ts []time.Time
		for _, s := range c.times {
			ts = append(ts, at(s))
		}
		if got := distinctLabels(ts); !slices.Equal(got, c.want) {
			t.Errorf("%s: labels %q, want %q", c.name, got, c.want)
		}
	}
}
