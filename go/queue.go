package scope

import (
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// tapQueue wraps the controller's real queue (controller-runtime's priority queue, or client-go's
// rate-limiting queue where the controller would use that) and reports every call per key. The real queue
// decides everything; beside it, a shadow of each key's state (ready, waiting until, processing, parked,
// the causes absorbed) follows the real queue's documented merge rules, so each event can say what the call
// did. Rate-limited adds are resolved here (the limiter's When(key) becomes the add's delay), which is what
// both queues do with them, so the exact backoff of each key is known.
type tapQueue struct {
	inner   priorityqueue.PriorityQueue[reconcile.Request]
	rl      workqueue.TypedRateLimiter[reconcile.Request]
	s       *Scope
	name    string
	classic bool   // client-go's delaying queue: a delayed add never cancels, each delay fires on its own
	wiring  wiring // what its controller's lifecycle events carry

	mu       sync.Mutex
	items    map[string]*entry // queued keys; with the priority queue, waiting ones too
	cwait    map[string]waitEntry
	locked   map[string]time.Time
	taken    map[string][]protocol.EnqueueCause
	results  map[string]*pendingResult
	workers  map[string]int
	busy     []bool
	ready    int
	waiting  int
	parked   int
	shutdown bool
	step     *stepper
	// started reports the controller started once its first worker asks for a key: controller-runtime
	// starts workers only after its caches synced, and says so nowhere a public hook can hear.
	started sync.Once
}

type entry struct {
	priority   int
	readyAt    time.Time // zero: ready
	parked     bool      // ready while its key is processing
	causes     []protocol.EnqueueCause
	readySince time.Time
}

// waitEntry is the classic queue's one pending delay per key.
type waitEntry struct {
	readyAt time.Time
	cause   protocol.EnqueueCause
}

// pendingResult is what the reconciler returned, held until the controller acts on it (AddWithOpts or
// Forget), so the add carries the result as its cause and reconcile.end follows it, as in our runtime.
type pendingResult struct {
	outcome protocol.ReconcileOutcome
	cause   protocol.EnqueueCause
	end     protocol.ReconcileEndEvent
}

func newTapQueue(s *Scope, name string, inner priorityqueue.PriorityQueue[reconcile.Request], rl workqueue.TypedRateLimiter[reconcile.Request], classic bool) *tapQueue {
	q := &tapQueue{
		inner: inner, rl: rl, s: s, name: name, classic: classic,
		items: map[string]*entry{}, cwait: map[string]waitEntry{}, locked: map[string]time.Time{}, taken: map[string][]protocol.EnqueueCause{},
		results: map[string]*pendingResult{}, workers: map[string]int{},
	}
	q.step = newStepper(name, q.readyHeld)
	return q
}

var unknownCause = protocol.EnqueueCause{Type: "unknown"}

// Add, AddAfter, AddRateLimited and AddWithOpts are what handlers and the controller call.
func (q *tapQueue) Add(item reconcile.Request) { q.add(nil, priorityqueue.AddOpts{}, item) }
func (q *tapQueue) AddAfter(item reconcile.Request, d time.Duration) {
	q.add(nil, priorityqueue.AddOpts{After: d}, item)
}
func (q *tapQueue) AddRateLimited(item reconcile.Request) {
	q.add(nil, priorityqueue.AddOpts{RateLimited: true}, item)
}
func (q *tapQueue) AddWithOpts(o priorityqueue.AddOpts, items ...reconcile.Request) {
	q.add(nil, o, items...)
}

// add records each item, then hands it to the real queue with the same options (a rate-limited add as the
// delay the limiter gave it).
func (q *tapQueue) add(cause *protocol.EnqueueCause, o priorityqueue.AddOpts, items ...reconcile.Request) {
	for _, item := range items {
		after := o.After
		if o.RateLimited {
			if d := q.rl.When(item); after == 0 || d < after {
				after = d
			}
		}
		end := q.record(item, cause, o, after)
		if q.classic {
			switch {
			case after > 0:
				q.inner.AddAfter(item, after)
			default:
				q.inner.Add(item)
			}
		} else {
			q.inner.AddWithOpts(priorityqueue.AddOpts{After: after, Priority: o.Priority}, item)
		}
		if end != nil {
			q.s.emit(*end)
		}
	}
}

// record updates the shadow for one add and reports it; it returns a reconcile.end to send after the add
// when this add is the controller acting on a result.
func (q *tapQueue) record(item reconcile.Request, given *protocol.EnqueueCause, o priorityqueue.AddOpts, after time.Duration) *protocol.ReconcileEndEvent {
	key := keyOf(item)
	priority := ptr.Deref(o.Priority, 0)
	if q.classic {
		priority = 0
	}
	now := q.s.cfg.Now()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shutdown {
		return nil
	}
	cause := unknownCause
	var end *protocol.ReconcileEndEvent
	if given != nil {
		cause = *given
	} else if r := q.results[key]; r != nil && (after > 0 || o.RateLimited) {
		cause = r.cause
		e := r.end
		end = &e
		delete(q.results, key)
	}
	var requeues int
	if o.RateLimited {
		requeues = q.rl.NumRequeues(item)
	}
	if q.classic {
		return q.recordClassic(key, cause, after, requeues, end, now)
	}
	e := q.items[key]
	if after > 0 {
		readyAt := now.Add(after)
		switch {
		case e == nil:
			e = &entry{priority: priority, readyAt: readyAt}
			q.items[key] = e
			q.waiting++
			q.schedule(key, readyAt, after)
		case !e.readyAt.IsZero() && readyAt.Before(e.readyAt):
			e.readyAt = readyAt
			q.schedule(key, readyAt, after)
		}
		// A ready entry stays ready: the priority queue folds the delay away.
		q.raise(e, priority)
		e.causes = append(e.causes, cause)
		shown := e.readyAt
		if shown.IsZero() {
			shown = e.readySince
		}
		q.s.emit(protocol.QueueAddAfterEvent{Queue: q.name, Key: key, Cause: cause, DelayMs: ms(after), ReadyAt: epochMs(shown), Requeues: requeues, Depth: q.depth()})
		return end
	}
	queued, delayCancelled := false, false
	switch {
	case e == nil:
		e = &entry{priority: priority}
		q.items[key] = e
		q.becomeReady(key, e, now)
		queued = true
	case !e.readyAt.IsZero():
		e.readyAt = time.Time{}
		q.waiting--
		q.becomeReady(key, e, now)
		queued, delayCancelled = true, true
	}
	q.raise(e, priority)
	e.causes = append(e.causes, cause)
	q.emitAdd(key, e, cause, queued, delayCancelled, false)
	return end
}

func (q *tapQueue) raise(e *entry, priority int) {
	if priority > e.priority {
		e.priority = priority
	}
}

func (q *tapQueue) emitAdd(key string, e *entry, cause protocol.EnqueueCause, queued, delayCancelled, matured bool) {
	_, processing := q.locked[key]
	q.s.emit(protocol.QueueAddEvent{
		Queue: q.name, Key: key, Cause: cause, Queued: queued && !processing, DirtyWhileProcessing: processing,
		Priority: e.priority, DelayCancelled: delayCancelled, Matured: matured, Depth: q.depth(),
	})
}

// recordClassic follows client-go's rate-limiting queue: one waiting entry per key (the earliest delay
// wins) that fires on its own whatever happened to the key meanwhile, beside the ready/dirty sets.
func (q *tapQueue) recordClassic(key string, cause protocol.EnqueueCause, after time.Duration, requeues int, end *protocol.ReconcileEndEvent, now time.Time) *protocol.ReconcileEndEvent {
	if after > 0 {
		readyAt := now.Add(after)
		if prev, ok := q.cwait[key]; !ok || readyAt.Before(prev.readyAt) {
			if !ok {
				q.waiting++
			}
			q.cwait[key] = waitEntry{readyAt: readyAt, cause: cause}
			q.schedule(key, readyAt, after)
		}
		q.s.emit(protocol.QueueAddAfterEvent{Queue: q.name, Key: key, Cause: cause, DelayMs: ms(after), ReadyAt: epochMs(q.cwait[key].readyAt), Requeues: requeues, Depth: q.depth()})
		return end
	}
	q.addClassicLocked(key, cause, now, false)
	return end
}

func (q *tapQueue) addClassicLocked(key string, cause protocol.EnqueueCause, now time.Time, matured bool) {
	e := q.items[key]
	queued := e == nil
	if e == nil {
		e = &entry{}
		q.items[key] = e
		q.becomeReady(key, e, now)
	}
	e.causes = append(e.causes, cause)
	q.emitAdd(key, e, cause, queued, false, matured)
}

func (q *tapQueue) becomeReady(key string, e *entry, now time.Time) {
	e.readySince = now
	if _, processing := q.locked[key]; processing {
		e.parked = true
		q.parked++
		return
	}
	q.ready++
}

// schedule follows a delay: when it passes and the key still waits for that time, the key becomes ready
// (the real queue moves it at the same moment).
func (q *tapQueue) schedule(key string, readyAt time.Time, after time.Duration) {
	time.AfterFunc(after, func() { q.mature(key, readyAt) })
}

func (q *tapQueue) mature(key string, readyAt time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shutdown {
		return
	}
	if q.classic {
		if w, ok := q.cwait[key]; ok && !w.readyAt.After(readyAt) {
			delete(q.cwait, key)
			q.waiting--
			q.addClassicLocked(key, w.cause, q.s.cfg.Now(), true)
		}
		return
	}
	e := q.items[key]
	if e == nil || e.readyAt.IsZero() || e.readyAt.After(readyAt) {
		return
	}
	q.matureLocked(key, e)
}

func (q *tapQueue) matureLocked(key string, e *entry) {
	e.readyAt = time.Time{}
	q.waiting--
	q.becomeReady(key, e, q.s.cfg.Now())
	cause := unknownCause
	if len(e.causes) > 0 {
		cause = e.causes[0]
	}
	q.emitAdd(key, e, cause, true, false, true)
}

func (q *tapQueue) Get() (reconcile.Request, bool) {
	item, _, shutdown := q.GetWithPriority()
	return item, shutdown
}

// GetWithPriority is where workers wait; step mode holds them here, before the real queue hands out a key,
// so held keys stay queued.
func (q *tapQueue) GetWithPriority() (reconcile.Request, int, bool) {
	q.started.Do(func() {
		q.s.emit(q.wiring.on(protocol.ControllerLifecycleEvent{Controller: q.name, Phase: "started"}))
	})
	admitted := q.step.beforeGet()
	item, priority, shutdown := q.inner.GetWithPriority()
	if shutdown {
		return item, priority, shutdown
	}
	worker := q.taking(item)
	q.step.afterGet(keyOf(item), admitted, worker)
	return item, priority, false
}

// taking moves the key from queued to processing and gives it a worker number, which the reconcile then
// reports (so a step's release names the worker that took the key). It returns that number.
func (q *tapQueue) taking(item reconcile.Request) int {
	key := keyOf(item)
	now := q.s.cfg.Now()
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.items[key]
	if !q.classic && e != nil && !e.readyAt.IsZero() {
		// The real queue released it a moment before our timer fired.
		q.matureLocked(key, e)
	}
	if q.classic && e == nil {
		if w, ok := q.cwait[key]; ok {
			delete(q.cwait, key)
			q.waiting--
			q.addClassicLocked(key, w.cause, now, true)
			e = q.items[key]
		}
	}
	var wait time.Duration
	if e != nil {
		wait = now.Sub(e.readySince)
		if e.parked {
			q.parked--
		} else {
			q.ready--
		}
		q.taken[key] = e.causes
		delete(q.items, key)
	}
	q.locked[key] = now
	q.s.emit(protocol.QueueGetEvent{Queue: q.name, Key: key, WaitMs: ms(wait), Depth: q.depth()})
	return q.assignWorkerLocked(key)
}

func (q *tapQueue) Done(item reconcile.Request) {
	key := keyOf(item)
	now := q.s.cfg.Now()
	q.mu.Lock()
	var end *protocol.ReconcileEndEvent
	if r := q.results[key]; r != nil {
		e := r.end
		end = &e
		delete(q.results, key)
	}
	if end != nil {
		q.s.emit(*end)
	}
	since, ok := q.locked[key]
	delete(q.locked, key)
	requeued := false
	if e := q.items[key]; e != nil && e.parked {
		e.parked = false
		q.parked--
		q.ready++
		requeued = true
	}
	var processing time.Duration
	if ok {
		processing = now.Sub(since)
	}
	q.s.emit(protocol.QueueDoneEvent{Queue: q.name, Key: key, ProcessingMs: ms(processing), Requeued: requeued, Depth: q.depth()})
	q.mu.Unlock()
	q.inner.Done(item)
}

func (q *tapQueue) Forget(item reconcile.Request) {
	key := keyOf(item)
	q.inner.Forget(item)
	q.s.emit(protocol.QueueForgetEvent{Queue: q.name, Key: key})
	q.mu.Lock()
	r := q.results[key]
	if r != nil && (r.outcome == "success") {
		delete(q.results, key)
	} else {
		r = nil
	}
	q.mu.Unlock()
	if r != nil {
		q.s.emit(r.end)
	}
}

func (q *tapQueue) NumRequeues(item reconcile.Request) int { return q.inner.NumRequeues(item) }
func (q *tapQueue) Len() int                               { return q.inner.Len() }
func (q *tapQueue) ShuttingDown() bool                     { return q.inner.ShuttingDown() }

func (q *tapQueue) ShutDown() {
	q.shutDown(false)
	q.inner.ShutDown()
}

func (q *tapQueue) ShutDownWithDrain() {
	q.shutDown(true)
	q.inner.ShutDownWithDrain()
}

func (q *tapQueue) shutDown(drain bool) {
	q.mu.Lock()
	first := !q.shutdown
	q.shutdown = true
	q.mu.Unlock()
	q.step.shutDown()
	if first {
		q.s.emit(protocol.QueueShutdownEvent{Queue: q.name, Drain: drain})
		// The queue shuts down when its controller stops (the manager's context ended).
		q.s.emit(q.wiring.on(protocol.ControllerLifecycleEvent{Controller: q.name, Phase: "stopped"}))
	}
}

func (q *tapQueue) depth() protocol.QueueDepth {
	return protocol.QueueDepth{Ready: q.ready + q.parked, Waiting: q.waiting, Processing: len(q.locked)}
}

func (q *tapQueue) readyHeld() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.ready
}

