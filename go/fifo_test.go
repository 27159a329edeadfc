package scope

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	toolscache "k8s.io/client-go/tools/cache"
	ctrl "sigs.k8s.io/controller-runtime"
)

// fakeLW serves a list from lists (one per LIST or streaming WATCH, the last one repeated) and the watch
// events the test pushes. With noWatchList it says it cannot stream, so the reflector LISTs.
type fakeLW struct {
	mu          sync.Mutex
	lists       [][]*corev1.ConfigMap
	listed      int
	watches     chan *watch.FakeWatcher
	noWatchList bool
}

func cm(name, rv string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv, UID: types.UID("uid-" + name)}}
}

func (l *fakeLW) nextList() []*corev1.ConfigMap {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := min(l.listed, len(l.lists)-1)
	l.listed++
	return l.lists[i]
}

func lastRV(items []*corev1.ConfigMap) string {
	if len(items) == 0 {
		return "1"
	}
	return items[len(items)-1].ResourceVersion
}

func (l *fakeLW) List(o metav1.ListOptions) (runtime.Object, error) {
	return l.ListWithContext(context.Background(), o)
}

func (l *fakeLW) Watch(o metav1.ListOptions) (watch.Interface, error) {
	return l.WatchWithContext(context.Background(), o)
}

func (l *fakeLW) ListWithContext(_ context.Context, _ metav1.ListOptions) (runtime.Object, error) {
	items := l.nextList()
	out := &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: lastRV(items)}}
	for _, c := range items {
		out.Items = append(out.Items, *c.DeepCopy())
	}
	return out, nil
}

func (l *fakeLW) WatchWithContext(_ context.Context, o metav1.ListOptions) (watch.Interface, error) {
	w := watch.NewFakeWithChanSize(100, false)
	if o.SendInitialEvents != nil && *o.SendInitialEvents {
		items := l.nextList()
		for _, c := range items {
			w.Add(c.DeepCopy())
		}
		end := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{ResourceVersion: lastRV(items), Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}}
		w.Action(watch.Bookmark, end)
	}
	l.watches <- w
	return w, nil
}

// listOnly is fakeLW saying it cannot stream a list, as a ListerWatcher of an old server would.
type listOnly struct{ *fakeLW }

func (listOnly) IsWatchListSemanticsUnSupported() bool { return true }

// notes records every notification the informer gives a handler of its own: one per popped delta.
type notes struct {
	mu  sync.Mutex
	got []string
}

func (n *notes) add(s string) {
	n.mu.Lock()
	n.got = append(n.got, s)
	n.mu.Unlock()
}

func (n *notes) count() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.got)
}

func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still not: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// fifoLines are the shadow queue's events, as "delta TYPE key[ tomb] pending/length" and "pop TYPE key length".
func fifoLines(t *testing.T, s *Scope, want int) []string {
	t.Helper()
	var out []string
	until(t, fmt.Sprintf("%d fifo events", want), func() bool {
		out = out[:0]
		for _, ev := range drain(t, s, 0) {
			if ev["shadow"] != true {
				if k := ev["kind"]; k == "fifo.delta" || k == "fifo.pop" {
					t.Fatalf("a queue event without shadow: %v", ev)
				}
				continue
			}
			switch ev["kind"] {
			case "fifo.delta":
				tomb := ""
				if ev["tombstone"] == true {
					tomb = " tomb"
				}
				out = append(out, fmt.Sprintf("delta %s %s%s %v/%v", ev["delta"], ev["key"], tomb, ev["pendingForKey"], ev["queueLength"]))
			case "fifo.pop":
				if _, has := ev["durationMs"]; has {
					t.Fatalf("a shadow pop claims a processing time: %v", ev)
				}
				d := ev["deltas"].([]any)
				out = append(out, fmt.Sprintf("pop %s %s %v", d[0], ev["key"], ev["queueLength"]))
			}
		}
		return len(out) >= want
	})
	return out
}

func runTapped(t *testing.T, lw toolscache.ListerWatcher) (*Scope, *notes, func()) {
	t.Helper()
	s := testScope(t)
	o := s.Options(ctrl.Options{})
	inf := o.Cache.NewInformer(lw, &corev1.ConfigMap{}, 0, toolscache.Indexers{})
	// controller-runtime sets its transform on every informer it builds, nil when none is configured.
	stripped := func(obj any) (any, error) {
		if c, ok := obj.(*corev1.ConfigMap); ok {
			c.ManagedFields = nil
		}
		return obj, nil
	}
	if err := inf.SetTransform(stripped); err != nil {
		t.Fatal(err)
	}
	n := &notes{}
	_, _ = inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { n.add("add " + obj.(*corev1.ConfigMap).Name) },
		UpdateFunc: func(_, obj any) { n.add("update " + obj.(*corev1.ConfigMap).Name) },
		DeleteFunc: func(obj any) { n.add("delete") },
	})
	stop := make(chan struct{})
	go inf.Run(stop)
	until(t, "synced", inf.HasSynced)
	return s, n, func() { close(stop) }
}

// The queue's deltas as the informer really took them, in order, each popped once: the types come from the
// watch events, a list's from Replace, a relist's vanished object as a tombstone seen when it pops.
func TestShadowFIFOFollowsTheInformersQueue(t *testing.T) {
	for _, mode := range []string{"streaming list", "list"} {
		t.Run(mode, func(t *testing.T) {
			fake := &fakeLW{lists: [][]*corev1.ConfigMap{{cm("a", "10"), cm("b", "11")}, {cm("a", "13")}}, watches: make(chan *watch.FakeWatcher, 4)}
			var lw toolscache.ListerWatcher = fake
			if mode == "list" {
				lw = listOnly{fake}
			}
			s, n, stop := runTapped(t, lw)
			defer stop()
			w := <-fake.watches
			w.Add(cm("c", "12"))
			w.Modify(cm("a", "13"))
			w.Delete(cm("b", "14"))
			until(t, "5 notifications", func() bool { return n.count() == 5 })
			// The watch expires (410); the relist no longer has c: Replace queues a tombstone for it.
			w.Error(&metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired, Message: "too old"})
			until(t, "7 notifications", func() bool { return n.count() == 7 })

			got := fifoLines(t, s, 14)
			var deltas, pops []string
			for _, l := range got {
				f := strings.Fields(l)
				if f[0] == "delta" {
					deltas = append(deltas, strings.Join(f[1:len(f)-1], " "))
				} else {
					pops = append(pops, strings.Join(f[1:3], " "))
				}
			}
			wantDeltas := []string{"Replaced ns/a", "Replaced ns/b", "Added ns/c", "Updated ns/a", "Deleted ns/b", "Replaced ns/a", "Deleted ns/c tomb"}
			if strings.Join(deltas, ",") != strings.Join(wantDeltas, ",") {
				t.Errorf("deltas\n got %v\nwant %v\nall %v", deltas, wantDeltas, got)
			}
			// Replace queues the tombstone before the listed objects; it is seen (queued and popped) when it pops.
			wantPops := []string{"Replaced ns/a", "Replaced ns/b", "Added ns/c", "Updated ns/a", "Deleted ns/b", "Deleted ns/c", "Replaced ns/a"}
			if strings.Join(pops, ",") != strings.Join(wantPops, ",") {
				t.Errorf("pops\n got %v\nwant %v", pops, wantPops)
			}
			if last := got[len(got)-1]; !strings.HasSuffix(last, " 0") {
				t.Errorf("the queue does not end empty: %s", last)
			}
		})
	}
}
