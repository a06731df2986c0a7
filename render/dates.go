package render

import (
	"time"

	"github.com/crawlsignals/crawlsignals/evidence"
)

// date is a moment shown as <time>: ISO for machines, Human for people.
// Every date on the site goes through it, so each one is a <time> element.
type date struct {
	ISO, Human string
	t          time.Time
}

const humanLayout = "2 January 2006, 15:04 UTC"

func dateOf(t time.Time) *date {
	t = t.UTC()
	return &date{ISO: t.Format(time.RFC3339), Human: t.Format(humanLayout), t: t}
}

// newDate reads an RFC 3339 time; nil when it is empty or not one.
func newDate(rfc3339 string) *date {
	if rfc3339 == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339, rfc3339)
	if err != nil {
		return nil
	}
	return dateOf(t)
}

// dayDate reads a calendar day (2006-01-02), shown without a time of day.
func dayDate(day string) *date {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return nil
	}
	return &date{ISO: day, Human: t.Format("2 January 2006"), t: t}
}

// dayOrMonth reads a calendar day, or a month (2006-01) when a source
// names only that, shown as precisely as it was given.
func dayOrMonth(s string) *date {
	if d := dayDate(s); d != nil {
		return d
	}
	t, err := time.Parse("2006-01", s)
	if err != nil {
		return nil
	}
	return &date{ISO: s, Human: t.Format("January 2006"), t: t}
}

// batchDate is the start of a batch, from its name (20261201T060000Z).
func batchDate(batch string) *date {
	t, err := time.Parse(evidence.BatchLayout, batch)
	if err != nil {
		return nil
	}
	return dateOf(t)
}

// Day is the date without the time, for titles ("1 December 2026").
func (d *date) Day() string { return d.t.Format("2 January 2006") }
