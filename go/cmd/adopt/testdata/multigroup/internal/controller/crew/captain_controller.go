package crew

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// CaptainReconciler reconciles the captain's ConfigMap, and wakes for the Secrets next to it.
type CaptainReconciler struct {
	client.Client
}

func (r *CaptainReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	return ctrl.Result{}, client.IgnoreNotFound(r.Get(ctx, req.NamespacedName, &cm))
}

// captainOf maps a Secret to the ConfigMap of the same name. Its parameter is called scope, so adoption
// must import the module under another name in this file.
func captainOf(_ context.Context, scope client.Object) []reconcile.Request {
	return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: scope.GetNamespace(), Name: scope.GetName()}}}
}

// SetupWithManager sets up the controller with the Manager.
func (r *CaptainReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.ConfigMap{}).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(captainOf)).
		WithEventFilter(predicate.ResourceVersionChangedPredicate{}).
		Named("crew-captain").
		Complete(r)
}
