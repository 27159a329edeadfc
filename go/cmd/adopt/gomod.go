package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// modFile is the part of `go mod edit -json` adopt-go reads.
type modFile struct {
	Require []struct{ Path, Version string }
	Replace []struct {
		Old struct{ Path string }
		New struct{ Path, Version string }
	}
}

func readMod(dir string) (*modFile, error) {
	out, err := goCmd(dir, "mod", "edit", "-json")
	if err != nil {
		return nil, err
	}
	var m modFile
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		return nil, fmt.Errorf("go mod edit -json: %v", err)
	}
	return &m, nil
}

// modEdits are the `go mod edit` flags that make the project require the module. The module is not
// published, so a project that does not require it yet gets it from this checkout (the directory adopt-go
// runs from) through a replace; a requirement already there, from go get or by hand, is left alone.
func modEdits(m *modFile, scopeDir string) []string {
	for _, r := range m.Require {
		if r.Path == pathScope {
			return nil
		}
	}
	edits := []string{"-require=" + pathScope + "@v0.0.0"}
	for _, r := range m.Replace {
		if r.Old.Path == pathScope {
			return edits
		}
	}
	return append(edits, "-replace="+pathScope+"="+scopeDir)
}

// goCmd runs the go command in dir and returns its output; an error carries the output too.
func goCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s (in %s) failed: %v\n%s", strings.Join(args, " "), dir, err, out.String())
	}
	return out.String(), nil
}

// snapshot keeps files as they were, to put back when a later step fails: a project is either adopted
// and building, or untouched.
type snapshot map[string][]byte // absolute path -> content, nil for a file that did not exist

func takeSnapshot(paths ...string) (snapshot, error) {
	s := snapshot{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		s[p] = b
	}
	return s, nil
}

func (s snapshot) restore() error {
	var errs []string
	for p, b := range s {
		var err error
		if b == nil {
			err = os.Remove(p)
			if os.IsNotExist(err) {
				err = nil
			}
		} else {
			err = os.WriteFile(p, b, 0o644)
		}
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("could not put back: %s", strings.Join(errs, "; "))
	}
	return nil
}

// scopeModuleDir checks that dir is this module's root (where adopt-go's replace will point) and returns
// it absolute.
func scopeModuleDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(abs, "go.mod"))
	if m := moduleLine.FindSubmatch(b); err != nil || m == nil || string(m[2]) != pathScope {
		return "", fmt.Errorf("%s is not the controller-scope Go module (its go.mod must say module %s)", abs, pathScope)
	}
	return abs, nil
}
