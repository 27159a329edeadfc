package main

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	scope "github.com/controller-scope/controller-scope/go"
)

var update = flag.Bool("update", false, "rewrite testdata/want from what adopt-go makes now")

// copyTree copies the fixture at testdata/name to a temporary directory, as adopt-go is run on a copy.
func copyTree(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("testdata", name)
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func planFor(t *testing.T, dir string) *plan {
	t.Helper()
	p, err := loadProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := makePlan(p)
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

// Each fixture is rewritten exactly as testdata/want holds it (go test -update rewrites those), only the
// files that need it change, and a second run finds nothing to do.
func TestRewritesKubebuilderShapes(t *testing.T) {
	cases := map[string][]string{
		"kubebuilder": {"cmd/main.go", "internal/controller/guestbook_controller.go"},
		"multigroup": {"cmd/main.go", "internal/controller/apps/deployment_controller.go",
			"internal/controller/crew/captain_controller.go", "internal/controller/sea/kraken_controller.go"},
	}
	for name, changed := range cases {
		t.Run(name, func(t *testing.T) {
			dir := copyTree(t, name)
			pl := planFor(t, dir)
			var got []string
			for rel := range pl.files {
				got = append(got, rel)
			}
			sort.Strings(got)
			if !reflect.DeepEqual(got, changed) {
				t.Fatalf("changed files = %v, want %v", got, changed)
			}
			for rel, b := range pl.files {
				golden := filepath.Join("testdata", "want", name, rel+".golden")
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if string(b) != string(want) {
					t.Errorf("%s differs from %s:\n%s", rel, golden, unifiedDiff(rel, want, b))
				}
				if err := os.WriteFile(filepath.Join(dir, rel), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if again := planFor(t, dir); !again.empty() {
				t.Errorf("a second run would change %d files again: %v", len(again.files), again.changes)
			}
		})
	}
}

// The kubebuilder trap: the options literal is assigned to after it is made, so the wrap must be at the
// NewManager call, around the variable, and never around the literal.
func TestWrapsAtTheCallNotTheLiteral(t *testing.T) {
	pl := planFor(t, copyTree(t, "kubebuilder"))
	main := string(pl.files["cmd/main.go"])
	for _, want := range []string{
		"mgrOptions := ctrl.Options{\n",
		"mgrOptions.Cache = cache.Options{",
		"mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), scope.Options(mgrOptions))\n",
	} {
		if !strings.Contains(main, want) {
			t.Errorf("cmd/main.go lacks %q", want)
		}
	}
	if strings.Count(main, "scope.Options(") != 1 {
		t.Errorf("cmd/main.go wraps %d times, want once", strings.Count(main, "scope.Options("))
	}
}

// setupSource is a controller file with one builder chain, for the refusal cases that are about the manager.
const setupSource = `package controller

import (
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func Setup(mgr ctrl.Manager, r reconcile.Reconciler) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(r)
}
`

// The refused cases: each names the file and line where adopt-go cannot be sure, and nothing is planned.
// A line marked "// refused" in a source is where the message must point.
func TestRefuses(t *testing.T) {
	const header = "package main\n\nimport (\n\tctrl \"sigs.k8s.io/controller-runtime\"\n)\n\n"
	cases := []struct {
		name  string
		files map[string]string
		want  []string // message fragments, each at a "// refused" line in the order found
	}{
		{
			name: "two managers",
			files: map[string]string{
				"cmd/a/main.go":                header + "func main() {\n\tmgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{}) // refused\n\t_ = mgr\n}\n",
				"cmd/b/main.go":                header + "func main() {\n\tmgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{}) // refused\n\t_ = mgr\n}\n",
				"internal/controller/setup.go": setupSource,
			},
			want: []string{"ctrl.NewManager is one of 2 calls that make a manager", "ctrl.NewManager is one of 2 calls"},
		},
		{
			name: "options built in another package",
			files: map[string]string{
				"cmd/main.go": "package main\n\nimport (\n\tctrl \"sigs.k8s.io/controller-runtime\"\n\n\t\"example.com/r/internal/config\"\n)\n\n" +
					"func main() {\n\tmgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(),\n\t\tconfig.ManagerOptions()) // refused\n\t_ = mgr\n}\n",
				"internal/config/config.go":    "package config\n\nimport ctrl \"sigs.k8s.io/controller-runtime\"\n\nfunc ManagerOptions() ctrl.Options { return ctrl.Options{} }\n",
				"internal/controller/setup.go": setupSource,
			},
			want: []string{"the manager's options come from package example.com/r/internal/config (config.ManagerOptions())"},
		},
		{
			name: "options wrapped before they are assigned to",
			files: map[string]string{
				"cmd/main.go": `package main

import (
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"

	scope "github.com/controller-scope/controller-scope/go"
)

func main() {
	mgrOptions := scope.Options(ctrl.Options{}) // refused
	mgrOptions.Cache = cache.Options{DefaultNamespaces: map[string]cache.Config{"team-a": {}}}
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), mgrOptions)
	_ = mgr
}
`,
				"internal/controller/setup.go": setupSource,
			},
			want: []string{"scope.Options is called here, not at the NewManager call: options wrapped early lose the taps"},
		},
		{
			name: "a builder kept in a variable, a method the drop-in lacks, a controller without the builder",
			files: map[string]string{
				"cmd/main.go": header + "func main() {\n\tmgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})\n\t_ = mgr\n}\n",
				"internal/controller/kept.go": `package controller

import (
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func SetupKept(mgr ctrl.Manager, r reconcile.Reconciler, owns bool) error {
	b := ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}) // refused
	if owns {
		b = b.Owns(&corev1.Secret{})
	}
	return b.Complete(r)
}
`,
				"internal/controller/raw.go": `package controller

import (
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

func SetupRaw(mgr ctrl.Manager, r reconcile.Reconciler, src source.Source) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).
		WatchesRawSource(src). // refused
		Complete(r)
}
`,
				"internal/controller/plain.go": `package controller

import (
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func SetupPlain(mgr ctrl.Manager, r reconcile.Reconciler) error {
	_, err := controller.New("plain", mgr, controller.Options{Reconciler: r}) // refused
	return err
}
`,
			},
			want: []string{
				"ctrl.NewControllerManagedBy here is not one chain ending in Complete or Build",
				"controller.New builds a controller without the builder",
				"the builder chain calls WatchesRawSource, which scope.NewControllerManagedBy does not have",
			},
		},
		{
			name: "no manager",
			files: map[string]string{
				"internal/controller/setup.go": setupSource,
			},
			want: []string{"no ctrl.NewManager or manager.New call in the module's 1 non-test Go files"},
		},
		{
			name: "no builder chain",
			files: map[string]string{
				"cmd/main.go": header + "func main() {\n\tmgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})\n\t_ = mgr\n}\n",
			},
			want: []string{"no ctrl.NewControllerManagedBy builder chain in the module's non-test Go files"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, marked := writeProject(t, c.files)
			p, err := loadProject(dir)
			if err != nil {
				t.Fatal(err)
			}
			pl, err := makePlan(p)
			r, ok := err.(refused)
			if !ok || pl != nil {
				t.Fatalf("want a refusal, got plan %v, error %v", pl, err)
			}
			msg := r.Error()
			if len(r) != len(c.want) {
				t.Errorf("%d refusals, want %d:\n%s", len(r), len(c.want), msg)
			}
			for i, frag := range c.want {
				if !strings.Contains(msg, frag) {
					t.Errorf("the refusal does not say %q:\n%s", frag, msg)
				}
				if i < len(marked) && !strings.Contains(msg, "  "+marked[i]+": ") {
					t.Errorf("the refusal does not name %s:\n%s", marked[i], msg)
				}
			}
			if !strings.Contains(msg, "nothing was changed") {
				t.Errorf("the refusal does not say nothing was changed:\n%s", msg)
			}
		})
	}
}

// writeProject writes a module example.com/r with files, and returns its directory and the "file:line" of
// each line that ends in "// refused", in file then line order.
func writeProject(t *testing.T, sources map[string]string) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"go.mod": "module example.com/r\n\ngo 1.25.0\n"}
	for rel, src := range sources {
		files[rel] = src
	}
	var marked []string
	for rel, src := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(src, "\n") {
			if strings.HasSuffix(line, "// refused") {
				marked = append(marked, rel+":"+strconv.Itoa(i+1))
			}
		}
	}
	sort.Strings(marked)
	return dir, marked
}

// The example operator is adopted by hand as go/README.md shows: adopt-go finds nothing to change in it.
func TestTheExampleOperatorIsAdoptedAlready(t *testing.T) {
	if pl := planFor(t, filepath.Join("..", "..", "..", "examples", "go-operator")); !pl.empty() {
		t.Errorf("adopt-go would change the example operator: %v", pl.changes)
	}
}

// A dry run names the steps it would run and writes nothing; a vendored project is built from the module
// cache, and vendor/ is not touched.
func TestDryRun(t *testing.T) {
	dir := copyTree(t, "kubebuilder")
	if err := os.MkdirAll(filepath.Join(dir, "vendor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "vendor", "modules.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	main, _ := os.ReadFile(filepath.Join(dir, "cmd", "main.go"))
	var out strings.Builder
	if err := adopt(dir, "/src/controller-scope/go", true, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"+\tmgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), scope.Options(mgrOptions))\n",
		"  go mod edit -require=" + pathScope + "@v0.0.0 -replace=" + pathScope + "=/src/controller-scope/go\n",
		"  go mod tidy\n  go build -mod=mod ./...\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the dry run does not say %q:\n%s", want, out.String())
		}
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "cmd", "main.go")); string(after) != string(main) {
		t.Error("the dry run changed cmd/main.go")
	}
}

