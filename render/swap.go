package render

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// The swap puts a finished build in place of the old site so that the
// name out leads to one whole site at every instant, also when the build
// is killed between its steps (issue 40): a server or an upload reading
// out sees the old site or the new one, never none and never a mix.
//
// Where the system can exchange two names in one step (Linux's
// renameat2 with RENAME_EXCHANGE), the new folder and the old one trade
// names, and the old one, now at the new folder's name, is removed after:
// out is never missing. Elsewhere out is renamed aside and the new folder
// renamed in, two steps with an instant between them when out is missing;
// a build killed there leaves the old site whole at out.old, and the next
// build puts it back first (restoreSwap).

// swapSteps name the steps of a swap, for a test's crash point.
const (
	stepExchange = "exchange"   // the new folder takes out's name, in one step
	stepAside    = "rename-old" // where no exchange: out renamed to out.old
	stepIn       = "rename-new" // then the new folder renamed to out
	stepRemove   = "remove-old" // the old site removed
)

// swapIn puts the finished folder tmp in place of out. before, when set
// (a test), is called before each step; an error from it stops the swap
// there, as a kill would, and is returned. exch swaps two names in one
// step (exchange, or a test's stand-in for a system without it).
func swapIn(tmp, out string, exch func(a, b string) error, before func(step string) error) error {
	step := func(name string) error {
		if before == nil {
			return nil
		}
		return before(name)
	}
	if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
		// No old site: one rename, which is atomic.
		if err := step(stepIn); err != nil {
			return err
		}
		return os.Rename(tmp, out)
	}
	if err := step(stepExchange); err != nil {
		return err
	}
	err := exch(tmp, out)
	if err == nil {
		if err := step(stepRemove); err != nil {
			return err
		}
		return os.RemoveAll(tmp) // the old site, under the new folder's name
	}
	if !errors.Is(err, errors.ErrUnsupported) && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	old := out + ".old"
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	if err := step(stepAside); err != nil {
		return err
	}
	if err := os.Rename(out, old); err != nil {
		return err
	}
	if err := step(stepIn); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Rename(old, out) // the old site back in place
		return err
	}
	if err := step(stepRemove); err != nil {
		return err
	}
	return os.RemoveAll(old)
}

// restoreSwap puts back the old site of a swap killed between its two
// renames (no exchange): out missing, out.old whole. Anything else at
// out.old is the leftover of a swap that finished, and is removed.
func restoreSwap(out string) error {
	old := out + ".old"
	if _, err := os.Lstat(old); err != nil {
		return nil
	}
	if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(old, out)
	}
	return os.RemoveAll(old)
}
