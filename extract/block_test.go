package extract

import (
	"reflect"
	"testing"
)

// Plain text is read as a reader sees it: hard-wrapped lines run together
// into their paragraph, and Markdown marks start blocks of their own.
func TestLineBlocks(t *testing.T) {
	got := LineBlocks("# Terms\nThe data is licensed\nunder CC BY 4.0.\n\nYou may not:\n- scrape the site\n  - nor mirror it\n| a | b |\nlast line")
	var boxes []string
	var texts []string
	for _, b := range got {
		boxes = append(boxes, b.Box)
		texts = append(texts, b.Text)
	}
	wantText := []string{"# Terms", "The data is licensed under CC BY 4.0.", "You may not:", "- scrape the site", "- nor mirror it", "| a | b |", "last line"}
	wantBox := []string{BoxHeading, BoxText, BoxText, BoxItem, BoxItem, BoxCell, BoxText}
	if !reflect.DeepEqual(texts, wantText) || !reflect.DeepEqual(boxes, wantBox) {
		t.Errorf("LineBlocks:\n got %q %q\nwant %q %q", texts, boxes, wantText, wantBox)
	}
	if got[4].Depth != 2 || got[3].Depth != 1 {
		t.Errorf("list depths %d, %d; want 1, 2", got[3].Depth, got[4].Depth)
	}
}
