package sites

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// Error is one problem found in a sites file, with the place it was found.
type Error struct {
	File string
	Line int // 0 when the problem belongs to the file as a whole
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
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
