package sites

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Error is one problem found in a sites file, with the place it was found.
type Error struct {
	File string
	Line int // 0 when the problem belongs to the file as a whole
	Msg  string
}

func (e *Error) Error() string {
	msg := oneLine(e.Msg)
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, msg)
	}
	return e.File + ": " + msg
}

// oneLine escapes line breaks and other control characters in a message
// (a key or a decoder's text can carry them), so that each problem stays
// on one line and every line of a joined error starts with FILE:LINE.
func oneLine(s string) string {
	isBreak := func(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }
	if !strings.ContainsFunc(s, isBreak) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isBreak(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// joinErrors sorts the problems by line (then by text, so the order never
// depends on map iteration) and joins them, one per line of the message.
func joinErrors(errs []*Error) error {
	if len(errs) == 0 {
		return nil
	}
	slices.SortStableFunc(errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Msg, b.Msg))
	})
	all := make([]error, len(errs))
	for i, e := range errs {
		all[i] = e
	}
	return errors.Join(all...)
}
