// Package controller reconciles Websites: a ConfigMap with the page and a Deployment serving it, both owned
// by the Website, and a status written only when it changed.
package controller

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	scope "github.com/controller-scope/controller-scope/go"

	examplev1alpha1 "github.com/controller-scope/controller-scope/examples/go-operator/api/v1alpha1"
)

// CheckEvery is how often a Website is looked at again with no event.
const CheckEvery = 30 * time.Second

// WebsiteReconciler reconciles a Website.
type WebsiteReconciler struct {
	client.Client
	Scheme *runtime.Scheme
	// Buggy writes status.lastReconcileTime on every pass: each write is an update event that enqueues the
	// Website again, a hot loop the dashboard flags.
	Buggy bool
}

// +kubebuilder:rbac:groups=example.controller-scope.dev,resources=websites;websites/status,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch;create;update;patch;delete

func (r *WebsiteReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var site examplev1alpha1.Website
	if err := r.Get(ctx, req.NamespacedName, &site); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}

	page := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: site.Name + "-page", Namespace: site.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, page, func() error {
		page.Data = map[string]string{"index.html": fmt.Sprintf("<h1>%s</h1>\n", titleOf(&site))}
		return controllerutil.SetControllerReference(&site, page, r.Scheme)
	}); err != nil {
		return ctrl.Result{}, err
	}

	deploy := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: site.Name, Namespace: site.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, deploy, func() error {
		mutateDeployment(deploy, &site, page.Name)
		return controllerutil.SetControllerReference(&site, deploy, r.Scheme)
	}); err != nil {
		return ctrl.Result{}, err
	}

	status := site.Status.DeepCopy()
	status.ObservedGeneration = site.Generation
	status.AvailableReplicas = deploy.Status.AvailableReplicas
	if r.Buggy {
		now := metav1.NowMicro()
		status.LastReconcileTime = &now
	}
	if !equality.Semantic.DeepEqual(status, &site.Status) {
		site.Status = *status
		if err := r.Status().Update(ctx, &site); err != nil {
			if apierrors.IsConflict(err) {
				return ctrl.Result{Requeue: true}, nil //nolint:staticcheck // the example shows a rate-limited requeue
			}
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{RequeueAfter: CheckEvery}, nil
}

func titleOf(site *examplev1alpha1.Website) string {
	if site.Spec.Title != "" {
		return site.Spec.Title
	}
	return site.Name
}

func mutateDeployment(d *appsv1.Deployment, site *examplev1alpha1.Website, pageName string) {
	replicas := int32(1)
	if site.Spec.Replicas != nil {
		replicas = *site.Spec.Replicas
	}
	image := site.Spec.Image
	if image == "" {
		image = "nginx:1.27-alpine"
	}
	labels := map[string]string{"app.kubernetes.io/name": "website", "app.kubernetes.io/instance": site.Name}
	d.Spec.Replicas = &replicas
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: labels}
	d.Spec.Template.Labels = labels
	d.Spec.Template.Spec.Volumes = []corev1.Volume{{
		Name:         "page",
		VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: pageName}}},
	}}
	if len(d.Spec.Template.Spec.Containers) != 1 {
		d.Spec.Template.Spec.Containers = []corev1.Container{{}}
	}
	c := &d.Spec.Template.Spec.Containers[0]
	c.Name, c.Image = "nginx", image
	c.VolumeMounts = []corev1.VolumeMount{{Name: "page", MountPath: "/usr/share/nginx/html"}}
}

// SetupWithManager registers the controller. What differs from a plain controller-runtime project is the
// scope import and scope.NewControllerManagedBy in place of ctrl.NewControllerManagedBy.
func (r *WebsiteReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return scope.NewControllerManagedBy(mgr).
		For(&examplev1alpha1.Website{}).
		Owns(&appsv1.Deployment{}).
		Owns(&corev1.ConfigMap{}).
		Named("website").
		Complete(r)
}
