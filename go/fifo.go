package scope

import (
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// The informer's queue (client-go's RealFIFO) is private to the informer, so it is followed from outside.
//
// In: RealFIFO calls the informer's transform for every delta it queues (Added, Updated, Deleted and a
// list's Replaced), under its lock, just before appending it; tombstones and Sync deltas skip it. The
// transform is given the object only, so the delta's type comes from the watch events the tapped watch
// handed the reflector, matched by key and resourceVersion: the reflector queues each event it is handed, in
// order, so the oldest unmatched one is the one being queued. A call that matches none is a list's Replace.
// During a streaming list (WatchList) the reflector's temporary store calls the same transform for each
// initial event; those are handed marked as such and not counted.
//
// Out: processDeltas hands every popped delta to each handler, the side handler among them, one
// notification per delta; the shadow pops the key's oldest delta then. The side handler runs on its own
// goroutine, so a pop is seen after it happened, never before.

// handedEvent is a watch event given to the reflector and not yet seen queued.
type handedEvent struct {
	key, rv string
	// delta is empty for an initial event of a streaming list: it goes to a temporary store, not the queue.
	delta protocol.DeltaType
}

// maxHanded bounds the handed events kept: the reflector takes one event at a time, so two are in flight at
// most; more means events it dropped (an object of the wrong type), which then must not be matched forever.
const maxHanded = 16

type fifoShadow struct {
	mu      sync.Mutex
	handed  []handedEvent
	pending map[string][]protocol.DeltaType
	length  int
}

func watchDelta(t watch.EventType) protocol.DeltaType {
	switch t {
	case watch.Added:
		return protocol.DeltaTypeAdded
	case watch.Modified:
		return protocol.DeltaTypeUpdated
	case watch.Deleted:
		return protocol.DeltaTypeDeleted
	}
	return ""
}

// handing records a watch event about to be given to the reflector (before it can be queued).
func (t *informerTap) handing(typ watch.EventType, key, rv string, initial bool) {
	d := watchDelta(typ)
	if d == "" {
		return
	}
	if initial {
		d = ""
	}
	f := &t.fifo
	f.mu.Lock()
	if len(f.handed) == maxHanded {
		f.handed = f.handed[1:]
	}
	f.handed = append(f.handed, handedEvent{key: key, rv: rv, delta: d})
	f.mu.Unlock()
}

// forgetHanded drops events handed to a watch the reflector no longer reads: it lists or watches again.
func (t *informerTap) forgetHanded() {
	t.fifo.mu.Lock()
	t.fifo.handed = nil
	t.fifo.mu.Unlock()
}

// transform wraps the informer's transform (nil: none) so that every delta queued is seen.
func (t *informerTap) transform(inner toolscache.TransformFunc) toolscache.TransformFunc {
	return func(obj any) (any, error) {
		out := obj
		if inner != nil {
			var err error
			if out, err = inner(obj); err != nil {
				// RealFIFO refuses the object: nothing was queued.
				return out, err
			}
		}
		t.queued(obj)
		return out, nil
	}
}

func (t *informerTap) queued(obj any) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	key, rv := objectKey(m), m.GetResourceVersion()
	f := &t.fifo
	f.mu.Lock()
	defer f.mu.Unlock()
	d := protocol.DeltaTypeReplaced
	if len(f.handed) > 0 && f.handed[0].key == key && f.handed[0].rv == rv {
		d = f.handed[0].delta
		f.handed = f.handed[1:]
		if d == "" {
			return
		}
	}
	f.push(key, d)
	// Emitted under the lock, so a pop of this delta on the side handler's goroutine cannot be emitted first.
	t.s.emit(protocol.FIFODeltaEvent{Informer: t.id, Delta: d, Key: key, Ref: t.ref(m), PendingForKey: len(f.pending[key]), QueueLength: f.length, Shadow: true})
}

func (f *fifoShadow) push(key string, d protocol.DeltaType) {
	if f.pending == nil {
		f.pending = map[string][]protocol.DeltaType{}
	}
	f.pending[key] = append(f.pending[key], d)
	f.length++
}

// popped is the side handler hearing of a popped delta of m: op is its notification (add, update, delete).
// A delta that never passed the transform (a tombstone, a resync's Sync) is reported queued as it pops.
func (t *informerTap) popped(m metav1.Object, op string, tombstone bool) {
	key := objectKey(m)
	f := &t.fifo
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.pending[key]
	if len(q) == 0 {
		d := protocol.DeltaTypeSync
		if op == "delete" {
			d = protocol.DeltaTypeDeleted
		}
		f.push(key, d)
		q = f.pending[key]
		t.s.emit(protocol.FIFODeltaEvent{Informer: t.id, Delta: d, Key: key, Ref: t.ref(m), PendingForKey: len(q), QueueLength: f.length, Tombstone: tombstone, Shadow: true})
	}
	d := q[0]
	if len(q) == 1 {
		delete(f.pending, key)
	} else {
		f.pending[key] = q[1:]
	}
	f.length--
	t.s.emit(protocol.FIFOPopEvent{Informer: t.id, Key: key, Deltas: []protocol.DeltaType{d}, QueueLength: f.length, Shadow: true})
}

func objectKey(m metav1.Object) string {
	if ns := m.GetNamespace(); ns != "" {
		return ns + "/" + m.GetName()
	}
	return m.GetName()
}

func (t *informerTap) ref(m metav1.Object) protocol.ObjectRef {
	return protocol.ObjectRef{GVK: t.id, Namespace: m.GetNamespace(), Name: m.GetName(), UID: string(m.GetUID()), ResourceVersion: m.GetResourceVersion()}
}
