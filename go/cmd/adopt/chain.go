package main

import (
	"fmt"
	"go/ast"
	"sort"
	"strings"
)

// builderMethods is the surface of scope's drop-in builder (scope.Builder); a test holds it to the real
// type, so a method added there is allowed here. A chain calling anything else would not compile after the
// swap, so it is refused before anything is written.
var builderMethods = map[string]bool{
	"For": true, "Owns": true, "Watches": true, "WithEventFilter": true, "WithOptions": true,
	"WithLogConstructor": true, "Named": true, "Complete": true, "Build": true,
}

// checkChain follows a NewControllerManagedBy call up through its method calls. Only a chain that is
// finished where it starts (ending in Complete or Build) can be swapped by renaming its first call: a
// builder kept in a variable or passed to a function may be used with builder.Builder's type spelled out.
func (p *project) checkChain(c call) *refusal {
	var cur ast.Node = c.expr
	last := ""
	for i := 0; i < len(c.parents); i++ {
		switch n := c.parents[i].(type) {
		case *ast.ParenExpr:
			cur = n
			continue
		case *ast.SelectorExpr:
			if n.X != cur || i+1 >= len(c.parents) {
				break
			}
			next, ok := c.parents[i+1].(*ast.CallExpr)
			if !ok || next.Fun != n {
				break
			}
			if !builderMethods[n.Sel.Name] {
				return &refusal{p.position(n.Sel.Pos()), fmt.Sprintf(
					"the builder chain calls %s, which scope.NewControllerManagedBy does not have (it has %s)",
					n.Sel.Name, surface())}
			}
			last = n.Sel.Name
			cur = next
			i++
			continue
		}
		break
	}
	if last == "Complete" || last == "Build" {
		return nil
	}
	return &refusal{p.position(c.expr.Pos()), fmt.Sprintf(
		"%s here is not one chain ending in Complete or Build (the builder is kept in a variable or passed "+
			"on), so its type may be spelled out elsewhere: swap it for scope.NewControllerManagedBy by hand",
		exprString(c.fun))}
}

func surface() string {
	names := make([]string, 0, len(builderMethods))
	for n := range builderMethods {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func exprString(sel *ast.SelectorExpr) string {
	if id, ok := sel.X.(*ast.Ident); ok {
		return id.Name + "." + sel.Sel.Name
	}
	return sel.Sel.Name
}
