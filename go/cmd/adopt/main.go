// Command adopt rewrites a controller-runtime project to report to the controller-scope dashboard: the
// module's import, scope.Options at the call that makes the manager, and scope.NewControllerManagedBy for
// each builder chain; then go mod edit, go mod tidy and go build. It refuses, naming file and line, where
// it cannot be sure the rewrite is right. `controller-scope adopt-go DIR` builds it in go/ and runs it;
// from go/, by hand:
//
//	go run ./cmd/adopt [-dry-run] [-scope-module DIR] PROJECT
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	dryRun := flag.Bool("dry-run", false, "print what would change and write nothing")
	scopeModule := flag.String("scope-module", ".", "this module's directory, which a project that does not require it yet is pointed at (go mod edit -replace)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: adopt [-dry-run] [-scope-module DIR] PROJECT\n\nPROJECT is the root of a controller-runtime Go module (the directory with go.mod).")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	scopeDir, err := scopeModuleDir(*scopeModule)
	if err == nil {
		err = adopt(flag.Arg(0), scopeDir, *dryRun, os.Stdout)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "adopt-go: %v\n", err)
		os.Exit(1)
	}
}
