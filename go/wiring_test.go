package scope

import (
	"encoding/json"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// The lifecycle events name every builder call and the queue, so the dashboard's Controller header shows
// For · Owns · Watches and not For alone.
func TestLifecycleEventsCarryForOwnsWatchesAndTheQueue(t *testing.T) {
	b := &Builder{
		forObj:  &appsv1.ReplicaSet{},
		owns:    []ownsInput{{obj: &corev1.Pod{}}},
		watches: []watchesInput{{obj: &appsv1.Deployment{}, h: handler.EnqueueRequestsFromMapFunc(nil)}},
	}
	gvks := &gvkCache{scheme: scheme.Scheme}
	w := b.wiringOf(gvks, "apps/v1/ReplicaSet", controller.Options{}, true)
	line, err := json.Marshal(w.on(protocol.ControllerLifecycleEvent{Controller: "rs", Phase: "started"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"sources":[{"role":"for","kind":"apps/v1/ReplicaSet","handler":"EnqueueRequestForObject"},{"role":"owns","kind":"v1/Pod","handler":"EnqueueRequestForOwner"},{"role":"watches","kind":"apps/v1/Deployment","handler":`,
		`"queueKind":"priority"`,
		`"rateLimiter":"default"`,
	} {
		if !strings.Contains(string(line), want) {
			t.Errorf("%s\nlacks %s", line, want)
		}
	}

	classic := b.wiringOf(gvks, "apps/v1/ReplicaSet", controller.Options{RateLimiter: workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]()}, false)
	if classic.queue != protocol.ControllerQueueKindRateLimiting || classic.rateLimiter != "custom" {
		t.Errorf("classic queue with a given limiter reads %q / %q", classic.queue, classic.rateLimiter)
	}
	custom := b.wiringOf(gvks, "", controller.Options{NewQueue: func(string, workqueue.TypedRateLimiter[reconcile.Request]) workqueue.TypedRateLimitingInterface[reconcile.Request] {
		return nil
	}}, true)
	if custom.queue != protocol.ControllerQueueKindCustom {
		t.Errorf("a user NewQueue reads %q", custom.queue)
	}
}
