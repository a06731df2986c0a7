package evidence

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestReadPartial: a WARC cut in the middle of a record (the writer was
// killed) gives back its whole exchanges, in order, and nothing of the cut one.
func TestReadPartial(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, "a.test", map[string]string{"software": "test"})
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range []string{"https://a.test/robots.txt", "https://a.test/", "https://a.test/terms"} {
		if _, err := w.Record(get(t, u, 200+i, http.Header{"Content-Type": {"text/plain"}}, []byte("body of "+u))); err != nil {
			t.Fatal(err)
		}
	}
	// Killed here: no Abort, no Close. Each Record flushed its exchange.
	open := filepath.Join(dir, "a.test.warc.gz.open")
	info, err := os.Stat(open)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := ReadPartial(open)
	if err != nil || len(whole) != 3 {
		t.Fatalf("ReadPartial of the flushed file: %d exchanges, %v; want 3", len(whole), err)
	}
	// Cut the file inside the last exchange's records.
	if err := os.Truncate(open, info.Size()-40); err != nil {
		t.Fatal(err)
	}
	xs, err := ReadPartial(open)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range xs {
		got = append(got, x.Response.URL)
		if x.Request.Get("User-Agent") == "" || x.Time.IsZero() || string(x.Response.Body) != "body of "+x.Response.URL {
			t.Errorf("%s: request %v, time %v, body %q", x.Response.URL, x.Request, x.Time, x.Response.Body)
		}
	}
	// The last exchange's response record is whole; only its metadata was cut.
	if want := []string{"https://a.test/robots.txt", "https://a.test/", "https://a.test/terms"}; !slices.Equal(got, want) {
		t.Errorf("exchanges of the cut file: %v, want %v", got, want)
	}
	files, err := Unfinished(dir, "a.test")
	if err != nil || !slices.Equal(files, []string{open}) {
		t.Errorf("Unfinished: %v, %v", files, err)
	}
}

// TestBatchRecords: written once, never replaced, never taken for a site.
func TestBatchRecords(t *testing.T) {
	dir := t.TempDir()
	rec := BatchRecord{Batch: "20261201T060000Z", Kind: "crawl", Started: time.Now().UTC(), Sites: []string{"a.test"}}
	if err := WriteBatchStart(dir, rec); err != nil {
		t.Fatal(err)
	}
	if err := WriteBatchStart(dir, rec); err == nil {
		t.Error("batch.json written twice")
	}
	for i := 1; i <= 2; i++ {
		p, err := WriteResume(dir, rec)
		if err != nil || filepath.Base(p) != "resume-"+string(rune('0'+i))+".json" {
			t.Errorf("resume %d: %s, %v", i, p, err)
		}
	}
	if err := WriteDone(dir, "", DoneRecord{Batch: rec.Batch}); err != nil {
		t.Fatal(err)
	}
	if done, _ := Done(dir, ""); !done {
		t.Error("Done is false after WriteDone")
	}
	rec.Shard = "1/4"
	if err := WriteBatchStart(dir, rec); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "batch.shard-1-of-4.json")); err != nil {
		t.Error(err)
	}
	writeSite(t, dir, "a.test")
	got, err := Sites(dir)
	if err != nil || !slices.Equal(got, []string{"a.test"}) {
		t.Errorf("Sites: %v, %v; want only a.test", got, err)
	}
	if _, err := Create(dir, "batch", nil); err == nil {
		t.Error("a site named batch was created")
	}
	if errs := Verify(dir); len(errs) > 0 {
		t.Errorf("Verify: %v", errs)
	}
}

func TestSavedTextsWrittenOnce(t *testing.T) {
	dir := t.TempDir()
	texts := []SavedText{{URL: "https://a.test/vilkar", FinalURL: "https://a.test/vilkar", ContentType: "text/html", Charset: "utf-8", CharsetRule: "header", Text: "Vilkår for bruk"}}
	if err := WriteTexts(dir, "a.test", texts); err != nil {
		t.Fatal(err)
	}
	if err := WriteTexts(dir, "a.test", nil); err == nil {
		t.Fatal("saved texts were overwritten")
	}
	got, err := ReadTexts(dir, "a.test")
	if err != nil || len(got) != 1 || got[0].Text != "Vilkår for bruk" {
		t.Fatalf("got %+v, %v", got, err)
	}
	if ss, _ := Sites(dir); len(ss) != 0 {
		t.Errorf("saved texts mistaken for a manifest: %v", ss)
	}
}
