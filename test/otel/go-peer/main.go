// The Go half of the trace test (test/otel/traces.test.ts): one controller-runtime controller built with the
// module's drop-in builder. When the ConfigMap "pong" (written by the TypeScript controller) appears, it
// creates the ConfigMap "ack", which wakes the TypeScript controller again: a chain across both processes
// and both languages, whose spans the test reads back from Jaeger.
package main

import (
	"context"
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	scope "github.com/controller-scope/controller-scope/go"
)

func main() {
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
	acker := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		var pong corev1.ConfigMap
		if err := c.Get(ctx, req.NamespacedName, &pong); err != nil {
			return reconcile.Result{}, client.IgnoreNotFound(err)
		}
		ack := corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: pong.Namespace, Name: "ack"},
			Data:       map[string]string{"for": pong.ResourceVersion},
		}
		if err := c.Create(ctx, &ack); err != nil && !apierrors.IsAlreadyExists(err) {
			return reconcile.Result{}, err
		}
		return reconcile.Result{}, nil
	})
	pongOnly := predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetName() == "pong" })
	if err := scope.NewControllerManagedBy(mgr).Named("acker").For(&corev1.ConfigMap{}).WithEventFilter(pongOnly).Complete(acker); err != nil {
		fmt.Fprintln(os.Stderr, "controller:", err)
		os.Exit(1)
	}
	ctx := ctrl.SetupSignalHandler()
	fmt.Fprintln(os.Stderr, "go-peer: starting")
	err = mgr.Start(ctx)
	// Sends the spans still waiting in the batch before the process ends.
	_ = scope.Default().Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "manager:", err)
		os.Exit(1)
	}
}
