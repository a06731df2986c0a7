package robots

import (
	"path/filepath"
	"runtime"
	"strconv"
)

// sharedDir is /work/shared as seen from this package: ../../shared from the
// package folder (../shared from the project root).
func sharedDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "shared")
}

func formatSeconds(s float64) string { return strconv.FormatFloat(s, 'f', -1, 64) }