// takeCauses hands the reconcile that took key every cause absorbed since the key was last taken.
func (q *tapQueue) takeCauses(key string) []protocol.EnqueueCause {
	q.mu.Lock()
	defer q.mu.Unlock()
	c := q.taken[key]
	delete(q.taken, key)
	if c == nil {
		c = []protocol.EnqueueCause{}
	}
	return c
}

// worker numbers concurrent reconciles 0..n-1 (controller-runtime does not name its workers): the number
// given when the key was taken, or a free one for a reconcile that did not come through Get.
func (q *tapQueue) workerStart(key string) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	if w, ok := q.workers[key]; ok {
		return w
	}
	return q.assignWorkerLocked(key)
}

func (q *tapQueue) assignWorkerLocked(key string) int {
	if w, ok := q.workers[key]; ok {
		return w
	}
	for i, b := range q.busy {
		if !b {
			q.busy[i] = true
			q.workers[key] = i
			return i
		}
	}
	q.busy = append(q.busy, true)
	q.workers[key] = len(q.busy) - 1
	return len(q.busy) - 1
}

func (q *tapQueue) workerEnd(key string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if i, ok := q.workers[key]; ok {
		q.busy[i] = false
		delete(q.workers, key)
	}
}

// result holds what a reconcile returned until the controller acts on it.
func (q *tapQueue) result(key string, r *pendingResult) {
	q.mu.Lock()
	q.results[key] = r
	q.mu.Unlock()
}

func ms(d time.Duration) float64  { return float64(d.Microseconds()) / 1000 }
func epochMs(t time.Time) float64 { return float64(t.UnixMicro()) / 1000 }

var zeroOpts priorityqueue.AddOpts

// requestOf parses a queue key back into a request.
func requestOf(key string) reconcile.Request {
	if i := strings.IndexByte(key, '/'); i >= 0 {
		return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: key[:i], Name: key[i+1:]}}
	}
	return reconcile.Request{NamespacedName: types.NamespacedName{Name: key}}
}
