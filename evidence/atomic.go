package evidence

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
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
	d, err := os.Open(dir)
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
