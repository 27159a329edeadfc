package scope

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// informerTap follows one informer: the reflector's list/watch cycle (as the dashboard's state names), the
// objects its store holds (through a side handler), and its sync.
type informerTap struct {
	s  *Scope
	id string

	mu        sync.Mutex
	state     protocol.ReflectorState
	listed    bool
	listStart time.Time
	pages     int
	streamed  int
	listRV    string
	started   time.Time
	size      atomic.Int64
	inf       toolscache.SharedIndexInformer
	fifo      fifoShadow
}

func (s *Scope) informerTap(id string, obj runtime.Object) *informerTap {
	t := &informerTap{s: s, id: id, state: protocol.ReflectorStateIdle}
	s.informers.Store(id, t)
	s.byType.Store(typeDescription(obj), t)
	return t
}

// typeDescription is how a reflector describes its type (Reflector.TypeDescription), to find the informer
// a watch error belongs to.
func typeDescription(obj runtime.Object) string {
	if u, ok := obj.(*unstructured.Unstructured); ok && !u.GroupVersionKind().Empty() {
		return u.GroupVersionKind().String()
	}
	return reflect.TypeOf(obj).String()
}

// transition reports a state change (under t.mu).
func (t *informerTap) transition(to protocol.ReflectorState, reason string) {
	if t.state == to {
		return
	}
	t.s.emit(protocol.ReflectorStateEvent{Informer: t.id, From: t.state, To: to, Reason: reason})
	t.state = to
}

func (t *informerTap) beginList(rv string, how protocol.ListMethod) {
	t.mu.Lock()
	defer t.mu.Unlock()
	relist := t.listed
	to, cause := protocol.ReflectorStateListing, "initial"
	if relist {
		to, cause = protocol.ReflectorStateRelisting, "relist"
	}
	if how == "watchList" {
		cause += " (streaming list)"
	}
	if t.started.IsZero() {
		t.started = t.s.cfg.Now()
	}
	if t.state == protocol.ReflectorStateWatching {
		// The reflector relists only after its ListAndWatch returned: the watch ended.
		t.transition(protocol.ReflectorStateBackoff, "watch ended")
	}
	t.transition(to, cause)
	t.listStart, t.pages, t.streamed = t.s.cfg.Now(), 0, 0
	t.s.emit(protocol.ReflectorListBeginEvent{Informer: t.id, ResourceVersion: rv, Relist: relist, Cause: cause, Method: how})
}

// page records one LIST response; the last page (no continue token) ends the list.
func (t *informerTap) page(obj runtime.Object, err error, took time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pages++
	if err != nil {
		t.endListLocked("", 0, err)
		t.failedLocked(err)
		return
	}
	acc, aerr := meta.ListAccessor(obj)
	if aerr != nil {
		return
	}
	t.streamed += meta.LenList(obj)
	if acc.GetContinue() != "" {
		return
	}
	t.endListLocked(acc.GetResourceVersion(), t.streamed, nil)
}

func (t *informerTap) countStreamed() {
	t.mu.Lock()
	t.streamed++
	t.mu.Unlock()
}

func (t *informerTap) endStreamingList(rv string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pages = 1
	t.endListLocked(rv, t.streamed, nil)
	t.transition(protocol.ReflectorStateWatching, "initial events ended")
}

func (t *informerTap) endListLocked(rv string, items int, err error) {
	ev := protocol.ReflectorListEndEvent{Informer: t.id, ResourceVersion: rv, Items: items, Pages: max(t.pages, 1), DurationMs: ms(t.s.cfg.Now().Sub(t.listStart)), Relist: t.listed}
	if err != nil {
		ev.Error = err.Error()
	} else {
		t.listed = true
		t.listRV = rv
	}
	t.s.emit(ev)
}

func (t *informerTap) startWatch(rv string, timeout *int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.transition(protocol.ReflectorStateWatching, "watch from "+rv)
	secs := 0
	if timeout != nil {
		secs = int(*timeout)
	}
	t.s.emit(protocol.ReflectorWatchStartEvent{Informer: t.id, ResourceVersion: rv, TimeoutSeconds: secs})
}

