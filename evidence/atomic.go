package evidence

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// ErrExists is returned when writing would replace a file already in a
// batch: evidence, once written, is never changed.
var ErrExists = errors.New("evidence: refusing to overwrite")

// renameNoReplace moves from to to, failing with ErrExists when to already
// exists, and makes the new name durable. os.Rename would silently replace
// an existing file, so a hard link (which the kernel refuses to create over
// an existing name, atomically) does the move; where the file system has no
// hard links we fall back to check-then-rename, which is racy only against
// another process writing the same batch at the same moment.
func renameNoReplace(from, to string) error {
	err := os.Link(from, to)
	switch {
	case err == nil:
		if err := os.Remove(from); err != nil {
			return fmt.Errorf("evidence: %s is in place but the temporary %s could not be removed: %w", to, from, err)
		}
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%w %s", ErrExists, to)
	default:
		if _, serr := os.Lstat(to); serr == nil {
			return fmt.Errorf("%w %s", ErrExists, to)
		} else if !errors.Is(serr, fs.ErrNotExist) {
			return serr
		}
		if err := os.Rename(from, to); err != nil {
			return err
		}
	}
	return syncDir(filepath.Dir(to))
}

// writeFileNoReplace writes data to path atomically: readers see either no
// file or the complete one, never a part, and an existing file is never
// replaced. The temporary name starts with a dot and ends in .tmp so that
// Sites never mistakes it for a manifest.
func writeFileNoReplace(path string, data []byte) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%w %s", ErrExists, path)
	}
	tmp, err := createTemp(dir, "."+base+".")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	// fsync before the rename: otherwise a crash can leave the new name
	// pointing at an empty file, which is worse than no file.
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return renameNoReplace(tmp.Name(), path)
}

// syncDir makes a change of directory entries (a create or a rename) durable.
func syncDir(dir string) error {
	d, err := openFile(dir, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	serr := d.Sync()
	cerr := d.Close()
	return errors.Join(serr, cerr)
}

// exists reports whether path exists; an error other than "not there"
// means we cannot tell, and callers stop rather than risk an overwrite.
func exists(path string) (bool, error) {
	_, err := os.Lstat(path)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return false, err
}

// openFile is os.OpenFile without the network poller. On Linux os.OpenFile
// offers every file it opens to epoll, which refuses regular files and
// folders: four fcntl calls and a failing epoll_ctl for each open, and a
// crawl opens seven files a site as it completes its evidence. Regular
// files and folders block on their reads and writes either way.
func openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}

// createTemp makes a new file named prefix, a random number and .tmp in
// dir, readable by its owner only, like os.CreateTemp.
func createTemp(dir, prefix string) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+".tmp")
		f, err := openFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("evidence: no free temporary name in %s", dir)
}
