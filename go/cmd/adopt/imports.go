package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
)

// scopeName is the name f will use for the module: the one it already imports it under, else "scope"
// unless that name is taken in its package (a variable or parameter anywhere in it, a package-level name
// in another file, an import), then a longer one.
func (f *srcFile) scopeName() (name string, imported bool) {
	if n := f.nameOf(pathScope); n != "" {
		return n, true
	}
	taken := map[string]bool{}
	for n := range f.imps {
		taken[n] = true
	}
	for n := range f.pkgNames {
		taken[n] = true
	}
	for _, n := range []string{"scope", "ctrlscope", "controllerscope"} {
		if !taken[n] {
			return n, false
		}
	}
	return "controllerscope_", false
}

// addImport puts the module's import in its own group at the end of the file's last parenthesized import
// block (where a project's own imports usually are), or in an import line of its own after the package
// clause when the file has no block.
func (p *project) addImport(f *srcFile, name string) edit {
	spec := fmt.Sprintf("%s %s", name, strconv.Quote(pathScope))
	var block *ast.GenDecl
	for _, d := range f.ast.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT && g.Lparen.IsValid() {
			block = g
		}
	}
	if block != nil {
		at := f.offset(p, block.Rparen)
		return edit{at, at, "\n\t" + spec + "\n"}
	}
	at := f.offset(p, f.ast.Name.End())
	return edit{at, at, "\n\nimport " + spec}
}

// removeImport deletes the import of path from f: used when the swap took the file's last use of it
// (a controller file that imported ctrl only for NewControllerManagedBy), which would not compile.
func (p *project) removeImport(f *srcFile, path string) (edit, bool) {
	for _, d := range f.ast.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		for _, s := range g.Specs {
			is := s.(*ast.ImportSpec)
			if v, _ := strconv.Unquote(is.Path.Value); v != path {
				continue
			}
			var from, to token.Pos = is.Pos(), is.End()
			if is.Doc != nil {
				from = is.Doc.Pos()
			}
			if is.Comment != nil {
				to = is.Comment.End()
			}
			if !g.Lparen.IsValid() {
				from, to = g.Pos(), g.End()
			}
			return p.wholeLines(f, from, to), true
		}
	}
	return edit{}, false
}

// wholeLines widens [from, to) to the lines it is on, newline included, so a removal leaves no blank line.
func (p *project) wholeLines(f *srcFile, from, to token.Pos) edit {
	start, end := f.offset(p, from), f.offset(p, to)
	for start > 0 && f.src[start-1] != '\n' {
		start--
	}
	for end < len(f.src) && f.src[end] != '\n' {
		end++
	}
	if end < len(f.src) {
		end++
	}
	return edit{start, end, ""}
}

// uses counts the references to the import named name in f.
func uses(f *srcFile, name string) int {
	n := 0
	ast.Inspect(f.ast, func(node ast.Node) bool {
		if sel, ok := node.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == name && id.Obj == nil {
				n++
			}
		}
		return true
	})
	return n
}
