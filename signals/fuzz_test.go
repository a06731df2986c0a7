package signals

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// FuzzWellKnown reads any text as each well-known file (security.txt,
// llms.txt, tdmrep.json, api-catalog, gpc.json). None panics or loops, and
// what each reports was in the text: a contact or a link is never made up.
func FuzzWellKnown(f *testing.F) {
	for _, s := range []string{
		"Contact: mailto:security@kommune.test\nExpires: 2027-01-01T00:00:00Z\nPolicy: https://kommune.test/policy\n",
		"-----BEGIN PGP SIGNED MESSAGE-----\nContact:\nExpires: soon\n",
		"# Kommune\n> Åpne data for alle.\n- [API](https://data.kommune.test/api)\n- [x](/y) [z](javascript:alert(1))\n[a](b",
		`[{"location":"/","tdm-reservation":1,"tdm-policy":"https://kommune.test/tdm.json"}]`,
		`{"linkset":[{"anchor":"https://api.test/","service-desc":[{"href":"https://api.test/openapi.json"}]}]}`,
		`{"gpc":true,"lastUpdate":"2026-01-01"}`,
		"", "[](", "[[[[]]]]((((", "\xff\xfe",
	} {
		f.Add(s)
	}
	at := time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, text string) {
		const u = "https://kommune.test/.well-known/x"
		s := parseSecurityTxt(u, text, at)
		for _, c := range append(append([]string{}, s.Contact...), s.Policy...) {
			if !strings.Contains(text, c) {
				t.Fatalf("security.txt field %q is not in the text", c)
			}
		}
		l := parseLLMsTxt(u, text)
		if len(l.Links) > maxLLMLinks {
			t.Fatalf("%d llms.txt links, more than %d", len(l.Links), maxLLMLinks)
		}
		for _, k := range l.Links {
			if !strings.Contains(text, "["+k.Text+"]("+k.URL+")") {
				t.Fatalf("llms.txt link [%s](%s) is not in the text", k.Text, k.URL)
			}
		}
		if r, _ := parseTDMRepJSON(u, text, "/"); r != nil && r.URL != u {
			t.Fatalf("tdmrep URL %q", r.URL)
		}
		for _, j := range []*JSONFile{parseAPICatalog(u, text), parseGPC(u, text)} {
			if j.URL != u {
				t.Fatalf("json file %+v", j)
			}
		}
	})
}

// FuzzFrontMatter splits any bytes as a content file and reads them as a
// site's curation. Nothing panics; a split gives back pieces of the file
// (front matter as written, body as its end), and an error names the file.
func FuzzFrontMatter(f *testing.F) {
	for _, s := range []string{
		"+++\n[[quote]]\nurl = \"https://kommune.test/vilkar\"\ntext = \"Vilkår.\"\n+++\nNotat.\n",
		"+++\n+++\n", "+++\n", "+++", "\ufeff+++\r\ntitle = 1\r\n+++\r\nx",
		"+++\n[override]\nverdict = true\n", "no front matter", "+++\n\n+++",
		"+++\n[[quote]]\nurl = 1\ntext = [\n+++\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		front, body, err := SplitFrontMatter("sites/a.test.md", data)
		norm := bytes.ReplaceAll(bytes.TrimPrefix(data, []byte("\ufeff")), []byte("\r\n"), []byte("\n"))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "sites/a.test.md:") {
				t.Fatalf("error %q does not name the file", err)
			}
		} else {
			if !bytes.HasSuffix(norm, body) {
				t.Fatalf("body %q is not the end of the file", body)
			}
			if front != "" && !bytes.HasPrefix(norm, []byte("+++\n"+front)) {
				t.Fatalf("front matter %q is not the start of the file", front)
			}
		}
		_, _ = LoadCuration(fstest.MapFS{"sites/a.test.md": {Data: data}}, "a.test")
	})
}
