//go:build !linux

package render

import "errors"

// exchange swaps two names in one step where the system can; here it
// cannot, and the swap takes two renames (swap.go).
func exchange(a, b string) error { return errors.ErrUnsupported }
