package e2e_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/crawlsignals/crawlsignals"
	"github.com/crawlsignals/crawlsignals/derived"
	"github.com/crawlsignals/crawlsignals/evidence"
)

// publisherGroup is the fixture web's two papers that share one
// publisher's host.
const publisherGroup = `[[site]]
name = "Nordposten"
url = "https://nord.test/"
hosts = ["nord.test", "info.fjordmedia.test"]
category = "news"

[[site]]
name = "Sørbladet"
url = "https://sor.test/"
hosts = ["sor.test", "info.fjordmedia.test"]
category = "news"
`

// The publisher group of the fixture web, crawled and derived: the one
// privacy page both papers link to is requested once, and each paper's
// findings (the JSON export of design §6) list it as read, from the one
// record, with the same digest. signals reads the shared record through
// the evidence reader like any other.
func TestSharedHostEvidenceForEverySite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		list, batches, srv := crawlWeb(t, crawlsignals.FixtureWeb(), publisherGroup, "")
		const page = "https://info.fjordmedia.test/personvern"
		n := 0
		for _, q := range srv.Log() {
			if q.Host == "info.fjordmedia.test" && q.Path == "/personvern" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s was requested %d times, want once", page, n)
		}
		all, err := derived.Build(context.Background(), list, batches, derived.Options{})
		if err != nil {
			t.Fatal(err)
		}
		digests := map[string]string{}
		for _, s := range all {
			// Judged from the export, the public contract.
			data, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var export struct {
				Host string `json:"host"`
				Read []struct {
					URL    string `json:"url"`
					SHA256 string `json:"sha256"`
				} `json:"read"`
				NotRead []struct {
					URL    string `json:"url"`
					Reason string `json:"reason"`
				} `json:"not_read"`
			}
			if err := json.Unmarshal(data, &export); err != nil {
				t.Fatal(err)
			}
			for _, d := range export.Read {
				if d.URL == page {
					digests[export.Host] = d.SHA256
				}
			}
			for _, g := range export.NotRead {
				if g.URL == page {
					t.Errorf("%s: %s not read: %s", export.Host, page, g.Reason)
				}
			}
		}
		if len(digests) != 2 || digests["nord.test"] == "" || digests["nord.test"] != digests["sor.test"] {
			t.Errorf("read %s per site (sha256): %v; want both papers, one digest", page, digests)
		}
	})
}

// Issue 24, item 4: a site whose shared records are stored by the other
// site kept its documents read, from its derived findings, after that
// WARC was gone; and the error did not name it. The derived key covers
// every WARC the findings read.
func TestDerivedFindingsOfSharedRecordsGoWithTheirWARC(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		list, batches, _ := crawlWeb(t, crawlsignals.FixtureWeb(), publisherGroup, "20261201T060000Z")
		dir := filepath.Join(batches, "20261201T060000Z")
		// Which paper points at the other's WARC for the shared page.
		pointer, storer := "", ""
		for _, host := range []string{"nord.test", "sor.test"} {
			m, err := evidence.ReadManifest(filepath.Join(dir, host+".json"))
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range m.Addresses {
				for _, x := range a.Exchanges {
					if x.StoredBy != "" && x.StoredBy != host {
						pointer, storer = host, x.StoredBy
					}
				}
			}
		}
		if pointer == "" {
			t.Fatal("no record is stored by the other site")
		}
		opt := derived.Options{Code: "test-1"}
		if _, err := derived.Build(context.Background(), list, batches, opt); err != nil {
			t.Fatal(err)
		}
		gone := filepath.Join(dir, storer+".warc.gz")
		if err := os.Rename(gone, gone+".moved"); err != nil {
			t.Fatal(err)
		}
		warm, werr := derived.Build(context.Background(), list, batches, opt)
		opt.Fresh = true
		fresh, ferr := derived.Build(context.Background(), list, batches, opt)
		if werr == nil || ferr == nil {
			t.Fatalf("builds without %s: warm %v, fresh %v", gone, werr, ferr)
		}
		for _, s := range warm {
			if s.Host != pointer {
				continue
			}
			for _, f := range fresh {
				if f.Host == pointer && len(s.Read) != len(f.Read) {
					t.Errorf("%s: a warm build shows %d documents read, a fresh one %d", pointer, len(s.Read), len(f.Read))
				}
			}
		}
		// The pointing site's own error names the missing file.
		named := false
		for _, line := range strings.Split(werr.Error(), "\n") {
			if strings.HasPrefix(line, pointer+":") && strings.Contains(line, storer) {
				named = true
			}
		}
		if !named {
			t.Errorf("no error of %s names %s: %v", pointer, gone, werr)
		}
	})
}
