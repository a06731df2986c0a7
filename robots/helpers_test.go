package robots

import (
	"path/filepath"
	"strconv"
)

// sharedDir is the project's shared folder as seen from this package's
// folder, where tests run: ../shared from the project root.
func sharedDir() string { return filepath.Join("..", "..", "shared") }

func formatSeconds(s float64) string { return strconv.FormatFloat(s, 'f', -1, 64) }