// "scope" declared at package level in another file of the package would clash with the import: the
// file gets the module under another name.
func TestImportNameFreeInThePackage(t *testing.T) {
	dir, _ := writeProject(t, map[string]string{
		"cmd/main.go": "package main\n\nimport (\n\tctrl \"sigs.k8s.io/controller-runtime\"\n)\n\n" +
			"func main() {\n\tmgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})\n\t_ = mgr\n}\n",
		"cmd/flags.go":                 "package main\n\nvar scope = \"cluster\"\n",
		"internal/controller/setup.go": setupSource,
	})
	got := string(planFor(t, dir).files["cmd/main.go"])
	for _, want := range []string{
		"ctrlscope \"" + pathScope + "\"",
		"ctrl.NewManager(ctrl.GetConfigOrDie(), ctrlscope.Options(ctrl.Options{}))",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("cmd/main.go lacks %q:\n%s", want, got)
		}
	}
}

// The ways out of a refusal: a call marked adopt-go:skip is left alone (and a controller left so counts as
// seen), and of several managers the one wrapped by hand is the one.
func TestSkipMarksAndAHandWrappedManager(t *testing.T) {
	const mains = "package main\n\nimport (\n\tctrl \"sigs.k8s.io/controller-runtime\"\n\n\tscope \"github.com/controller-scope/controller-scope/go\"\n)\n\n"
	dir, _ := writeProject(t, map[string]string{
		"cmd/manager/main.go": mains + "func main() {\n\tmgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), scope.Options(ctrl.Options{}))\n\t_ = mgr\n}\n",
		"cmd/tool/main.go":    strings.Replace(mains, "\n\tscope \"github.com/controller-scope/controller-scope/go\"\n", "", 1) + "func main() {\n\tmgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})\n\t_ = mgr\n}\n",
		"internal/controller/plain.go": `package controller

import (
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func SetupPlain(mgr ctrl.Manager, r reconcile.Reconciler) error {
	_, err := controller.New("plain", mgr, controller.Options{Reconciler: r}) // adopt-go:skip (no builder)
	return err
}
`,
	})
	pl := planFor(t, dir)
	if !pl.empty() {
		t.Errorf("changed %v, want nothing: the manager is wrapped and the only controller is skipped", pl.changes)
	}
	if len(pl.changes) != 1 || !strings.Contains(pl.changes[0], "internal/controller/plain.go:10: controller.New is left as it is") {
		t.Errorf("changes = %q, want the skipped controller listed", pl.changes)
	}
}

