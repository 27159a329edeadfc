package main

import (
	"go/ast"
	"strings"
)

const (
	pathScope      = "github.com/controller-scope/controller-scope/go"
	pathCtrl       = "sigs.k8s.io/controller-runtime"
	pathManager    = "sigs.k8s.io/controller-runtime/pkg/manager"
	pathBuilder    = "sigs.k8s.io/controller-runtime/pkg/builder"
	pathController = "sigs.k8s.io/controller-runtime/pkg/controller"
)

type callKind int

const (
	notInteresting  callKind = iota
	newManager               // ctrl.NewManager, manager.New
	newBuilder               // ctrl.NewControllerManagedBy, builder.ControllerManagedBy
	scopeBuilder             // scope.NewControllerManagedBy: a chain already adopted
	scopeOptions             // scope.Options
	typedBuilder             // builder.TypedControllerManagedBy[T]: the drop-in has no typed form
	plainController          // controller.New and its kin: no builder to swap
)

var kinds = map[[2]string]callKind{
	{pathCtrl, "NewManager"}:                  newManager,
	{pathManager, "New"}:                      newManager,
	{pathCtrl, "NewControllerManagedBy"}:      newBuilder,
	{pathBuilder, "ControllerManagedBy"}:      newBuilder,
	{pathScope, "NewControllerManagedBy"}:     scopeBuilder,
	{pathScope, "Options"}:                    scopeOptions,
	{pathBuilder, "TypedControllerManagedBy"}: typedBuilder,
	{pathController, "New"}:                   plainController,
	{pathController, "NewTyped"}:              plainController,
	{pathController, "NewUnmanaged"}:          plainController,
	{pathController, "NewTypedUnmanaged"}:     plainController,
}

// call is one call of interest, with the file it is in and the chain of expressions around it (innermost
// first), which is what tells a builder chain from a builder kept in a variable.
type call struct {
	kind    callKind
	file    *srcFile
	expr    *ast.CallExpr
	fun     *ast.SelectorExpr // pkg.Func, the part a rename replaces
	parents []ast.Node        // enclosing nodes, nearest first
	skip    bool              // its line says adopt-go:skip: the user takes care of it
}

// skipMark, in a comment on the line a call starts on, leaves that call alone: the way out of a refusal
// for a call that is right as it is (a second manager for a tool, a controller built without the builder).
const skipMark = "adopt-go:skip"

// findCalls returns every call of interest in the project, in file order.
func (p *project) findCalls() []call {
	var out []call
	for _, f := range p.files {
		marked := map[int]bool{}
		for _, g := range f.ast.Comments {
			for _, c := range g.List {
				if strings.Contains(c.Text, skipMark) {
					marked[p.position(c.Pos()).Line] = true
				}
			}
		}
		var stack []ast.Node
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if c, ok := n.(*ast.CallExpr); ok {
				if sel, k := classify(f, c.Fun); k != notInteresting {
					parents := make([]ast.Node, len(stack))
					for i := range stack {
						parents[i] = stack[len(stack)-1-i]
					}
					out = append(out, call{kind: k, file: f, expr: c, fun: sel, parents: parents,
						skip: marked[p.position(c.Pos()).Line]})
				}
			}
			stack = append(stack, n)
			return true
		})
	}
	return out
}

func classify(f *srcFile, fun ast.Expr) (*ast.SelectorExpr, callKind) {
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun = x.X
	case *ast.IndexListExpr:
		fun = x.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return nil, notInteresting
	}
	path := f.pkgOf(sel.X)
	if path == "" {
		return nil, notInteresting
	}
	return sel, kinds[[2]string{path, sel.Sel.Name}]
}
