package evidence

import (
	"fmt"
	"os"
)

// checkRegular refuses to read path unless it is a regular file (a
// symbolic link is followed). Evidence is only ever a plain file this
// package wrote; anything else found under its name, a FIFO above all,
// would block a reader forever or never end.
func checkRegular(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("evidence: %s is not a regular file (%s): refused, evidence is only ever a plain file", path, st.Mode().Type())
	}
	return nil
}