// The chain check allows exactly the drop-in builder's methods.
func TestBuilderSurfaceIsScopeBuilders(t *testing.T) {
	typ := reflect.TypeOf(&scope.Builder{})
	have := map[string]bool{}
	for i := 0; i < typ.NumMethod(); i++ {
		have[typ.Method(i).Name] = true
	}
	if !reflect.DeepEqual(have, builderMethods) {
		t.Errorf("scope.Builder has %v; adopt-go allows %v", have, builderMethods)
	}
}

func TestModEdits(t *testing.T) {
	var none modFile
	if got := modEdits(&none, "/src/go"); !reflect.DeepEqual(got, []string{
		"-require=" + pathScope + "@v0.0.0", "-replace=" + pathScope + "=/src/go"}) {
		t.Errorf("a project without the module: %v", got)
	}
	var required modFile
	required.Require = append(required.Require, struct{ Path, Version string }{pathScope, "v0.1.0"})
	if got := modEdits(&required, "/src/go"); got != nil {
		t.Errorf("a project that requires it already (go get): %v, want no edit", got)
	}
}

func TestUnifiedDiff(t *testing.T) {
	got := unifiedDiff("f", []byte("a\nb\nc\n"), []byte("a\nB\nc\nd\n"))
	want := "--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if unifiedDiff("f", []byte("x\n"), []byte("x\n")) != "" {
		t.Error("equal files have a diff")
	}
}
