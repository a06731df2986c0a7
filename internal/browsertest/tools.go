package browsertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The checkers beside Chromium: the Nu HTML validator (vnu-jar from npm,
// run on Debian's JRE) and axe-core (from npm). .ci/run installs both with
// npm -g; elsewhere $VNU_JAR and $AXE_CORE name the files.

// FindVNU returns the java binary and vnu.jar, or "" when either is missing.
func FindVNU() (java, jar string) {
	java, err := exec.LookPath("java")
	if err != nil {
		return "", ""
	}
	if jar = npmFile("VNU_JAR", "vnu-jar/build/dist/vnu.jar"); jar == "" {
		return "", ""
	}
	return java, jar
}

// FindAxe returns axe.min.js, or "" when it is missing.
func FindAxe() string { return npmFile("AXE_CORE", "axe-core/axe.min.js") }

// npmFile is $env when it names a file, else rel under the global npm root.
func npmFile(env, rel string) string {
	if p := os.Getenv(env); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
		return ""
	}
	for _, root := range npmRoots() {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

func npmRoots() []string {
	roots := []string{"/usr/local/lib/node_modules", "/usr/lib/node_modules"}
	if npm, err := exec.LookPath("npm"); err == nil {
		if out, err := exec.Command(npm, "root", "-g").Output(); err == nil {
			roots = append([]string{strings.TrimSpace(string(out))}, roots...)
		}
	}
	return roots
}