func (t *informerTap) endWatch(rv string, events int, took time.Duration, reason string) {
	t.s.emit(protocol.ReflectorWatchEndEvent{Informer: t.id, ResourceVersion: rv, Events: events, DurationMs: ms(took), Reason: reason})
}

func (t *informerTap) failed(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failedLocked(err)
}

func (t *informerTap) failedLocked(err error) {
	code, reason := 0, "Error"
	var se apierrors.APIStatus
	if errors.As(err, &se) {
		code, reason = int(se.Status().Code), string(se.Status().Reason)
	}
	t.s.emit(protocol.ReflectorErrorEvent{Informer: t.id, Code: code, Reason: reason, Message: err.Error()})
}

// watchError is the watch-error handler's report: the reflector gave up on this ListAndWatch and backs off.
func (s *Scope) watchError(r *toolscache.Reflector, err error) {
	v, ok := s.byType.Load(r.TypeDescription())
	if !ok {
		return
	}
	t := v.(*informerTap)
	t.mu.Lock()
	defer t.mu.Unlock()
	reason := err.Error()
	if apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
		reason = "410 Expired"
	}
	t.transition(protocol.ReflectorStateBackoff, reason)
}

// attach adds the side handler (adds, updates, deletes with their RVs, tombstones; each a popped delta) and
// the transform that sees each delta queued. A transform set later (controller-runtime always sets one) is
// wrapped by tappedInformer.SetTransform.
func (t *informerTap) attach(inf toolscache.SharedIndexInformer) {
	t.inf = inf
	_ = inf.SetTransform(t.transform(nil))
	_, _ = inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { t.stored("add", obj, 1, false) },
		UpdateFunc: func(_, obj any) {
			t.stored("update", obj, 0, false)
		},
		DeleteFunc: func(obj any) {
			tomb, isTomb := obj.(toolscache.DeletedFinalStateUnknown)
			if isTomb {
				obj = tomb.Obj
			}
			t.stored("delete", obj, -1, isTomb)
		},
	})
}

func (t *informerTap) stored(op string, obj any, delta int64, tombstone bool) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	// processDeltas pops the delta, writes the indexer, then notifies: the same order here.
	t.popped(m, op, tombstone)
	size := t.size.Add(delta)
	t.s.emit(protocol.IndexerUpdateEvent{Informer: t.id, Op: op, Key: objectKey(m), Ref: t.ref(m), Size: int(size)})
}

// tappedInformer reports the informer's start and stop and its sync.
type tappedInformer struct {
	toolscache.SharedIndexInformer
	tap *informerTap
}

// SetTransform keeps the tap's transform around the one given, so queued deltas are still seen.
func (i *tappedInformer) SetTransform(f toolscache.TransformFunc) error {
	return i.SharedIndexInformer.SetTransform(i.tap.transform(f))
}

func (i *tappedInformer) Run(stop <-chan struct{}) {
	i.started()
	i.SharedIndexInformer.Run(stop)
	i.stopped()
}

func (i *tappedInformer) RunWithContext(ctx context.Context) {
	i.started()
	i.SharedIndexInformer.RunWithContext(ctx)
	i.stopped()
}

func (i *tappedInformer) started() {
	t := i.tap
	t.s.emit(protocol.InformerLifecycleEvent{Informer: t.id, Phase: "started", FIFO: "RealFIFO"})
	begin := t.s.cfg.Now()
	go func() {
		for !i.HasSynced() {
			if i.IsStopped() {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.s.emit(protocol.InformerSyncedEvent{Informer: t.id, Items: int(t.size.Load()), DurationMs: ms(t.s.cfg.Now().Sub(begin))})
	}()
}

func (i *tappedInformer) stopped() {
	t := i.tap
	t.mu.Lock()
	t.transition(protocol.ReflectorStateStopped, "informer stopped")
	t.mu.Unlock()
	t.s.emit(protocol.InformerLifecycleEvent{Informer: t.id, Phase: "stopped"})
}
