package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// adopt rewrites the module at dir to report to controller-scope, or says why it will not. Every check
// comes before the first write, and when go mod tidy or the build fails afterwards every file is put back.
func adopt(dir, scopeDir string, dryRun bool, out io.Writer) error {
	p, err := loadProject(dir)
	if err != nil {
		return err
	}
	pl, err := makePlan(p)
	if err != nil {
		return err
	}
	mod, err := readMod(p.dir)
	if err != nil {
		return err
	}
	modArgs := modEdits(mod, scopeDir)
	if pl.empty() && len(modArgs) == 0 {
		fmt.Fprintf(out, "%s is adopted already: nothing to change.\n", p.dir)
		return nil
	}

	fmt.Fprintf(out, "Adopting %s (module %s):\n", p.dir, p.modPath)
	for _, c := range pl.changes {
		fmt.Fprintf(out, "  %s\n", c)
	}
	steps := [][]string{{"mod", "tidy"}, {"build", "./..."}}
	// A vendored project builds from vendor/, which only `go mod vendor` brings up to date: the build here
	// reads the module cache instead, and rewriting vendor/ is left to the user, who may review it.
	_, err = os.Stat(filepath.Join(p.dir, "vendor", "modules.txt"))
	vendored := err == nil
	if vendored {
		steps[1] = []string{"build", "-mod=mod", "./..."}
	}
	if len(modArgs) > 0 {
		steps = append([][]string{append([]string{"mod", "edit"}, modArgs...)}, steps...)
	}
	if dryRun {
		fmt.Fprint(out, sourceDiffs(p, pl))
		fmt.Fprintln(out, "\n--dry-run: nothing was written. Without it, adopt-go writes the above, then runs:")
		for _, s := range steps {
			fmt.Fprintf(out, "  go %s\n", strings.Join(s, " "))
		}
		return nil
	}

	gomod, gosum := filepath.Join(p.dir, "go.mod"), filepath.Join(p.dir, "go.sum")
	paths := []string{gomod, gosum}
	for rel := range pl.files {
		paths = append(paths, filepath.Join(p.dir, filepath.FromSlash(rel)))
	}
	before, err := takeSnapshot(paths...)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		if rerr := before.restore(); rerr != nil {
			return fmt.Errorf("%v\n%v", err, rerr)
		}
		return fmt.Errorf("%v\nEvery file is as it was before adopt-go ran.", err)
	}
	for rel, b := range pl.files {
		path := filepath.Join(p.dir, filepath.FromSlash(rel))
		info, err := os.Stat(path)
		if err != nil {
			return fail(err)
		}
		if err := os.WriteFile(path, b, info.Mode().Perm()); err != nil {
			return fail(err)
		}
	}
	for _, s := range steps {
		fmt.Fprintf(out, "  go %s\n", strings.Join(s, " "))
		if _, err := goCmd(p.dir, s...); err != nil {
			return fail(err)
		}
	}

	fmt.Fprint(out, sourceDiffs(p, pl))
	after, err := takeSnapshot(gomod, gosum)
	if err != nil {
		return err
	}
	fmt.Fprint(out, unifiedDiff("go.mod", before[gomod], after[gomod]))
	if added, removed := lineChanges(before[gosum], after[gosum]); added+removed > 0 {
		fmt.Fprintf(out, "go.sum: %d lines added, %d removed\n", added, removed)
	}
	if vendored {
		fmt.Fprintln(out, "\nvendor/ is not updated: run go mod vendor, then build as usual.")
	}
	fmt.Fprintln(out, "\nAdopted. Run the manager as usual; it prints where it serves events. Then, in another terminal:\n"+
		"  npx controller-scope attach 127.0.0.1:7071")
	return nil
}

func sourceDiffs(p *project, pl *plan) string {
	var rels []string
	for rel := range pl.files {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	var b strings.Builder
	for _, rel := range rels {
		for _, f := range p.files {
			if f.rel == rel {
				b.WriteString("\n" + unifiedDiff(rel, f.src, pl.files[rel]))
			}
		}
	}
	return b.String()
}

// lineChanges counts the lines only in after (added) and only in before (removed), as sets: go.sum's
// order is sorted, so this is its diff without the cost of one.
func lineChanges(before, after []byte) (added, removed int) {
	in := func(b []byte) map[string]bool {
		m := map[string]bool{}
		for _, l := range splitLines(string(b)) {
			m[l] = true
		}
		return m
	}
	a, z := in(before), in(after)
	for l := range z {
		if !a[l] {
			added++
		}
	}
	for l := range a {
		if !z[l] {
			removed++
		}
	}
	return added, removed
}
