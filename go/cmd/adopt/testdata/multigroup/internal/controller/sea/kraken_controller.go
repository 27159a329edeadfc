package sea

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// KrakenReconciler reconciles Services. It is built with builder.ControllerManagedBy (what
// ctrl.NewControllerManagedBy calls) and imports pkg/builder for nothing else, so adoption must drop that
// import.
type KrakenReconciler struct {
	client.Client
}

func (r *KrakenReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var s corev1.Service
	return reconcile.Result{}, client.IgnoreNotFound(r.Get(ctx, req.NamespacedName, &s))
}

// SetupWithManager sets up the controller with the Manager.
func (r *KrakenReconciler) SetupWithManager(mgr manager.Manager) error {
	_, err := builder.ControllerManagedBy(mgr).
		For(&corev1.Service{}).
		Named("sea-kraken").
		Build(r)
	return err
}
