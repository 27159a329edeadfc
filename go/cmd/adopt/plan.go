package main

import (
	"fmt"
	"go/ast"
	"sort"
	"strings"
)

// plan is what adoption changes in the sources: each changed file's new content, and one line per change
// for the summary. It is made in full (or refused) before anything is written.
type plan struct {
	files   map[string][]byte // by path relative to the module root
	changes []string
}

func (pl *plan) empty() bool { return len(pl.files) == 0 }

// makePlan finds the manager, its options and every builder chain, and refuses (returning refused) when
// any of them cannot be rewritten with certainty.
func makePlan(p *project) (*plan, error) {
	calls := p.findCalls()
	var refusals refused
	refuse := func(r *refusal) {
		if r != nil {
			refusals = append(refusals, *r)
		}
	}
	edits := map[*srcFile][]edit{}
	needScope := map[*srcFile]bool{}
	var changes []string
	swapped := map[*srcFile]map[string]int{} // file -> import path -> renamed uses

	var managers, chains, kept []call
	for _, c := range calls {
		if c.skip {
			kept = append(kept, c)
			continue
		}
		switch c.kind {
		case newManager:
			managers = append(managers, c)
		case newBuilder, scopeBuilder:
			chains = append(chains, c)
		}
	}
	for _, c := range kept {
		changes = append(changes, fmt.Sprintf("%s:%d: %s is left as it is (%s)",
			c.file.rel, p.position(c.expr.Pos()).Line, exprString(c.fun), skipMark))
	}
	// Several managers, one of them wrapped by hand after a refusal: that one is the one to tap.
	if len(managers) > 1 {
		var done []call
		for _, m := range managers {
			if w, _ := p.managerOptions(m); w != nil {
				done = append(done, m)
			}
		}
		if len(done) == 1 {
			managers = done
		}
	}

	var wrapped *ast.CallExpr // the scope.Options call that is the manager's options, when already adopted
	switch {
	case len(managers) == 0:
		refuse(&refusal{msg: fmt.Sprintf("no ctrl.NewManager or manager.New call in the module's %d non-test "+
			"Go files: adopt-go wraps the options at the call that makes the manager", len(p.files))})
	case len(managers) > 1:
		for _, m := range managers {
			refuse(&refusal{p.position(m.expr.Pos()), fmt.Sprintf("%s is one of %d calls that make a manager; "+
				"adopt-go cannot tell which one runs the controllers: wrap that one's options by hand "+
				"(scope.Options at the call) and adopt-go takes it as the one", exprString(m.fun), len(managers))})
		}
	default:
		m := managers[0]
		w, r := p.managerOptions(m)
		refuse(r)
		if w != nil {
			wrapped = w
		} else if r == nil {
			arg := m.expr.Args[1]
			name, _ := m.file.scopeName()
			at, end := m.file.offset(p, arg.Pos()), m.file.offset(p, arg.End())
			edits[m.file] = append(edits[m.file], edit{at, at, name + ".Options("}, edit{end, end, ")"})
			needScope[m.file] = true
			changes = append(changes, fmt.Sprintf("%s:%d: the manager's options are wrapped at the %s call: %s.Options(%s)",
				m.file.rel, p.position(m.expr.Pos()).Line, exprString(m.fun), name, p.short(m.file, arg)))
		}
	}

	for _, c := range calls {
		if c.skip {
			continue
		}
		switch c.kind {
		case scopeOptions:
			if c.expr != wrapped {
				refuse(&refusal{p.position(c.expr.Pos()), "scope.Options is called here, not at the NewManager " +
					"call: options wrapped early lose the taps to any later assignment (kubebuilder's " +
					"mgrOptions.Cache = … replaces the tapped cache options), and wrapping again at the call " +
					"would tap everything twice. Remove this wrap and run adopt-go again: it wraps at the call"})
			}
		case typedBuilder:
			refuse(&refusal{p.position(c.expr.Pos()), "builder.TypedControllerManagedBy builds a controller of a " +
				"custom request type; scope.NewControllerManagedBy has no typed form, so this controller cannot be tapped"})
		case plainController:
			refuse(&refusal{p.position(c.expr.Pos()), fmt.Sprintf("%s builds a controller without the builder; "+
				"only controllers built with ctrl.NewControllerManagedBy can be swapped for scope's drop-in builder",
				exprString(c.fun))})
		case newBuilder:
			if r := p.checkChain(c); r != nil {
				refuse(r)
				continue
			}
			name, _ := c.file.scopeName()
			at, end := c.file.offset(p, c.fun.Pos()), c.file.offset(p, c.fun.End())
			edits[c.file] = append(edits[c.file], edit{at, end, name + ".NewControllerManagedBy"})
			needScope[c.file] = true
			if swapped[c.file] == nil {
				swapped[c.file] = map[string]int{}
			}
			swapped[c.file][c.file.pkgOf(c.fun.X)]++
			changes = append(changes, fmt.Sprintf("%s:%d: %s → %s.NewControllerManagedBy",
				c.file.rel, p.position(c.expr.Pos()).Line, exprString(c.fun), name))
		}
	}
	skippedControllers := 0
	for _, c := range kept {
		if c.kind == newBuilder || c.kind == plainController || c.kind == typedBuilder {
			skippedControllers++
		}
	}
	if len(chains) == 0 && skippedControllers == 0 && len(managers) > 0 {
		refuse(&refusal{msg: "no ctrl.NewControllerManagedBy builder chain in the module's non-test Go files: " +
			"without the drop-in builder there are no queue or reconcile events, so adopt-go stops here"})
	}
	if len(refusals) > 0 {
		return nil, refusals
	}

	pl := &plan{files: map[string][]byte{}, changes: changes}
	for f, es := range edits {
		if name, imported := f.scopeName(); needScope[f] && !imported {
			es = append(es, p.addImport(f, name))
		}
		for path, n := range swapped[f] {
			if uses(f, f.nameOf(path)) == n {
				if e, ok := p.removeImport(f, path); ok {
					es = append(es, e)
				}
			}
		}
		out, err := apply(f.rel, f.src, es)
		if err != nil {
			return nil, err
		}
		pl.files[f.rel] = out
	}
	sort.Strings(pl.changes)
	return pl, nil
}

