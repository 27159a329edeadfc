// A client-go peer for the sandbox's integration test: typed clientset writes with JSON bodies, an
// optimistic-concurrency conflict, a shared informer (client-go 0.36 starts it with a WatchList
// request), a Lease renewal, the dynamic client, and typed writes of the built-in kinds an operator
// creates (a CRD through the apiextensions clientset, workloads, RBAC, events.k8s.io Events). Prints one
// "ok <step>" line per step.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func must(step string, err error) {
	if err != nil {
		fmt.Printf("fail %s: %v\n", step, err)
		os.Exit(1)
	}
	fmt.Printf("ok %s\n", step)
}

func main() {
	mode := "json"
	if len(os.Args) > 2 {
		mode = os.Args[2]
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Args[1])
	must("config", err)
	// Without a second argument the peer writes JSON; "protobuf" keeps client-go's default for typed
	// clients (protobuf bodies for built-in kinds).
	if len(os.Args) < 3 || os.Args[2] != "protobuf" {
		cfg.ContentType = "application/json"
	}
	cs, err := kubernetes.NewForConfig(cfg)
	must("clientset", err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	v, err := cs.Discovery().ServerVersion()
	must("version "+v.GitVersion, err)
	_, lists, err := cs.Discovery().ServerGroupsAndResources()
	must(fmt.Sprintf("discovery %d group-versions", len(lists)), err)

	cms := cs.CoreV1().ConfigMaps("default")
	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "go-cm-"}, Data: map[string]string{"a": "1"}}, metav1.CreateOptions{})
	must("create", err)
	stale := cm.DeepCopy()
	cm.Data["a"] = "2"
	_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	must("update", err)
	stale.Data["a"] = "3"
	_, err = cms.Update(ctx, stale, metav1.UpdateOptions{})
	if !apierrors.IsConflict(err) {
		must("conflict", fmt.Errorf("expected a conflict, got %v", err))
	}
	must("conflict", nil)
	_, err = cms.Get(ctx, "missing", metav1.GetOptions{})
	if !apierrors.IsNotFound(err) {
		must("notfound", fmt.Errorf("expected NotFound, got %v", err))
	}
	must("notfound", nil)

	factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace("default"))
	inf := factory.Core().V1().ConfigMaps().Informer()
	added := make(chan string, 16)
	_, err = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(obj interface{}) {
		added <- obj.(*corev1.ConfigMap).Name
	}})
	must("handler", err)
	stop := make(chan struct{})
	defer close(stop)
	factory.Start(stop)
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		must("informer sync", fmt.Errorf("cache did not sync"))
	}
	must("informer sync", nil)
	_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "go-second-" + mode}}, metav1.CreateOptions{})
	must("create 2", err)
	for seen := false; !seen; {
		select {
		case name := <-added:
			seen = name == "go-second-"+mode
		case <-ctx.Done():
			must("informer add", ctx.Err())
		}
	}
	must("informer add", nil)

	leases := cs.CoordinationV1().Leases("default")
	holder := "go-peer"
	lease, err := leases.Create(ctx, &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "go-lease-" + mode}, Spec: coordinationv1.LeaseSpec{HolderIdentity: &holder}}, metav1.CreateOptions{})
	must("lease create", err)
	now := metav1.NewMicroTime(time.Now())
	lease.Spec.RenewTime = &now
	_, err = leases.Update(ctx, lease, metav1.UpdateOptions{})
	must("lease renew", err)

	dyn, err := dynamic.NewForConfig(cfg)
	must("dynamic", err)
	list, err := dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).List(ctx, metav1.ListOptions{})
	must(fmt.Sprintf("dynamic list %d namespaces", len(list.Items)), err)

	builtins(ctx, cfg, cs, mode)

	policy := metav1.DeletePropagationForeground
	err = cms.Delete(ctx, cm.Name, metav1.DeleteOptions{PropagationPolicy: &policy})
	must("delete", err)
}

