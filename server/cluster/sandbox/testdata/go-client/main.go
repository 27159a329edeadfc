// A client-go peer for the sandbox's integration test: typed clientset writes with JSON bodies, an
// optimistic-concurrency conflict, a shared informer (client-go 0.36 starts it with a WatchList
// request), a Lease renewal and the dynamic client. Prints one "ok <step>" line per step.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
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

	policy := metav1.DeletePropagationForeground
	err = cms.Delete(ctx, cm.Name, metav1.DeleteOptions{PropagationPolicy: &policy})
	must("delete", err)
}