// managerOptions looks at the options argument of the one NewManager call: already wrapped (returned),
// safe to wrap at the call (nil, nil), or coming from where adopt-go cannot see (a refusal).
func (p *project) managerOptions(m call) (*ast.CallExpr, *refusal) {
	if len(m.expr.Args) != 2 {
		return nil, &refusal{p.position(m.expr.Pos()), exprString(m.fun) + " is not called with (config, options)"}
	}
	arg := unparen(m.expr.Args[1])
	if c, ok := arg.(*ast.CallExpr); ok {
		if _, k := classify(m.file, c.Fun); k == scopeOptions {
			return c, nil
		}
		// A Scope of one's own (s, _ := scope.New(cfg); s.Options(o)) is as good as the default one.
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Options" && m.file.nameOf(pathScope) != "" {
			return c, nil
		}
	}
	if pkg := foreignSource(m.file, arg); pkg != "" {
		return nil, &refusal{p.position(arg.Pos()), fmt.Sprintf("the manager's options come from package %s "+
			"(%s): adopt-go cannot see whether they are wrapped there already or changed after; wrap them by "+
			"hand at this call, %s(cfg, scope.Options(...)), and not inside %s", pkg, p.short(m.file, arg),
			exprString(m.fun), pkg)}
	}
	return nil, nil
}

// foreignSource names the imported package an options value is read or built in (otherpkg.Options(),
// otherpkg.Default.Manager), or "" when it is made in this package.
func foreignSource(f *srcFile, e ast.Expr) string {
	e = unparen(e)
	if s, ok := e.(*ast.StarExpr); ok {
		e = unparen(s.X)
	}
	if c, ok := e.(*ast.CallExpr); ok {
		e = unparen(c.Fun)
	}
	for {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		if path := f.pkgOf(sel.X); path != "" {
			return path
		}
		e = unparen(sel.X)
	}
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// short is the source of e as it reads in f, cut to its first line when it spans several.
func (p *project) short(f *srcFile, e ast.Expr) string {
	s := string(f.src[f.offset(p, e.Pos()):f.offset(p, e.End())])
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + "…"
		if strings.HasSuffix(strings.TrimRight(s, "…"), "{") {
			s += "}"
		}
	}
	return s
}
