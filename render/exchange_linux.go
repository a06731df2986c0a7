package render

import (
	"errors"
	"runtime"
	"syscall"
	"unsafe"
)

// renameExchange is renameat2's flag that swaps the two names.
const renameExchange = 1 << 1

// renameat2Number is the system call's number on this architecture; 0
// where it is not known here (then the swap takes two renames).
func renameat2Number() uintptr {
	switch runtime.GOARCH {
	case "amd64":
		return 316
	case "arm64", "riscv64", "loong64":
		return 276
	case "386":
		return 353
	case "arm":
		return 382
	}
	return 0
}

// exchange swaps the names a and b in one step (both must exist).
func exchange(a, b string) error {
	nr := renameat2Number()
	if nr == 0 {
		return errors.ErrUnsupported
	}
	pa, err := syscall.BytePtrFromString(a)
	if err != nil {
		return err
	}
	pb, err := syscall.BytePtrFromString(b)
	if err != nil {
		return err
	}
	cwd := -100 // AT_FDCWD: names relative to the working folder
	_, _, errno := syscall.Syscall6(nr, uintptr(cwd), uintptr(unsafe.Pointer(pa)), uintptr(cwd), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