// builtins writes, with the typed clientsets (protobuf bodies unless JSON was asked for), the kinds an
// operator creates and reads back what every cluster has.
func builtins(ctx context.Context, cfg *rest.Config, cs *kubernetes.Clientset, mode string) {
	ext, err := apiextclient.NewForConfig(cfg)
	must("apiextensions clientset", err)
	plural := "widgets" + mode
	crd := &apiextv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: plural + ".example.com"},
		Spec: apiextv1.CustomResourceDefinitionSpec{
			Group: "example.com",
			Scope: apiextv1.NamespaceScoped,
			Names: apiextv1.CustomResourceDefinitionNames{Plural: plural, Kind: "Widget" + mode, ListKind: "Widget" + mode + "List", Singular: "widget" + mode},
			Versions: []apiextv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: &apiextv1.JSONSchemaProps{
					Type: "object",
					Properties: map[string]apiextv1.JSONSchemaProps{
						"spec": {Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{
							"size":  {Type: "integer", Default: &apiextv1.JSON{Raw: []byte("3")}},
							"tags":  {Type: "array", Items: &apiextv1.JSONSchemaPropsOrArray{Schema: &apiextv1.JSONSchemaProps{Type: "string"}}},
							"extra": {Type: "object", AdditionalProperties: &apiextv1.JSONSchemaPropsOrBool{Allows: true, Schema: &apiextv1.JSONSchemaProps{Type: "string"}}},
						}},
					},
				}},
			}},
		},
	}
	created, err := ext.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, crd, metav1.CreateOptions{})
	must("crd create", err)
	size := created.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["size"]
	if size.Default == nil || string(size.Default.Raw) != "3" {
		must("crd schema", fmt.Errorf("schema default lost: %+v", size))
	}
	if created.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["tags"].Items.Schema.Type != "string" {
		must("crd schema", fmt.Errorf("items lost"))
	}
	must("crd schema", nil)

	ns := "default"
	labels := map[string]string{"app": "go-" + mode}
	podSpec := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "registry.example/app:1"}}}}
	_, err = cs.AppsV1().StatefulSets(ns).Create(ctx, &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "go-ss-" + mode}, Spec: appsv1.StatefulSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: podSpec}}, metav1.CreateOptions{})
	must("statefulset create", err)
	jobSpec := podSpec.DeepCopy()
	jobSpec.Labels = nil
	jobSpec.Spec.RestartPolicy = corev1.RestartPolicyNever
	job, err := cs.BatchV1().Jobs(ns).Create(ctx, &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "go-job-" + mode}, Spec: batchv1.JobSpec{Template: *jobSpec}}, metav1.CreateOptions{})
	must("job create", err)
	if job.Spec.BackoffLimit == nil || *job.Spec.BackoffLimit != 6 {
		must("job defaults", fmt.Errorf("backoffLimit %v", job.Spec.BackoffLimit))
	}
	must("job defaults", nil)
	_, err = cs.RbacV1().Roles(ns).Create(ctx, &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "go-role-" + mode}, Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get"}}}}, metav1.CreateOptions{})
	must("role create", err)
	_, err = cs.CoreV1().PodTemplates(ns).Create(ctx, &corev1.PodTemplate{ObjectMeta: metav1.ObjectMeta{Name: "go-pt-" + mode}, Template: podSpec}, metav1.CreateOptions{})
	must("podtemplate create", err)
	_, err = cs.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "go-bad-" + mode}, Data: map[string][]byte{"": []byte("x")}}, metav1.CreateOptions{})
	if !apierrors.IsInvalid(err) {
		must("secret empty key", fmt.Errorf("expected Invalid, got %v", err))
	}
	must("secret empty key", nil)
	_, err = cs.CoreV1().Services(ns).Get(ctx, "kubernetes", metav1.GetOptions{})
	must("kubernetes service", err)
	_, err = cs.Discovery().ServerResourcesForGroupVersion("admissionregistration.k8s.io/v1")
	must("discovery admissionregistration", err)

	evName := "go-ev-" + mode
	_, err = cs.EventsV1().Events(ns).Create(ctx, &eventsv1.Event{
		ObjectMeta: metav1.ObjectMeta{Name: evName, Labels: map[string]string{"mode": mode}},
		EventTime:  metav1.NewMicroTime(time.Now()), ReportingController: "example.com/go", ReportingInstance: "go-0",
		Action: "Test", Reason: "Tested", Type: "Normal", Note: "hello",
		Regarding: corev1.ObjectReference{Kind: "Job", Namespace: ns, Name: job.Name},
	}, metav1.CreateOptions{})
	must("event create", err)
	evs, err := cs.EventsV1().Events(ns).List(ctx, metav1.ListOptions{LabelSelector: "mode=" + mode, FieldSelector: "regarding.name=" + job.Name})
	if err == nil && (len(evs.Items) != 1 || evs.Items[0].Name != evName) {
		err = fmt.Errorf("listed %d events", len(evs.Items))
	}
	must("event list by selectors", err)
}
