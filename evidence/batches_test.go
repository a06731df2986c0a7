package evidence

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestBatches(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{
		"20261201T060000Z",
		"20250101T000000Z",
		"20261130T235959Z",
		"20261201T055959Z",
		"notes",
		"20261301T000000Z",   // no 13th month
		"20261201T060000+01", // not UTC
		"2026-12-01T06:00:00Z",
	} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "20270101T000000Z"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Batches(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"20250101T000000Z", "20261130T235959Z", "20261201T055959Z", "20261201T060000Z"}
	if !slices.Equal(got, want) {
		t.Errorf("Batches = %v, want %v", got, want)
	}
	if _, err := Batches(filepath.Join(dir, "missing")); err == nil {
		t.Error("Batches of a missing folder: no error")
	}
}

func TestNewBatchName(t *testing.T) {
	oslo := time.FixedZone("CET", 3600)
	tests := []struct {
		t    time.Time
		want string
	}{
		{time.Date(2026, 12, 1, 7, 0, 0, 999, oslo), "20261201T060000Z"},
		{time.Date(2027, 1, 1, 0, 30, 0, 0, oslo), "20261231T233000Z"},
	}
	for _, tt := range tests {
		got := NewBatchName(tt.t)
		if got != tt.want {
			t.Errorf("NewBatchName(%v) = %s, want %s", tt.t, got, tt.want)
		}
		back, err := ParseBatchName(got)
		if err != nil || !back.Equal(tt.t.Truncate(time.Second)) {
			t.Errorf("ParseBatchName(%s) = %v, %v", got, back, err)
		}
	}
}

func TestSites(t *testing.T) {
	dir := t.TempDir()
	writeSite(t, dir, "b.test", get(t, "https://b.test/", 200, nil, nil))
	writeSite(t, dir, "a.test", get(t, "https://a.test/", 200, nil, nil))
	w, err := Create(dir, "open.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for _, name := range []string{".c.test.json.123.tmp", "notes.txt", "bad:name.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Sites(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.test", "b.test"}; !slices.Equal(got, want) {
		t.Errorf("Sites = %v, want %v", got, want)
	}
}
