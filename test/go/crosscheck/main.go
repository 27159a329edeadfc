// The cross-check scenario in Go: three controllers on one manager, each built with the bridge's drop-in
// builder, whose reconcile counts depend only on the script, never on timing. test/go/crosscheck.test.ts runs
// it against a fresh sandbox with the dashboard attached, and the same scenario through our TypeScript runtime
// (scenario.ts here), and compares the two derived views.
//
//   - flaky: fails as many times as the ConfigMap's data.fails says, then succeeds once with RequeueAfter,
//     then succeeds for good (error backoff 5, 10, 20 ms from the default rate limiter, then requeue-after);
//   - hot: bumps data.n on its own ConfigMap on every reconcile up to data.limit, each write waking it again
//     (a hot loop the dashboard must flag), then stops;
//   - owner: creates a Secret its ConfigMap owns; the Secret's create event comes back as a request for the
//     owner.
//
// Only public controller-runtime API plus the module.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	scope "github.com/controller-scope/controller-scope/go"
)

// RequeueAfter is what flaky asks for on its first success.
const RequeueAfter = 30 * time.Millisecond

func named(prefix string) predicate.Predicate {
	return predicate.NewPredicateFuncs(func(o client.Object) bool { return strings.HasPrefix(o.GetName(), prefix) })
}

func intOf(cm *corev1.ConfigMap, key string) int {
	n, _ := strconv.Atoi(cm.Data[key])
	return n
}

func main() {
	flag.Parse()
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		panic(err)
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), scope.Options(ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	}))
	if err != nil {
		fmt.Fprintln(os.Stderr, "manager:", err)
		os.Exit(1)
	}
	c := mgr.GetClient()

	var mu sync.Mutex
	attempts := map[string]int{}
	flaky := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		var cm corev1.ConfigMap
		if err := c.Get(ctx, req.NamespacedName, &cm); err != nil {
			return reconcile.Result{}, client.IgnoreNotFound(err)
		}
		mu.Lock()
		attempts[req.String()]++
		n := attempts[req.String()]
		mu.Unlock()
		fails := intOf(&cm, "fails")
		switch {
		case n <= fails:
			return reconcile.Result{}, fmt.Errorf("attempt %d of %d fails", n, fails)
		case n == fails+1:
			return reconcile.Result{RequeueAfter: RequeueAfter}, nil
		default:
			return reconcile.Result{}, nil
		}
	})

	hot := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		var cm corev1.ConfigMap
		if err := c.Get(ctx, req.NamespacedName, &cm); err != nil {
			return reconcile.Result{}, client.IgnoreNotFound(err)
		}
		n := intOf(&cm, "n")
		if n >= intOf(&cm, "limit") {
			return reconcile.Result{}, nil
		}
		cm.Data["n"] = strconv.Itoa(n + 1)
		return reconcile.Result{}, c.Update(ctx, &cm)
	})

	owner := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		var cm corev1.ConfigMap
		if err := c.Get(ctx, req.NamespacedName, &cm); err != nil {
			return reconcile.Result{}, client.IgnoreNotFound(err)
		}
		var s corev1.Secret
		name := client.ObjectKey{Namespace: cm.Namespace, Name: cm.Name + "-secret"}
		err := c.Get(ctx, name, &s)
		if err == nil || !apierrors.IsNotFound(err) {
			return reconcile.Result{}, err
		}
		s = corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: name.Namespace, Name: name.Name}}
		if err := controllerutil.SetControllerReference(&cm, &s, scheme); err != nil {
			return reconcile.Result{}, err
		}
		return reconcile.Result{}, c.Create(ctx, &s)
	})

	for _, b := range []struct {
		name string
		r    reconcile.Reconciler
		owns bool
	}{{"flaky", flaky, false}, {"hot", hot, false}, {"owner", owner, true}} {
		bld := scope.NewControllerManagedBy(mgr).Named(b.name).For(&corev1.ConfigMap{}).WithEventFilter(named(b.name + "-"))
		if b.owns {
			bld = bld.Owns(&corev1.Secret{})
		}
		if err := bld.Complete(b.r); err != nil {
			fmt.Fprintln(os.Stderr, "controller", b.name+":", err)
			os.Exit(1)
		}
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		fmt.Fprintln(os.Stderr, "manager:", err)
		os.Exit(1)
	}
}
