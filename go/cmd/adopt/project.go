package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// project is the Go source of one module, parsed: the files adopt-go may rewrite.
type project struct {
	dir     string // the module root, absolute
	modPath string
	fset    *token.FileSet
	files   []*srcFile
}

type srcFile struct {
	rel  string // slash-separated, relative to the module root: what messages name
	src  []byte
	ast  *ast.File
	imps map[string]string // import name as used in this file -> import path
	// pkgNames holds every identifier in the files of this file's package (its directory), shared by them:
	// an import added to one file must not collide with a name declared in another.
	pkgNames map[string]bool
}

var moduleLine = regexp.MustCompile(`(?m)^module\s+("?)([^\s"]+)("?)\s*$`)

// loadProject parses every non-test .go file of the module rooted at dir. Tests are left out on purpose:
// a test that builds its own manager should not open the bridge's port, and envtest suites rarely need a
// tap. Nested modules, vendor/ and testdata/ belong to someone else and are skipped.
func loadProject(dir string) (*project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	gomod, err := os.ReadFile(filepath.Join(abs, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("%s has no go.mod: give the root of a Go module (the directory with go.mod)", abs)
	}
	m := moduleLine.FindSubmatch(gomod)
	if m == nil {
		return nil, fmt.Errorf("%s: no module line", filepath.Join(abs, "go.mod"))
	}
	p := &project{dir: abs, modPath: string(m[2]), fset: token.NewFileSet()}
	err = filepath.WalkDir(abs, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path == abs {
				return nil
			}
			if name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		return p.add(path)
	})
	if err != nil {
		return nil, err
	}
	byDir := map[string]map[string]bool{}
	for _, f := range p.files {
		dir := filepath.Dir(f.rel)
		if byDir[dir] == nil {
			byDir[dir] = map[string]bool{}
		}
		f.pkgNames = byDir[dir]
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				f.pkgNames[id.Name] = true
			}
			return true
		})
	}
	return p, nil
}

func (p *project) add(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	rel, _ := filepath.Rel(p.dir, path)
	rel = filepath.ToSlash(rel)
	f, err := parser.ParseFile(p.fset, rel, src, parser.ParseComments)
	if err != nil {
		return fmt.Errorf("cannot parse %s: %v (adopt-go rewrites only code that compiles)", rel, err)
	}
	if bytes.Contains(src, []byte("\r\n")) {
		return fmt.Errorf("%s has CRLF line endings: convert it to LF (gofmt does) and run adopt-go again", rel)
	}
	p.files = append(p.files, &srcFile{rel: rel, src: src, ast: f, imps: importNames(f)})
	return nil
}

// defaultNames are the package names of the import paths adopt-go looks for whose last element is not
// their name; any other path's name is its last element.
var defaultNames = map[string]string{
	pathCtrl:  "controllerruntime",
	pathScope: "scope",
}

func importNames(f *ast.File) map[string]string {
	names := map[string]string{}
	for _, s := range f.Imports {
		path := strings.Trim(s.Path.Value, "`\"")
		name := defaultNames[path]
		if name == "" {
			name = path[strings.LastIndex(path, "/")+1:]
		}
		if s.Name != nil {
			name = s.Name.Name
		}
		names[name] = path
	}
	return names
}

// pkgOf is the import path that ident names in f, or "" when it names no import (a local variable of the
// same name shadows the import: the parser resolves locals, and leaves package names unresolved).
func (f *srcFile) pkgOf(e ast.Expr) string {
	id, ok := e.(*ast.Ident)
	if !ok || id.Obj != nil {
		return ""
	}
	return f.imps[id.Name]
}

// nameOf is the name f imports path under, or "" (a blank or dot import gives no name to refer to it by).
func (f *srcFile) nameOf(path string) string {
	for n, p := range f.imps {
		if p == path && n != "_" && n != "." {
			return n
		}
	}
	return ""
}

func (p *project) position(pos token.Pos) token.Position { return p.fset.Position(pos) }

func (f *srcFile) offset(p *project, pos token.Pos) int { return p.fset.Position(pos).Offset }
