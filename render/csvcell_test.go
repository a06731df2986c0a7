package render

import (
	"bytes"
	"encoding/csv"
	"slices"
	"testing"

	"github.com/crawlsignals/crawlsignals/signals"
)

// A site name a spreadsheet would run as a formula is written as text.
func TestCSVNeutralisesFormulas(t *testing.T) {
	names := map[string]string{
		"=HYPERLINK(\"https://x.test\",\"klikk\")": "'=HYPERLINK(\"https://x.test\",\"klikk\")",
		"+47 avis":   "'+47 avis",
		"-1+1":       "'-1+1",
		"@SUM(A1)":   "'@SUM(A1)",
		"\t=1":       "'\t=1",
		"Kommune =1": "Kommune =1",
	}
	var in []*signals.Site
	i := 0
	for name := range names {
		i++
		in = append(in, &signals.Site{Host: "s" + string(rune('a'+i)) + ".test", Name: name, Category: "other"})
	}
	out := build(t, Input{Sites: in})
	rows, err := csv.NewReader(bytes.NewReader(read(t, out, "sites.csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "name")
	for _, row := range rows[1:] {
		for name, want := range names {
			if row[col] == want {
				delete(names, name)
			}
		}
	}
	if len(names) > 0 {
		t.Errorf("names not written as expected: %q (rows %q)", names, rows)
	}
}
