package evidence

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DerivedDir is the folder, inside a batch folder, of derived findings: a
// cache beside the evidence, never evidence itself (package derived, which
// keeps its files there). Merge leaves it out and the evidence store never
// keeps it.
const DerivedDir = ".derived"

// Merged is what Merge did with one artifact.
type Merged struct {
	Artifact string
	Batches  []string // the batch folders it holds, sorted
	Copied   int      // files copied into the store
	Present  int      // files the store already held with the same bytes
	Err      error    // why the artifact was refused; nil when merged
}

// Merge copies the batch folders of each artifact (a folder holding batch
// folders, as one crawl shard or re-check uploads them) into the batches
// folder of the store, write once: an artifact is refused whole, nothing of
// it copied, when one of its batches does not verify (Verify: every record,
// digest and manifest), when it holds anything but batch folders and
// regular files, or when the store already holds one of its files with
// other bytes. A file already there with the same bytes is left as it is,
// so merging the same artifact twice changes nothing. Files are copied
// under a temporary name and renamed without replacing, so a store never
// holds a half-copied file. Derived findings (BATCH/.derived) are a cache
// and are not copied, nor temporary files a killed writer left. The .open
// WARC of a site a killed crawl left unfinished is copied: it is evidence,
// no reader takes it for a complete site, and crawl -resume continues from
// it.
//
// It returns one Merged per artifact, in order, and the batches of the
// artifacts merged, sorted and unique.
func Merge(store string, artifacts []string) ([]Merged, []string) {
	var out []Merged
	var batches []string
	for _, a := range artifacts {
		m := mergeOne(store, a)
		out = append(out, m)
		if m.Err == nil {
			batches = append(batches, m.Batches...)
		}
	}
	slices.Sort(batches)
	return out, slices.Compact(batches)
}

// artifactFile is one file of an artifact and where it goes in the store.
type artifactFile struct {
	from, to string
	present  bool // the store holds it with the same bytes
}

func mergeOne(store, artifact string) Merged {
	m := Merged{Artifact: artifact}
	files, batches, err := artifactFiles(store, artifact)
	m.Batches = batches
	if err != nil {
		m.Err = err
		return m
	}
	if len(batches) == 0 {
		m.Err = fmt.Errorf("evidence: %s holds no batch folder", artifact)
		return m
	}
	var errs []error
	for _, b := range batches {
		errs = append(errs, Verify(filepath.Join(artifact, b))...)
	}
	for i := range files {
		present, err := sameFile(files[i].from, files[i].to)
		if err != nil {
			errs = append(errs, err)
		}
		files[i].present = present
	}
	if len(errs) > 0 {
		m.Err = errors.Join(errs...)
		return m
	}
	for _, f := range files {
		if f.present {
			m.Present++
			continue
		}
		if err := copyNoReplace(f.from, f.to); err != nil {
			// Files copied before this one stay: each is whole and
			// verified, and a second merge finds them present.
			m.Err = err
			return m
		}
		m.Copied++
	}
	return m
}

// artifactFiles lists the files of an artifact's batch folders, refusing
// anything that is not a batch folder or a regular file.
func artifactFiles(store, artifact string) ([]artifactFile, []string, error) {
	entries, err := os.ReadDir(artifact)
	if err != nil {
		return nil, nil, fmt.Errorf("evidence: %w", err)
	}
	var files []artifactFile
	var batches []string
	for _, e := range entries {
		path := filepath.Join(artifact, e.Name())
		if _, err := ParseBatchName(e.Name()); err != nil || !e.IsDir() {
			return nil, nil, fmt.Errorf("evidence: %s: not a batch folder; an artifact holds only batch folders", path)
		}
		batches = append(batches, e.Name())
		err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == DerivedDir {
					return fs.SkipDir
				}
				return nil
			}
			if isTemporary(d.Name()) {
				return nil // a write cut short: never evidence
			}
			if !d.Type().IsRegular() {
				return fmt.Errorf("evidence: %s is not a regular file (%s): refused, evidence is only ever a plain file", p, d.Type())
			}
			rel, err := filepath.Rel(artifact, p)
			if err != nil {
				return err
			}
			files = append(files, artifactFile{from: p, to: filepath.Join(store, rel)})
			return nil
		})
		if err != nil {
			return nil, batches, fmt.Errorf("evidence: %w", err)
		}
	}
	return files, batches, nil
}

// isTemporary tells the temporary name of a write in progress (createTemp:
// a dot, the name, a number, .tmp): a process killed mid-write leaves it,
// and it is not evidence (the .open file of an interrupted WARC is).
func isTemporary(name string) bool {
	return strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp")
}

// sameFile reports whether to exists with the bytes of from; a file there
// with other bytes is an error naming both.
func sameFile(from, to string) (bool, error) {
	st, err := os.Lstat(to)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("evidence: %w", err)
	}
	if !st.Mode().IsRegular() {
		return false, fmt.Errorf("evidence: %s is in the store but is not a regular file", to)
	}
	a, err := os.ReadFile(from)
	if err != nil {
		return false, fmt.Errorf("evidence: %w", err)
	}
	b, err := os.ReadFile(to)
	if err != nil {
		return false, fmt.Errorf("evidence: %w", err)
	}
	if !bytes.Equal(a, b) {
		return false, fmt.Errorf("%w %s: the store holds it with other bytes than %s (evidence is written once; nothing was copied from this artifact)", ErrExists, to, from)
	}
	return true, nil
}

// copyNoReplace copies from to to through a temporary file in to's folder,
// synced, then renamed without replacing.
func copyNoReplace(from, to string) (err error) {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	src, err := os.Open(from)
	if err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	defer src.Close()
	tmp, err := createTemp(filepath.Dir(to), "."+filepath.Base(to)+".")
	if err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := io.Copy(tmp, src); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("evidence: copying %s: %w", from, err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return renameNoReplace(tmp.Name(), to)
}
