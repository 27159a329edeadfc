package scope

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// namedOnly passes objects whose name is the one given; its type names it in the dashboard.
type namedOnly struct {
	predicate.Funcs
}

func onlyNamed(name string) predicate.Predicate {
	keep := func(o client.Object) bool { return o.GetName() == name }
	return namedOnly{predicate.NewPredicateFuncs(keep)}
}

// If a controller-runtime release renamed or retyped WithPredicates' field, this fails instead of the
// predicates silently going unseen.
func TestWithPredicatesOptionsAreReadable(t *testing.T) {
	a, b := onlyNamed("a"), predicate.GenerationChangedPredicate{}
	got, ok := predicatesOf(builder.WithPredicates(a, b))
	if !ok || len(got) != 2 || reflect.TypeOf(got[0]) != reflect.TypeOf(a) || reflect.TypeOf(got[1]) != reflect.TypeOf(b) {
		t.Fatalf("read %v, %v", got, ok)
	}
	if _, ok := predicatesOf(builder.OnlyMetadata); ok {
		t.Fatal("read predicates from an option that has none")
	}
}

// A WithPredicates predicate on Owns still filters, and what it drops is reported for that watch's handler.
func TestWithPredicatesDropsAreReportedForTheirWatch(t *testing.T) {
	s := testScope(t)
	b := &Builder{s: s, ctrlName: "mirror"}
	gvks := &gvkCache{scheme: scheme.Scheme}
	opts := b.tapPredicateOptions([]builder.WatchesOption{builder.OnlyMetadata, builder.WithPredicates(onlyNamed("keep"))}, "EnqueueRequestForOwner", gvks)
	if len(opts) != 2 || opts[0] != builder.WatchesOption(builder.OnlyMetadata) {
		t.Fatalf("options: %v", opts)
	}
	preds, ok := predicatesOf(opts[1])
	if !ok || len(preds) != 1 {
		t.Fatalf("tapped option holds %v", preds)
	}
	secret := func(name string) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: "7"}}
	}
	if !preds[0].Create(event.CreateEvent{Object: secret("keep")}) {
		t.Fatal("the tapped predicate dropped what the user's passes")
	}
	if preds[0].Update(event.UpdateEvent{ObjectOld: secret("drop"), ObjectNew: secret("drop")}) {
		t.Fatal("the tapped predicate passed what the user's drops")
	}
	evs := drain(t, s, 1)
	ev := evs[len(evs)-1]
	if len(evs) != 1 || ev["kind"] != "handler.event" || ev["handler"] != "EnqueueRequestForOwner" || ev["filteredBy"] != "NamedOnly" || ev["eventType"] != "update" || ev["controller"] != "mirror" {
		t.Fatalf("reported %v", evs)
	}
	if ref := ev["ref"].(map[string]any); ref["name"] != "drop" || ref["gvk"] != "v1/Secret" {
		t.Fatalf("ref %v", ref)
	}
}
