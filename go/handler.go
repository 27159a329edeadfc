package scope

import (
	"context"
	"reflect"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-scope/controller-scope/go/protocol"
)

type rateLimitingQueue = workqueue.TypedRateLimitingInterface[reconcile.Request]

// tapHandler runs the real handler with a queue shim, so every request it enqueues carries the exact event
// that caused it, then reports the event with the keys it produced.
type tapHandler struct {
	s         *Scope
	ctrl      string
	name      string
	causeType protocol.CauseType // event, owner or mapped
	ownerKind string             // for owner causes: the For() kind, named in the cause
	gvks      *gvkCache
	inner     handler.EventHandler
}

func (h *tapHandler) Create(ctx context.Context, e event.CreateEvent, q rateLimitingQueue) {
	h.run(q, "create", e.Object, false, func(q rateLimitingQueue) { h.inner.Create(ctx, e, q) })
}

func (h *tapHandler) Update(ctx context.Context, e event.UpdateEvent, q rateLimitingQueue) {
	from := ""
	if e.ObjectOld != nil {
		from = e.ObjectOld.GetResourceVersion()
	}
	resync := e.ObjectNew != nil && from != "" && from == e.ObjectNew.GetResourceVersion()
	h.runFrom(q, "update", e.ObjectNew, from, resync, func(q rateLimitingQueue) { h.inner.Update(ctx, e, q) })
}

func (h *tapHandler) Delete(ctx context.Context, e event.DeleteEvent, q rateLimitingQueue) {
	h.run(q, "delete", e.Object, false, func(q rateLimitingQueue) { h.inner.Delete(ctx, e, q) })
}

func (h *tapHandler) Generic(ctx context.Context, e event.GenericEvent, q rateLimitingQueue) {
	h.run(q, "generic", e.Object, false, func(q rateLimitingQueue) { h.inner.Generic(ctx, e, q) })
}

func (h *tapHandler) run(q rateLimitingQueue, eventType string, obj client.Object, resync bool, call func(rateLimitingQueue)) {
	h.runFrom(q, eventType, obj, "", resync, call)
}

// runFrom is run with the old object's resourceVersion of an update: every cause then names the span of
// versions the event covers, whichever object (old or new) the handler mapped to a request.
func (h *tapHandler) runFrom(q rateLimitingQueue, eventType string, obj client.Object, from string, resync bool, call func(rateLimitingQueue)) {
	tq, ok := q.(*tapQueue)
	if !ok || obj == nil {
		call(q)
		return
	}
	ref := refOf(obj, h.gvks.of(obj))
	cause := protocol.EnqueueCause{Type: h.causeType, EventType: eventType, Source: &ref}
	if from != ref.ResourceVersion {
		cause.PreviousResourceVersion = from
	}
	if resync {
		cause.Type = "resync"
	}
	cq := &causeQueue{tapQueue: tq, cause: cause, ownerKind: h.ownerKind, keys: []string{}}
	call(cq)
	h.s.emit(protocol.HandlerEventEvent{Controller: h.ctrl, Handler: h.name, EventType: eventType, Ref: ref, Keys: cq.keys})
}

// causeQueue is the queue a tapped handler sees: the controller's queue, with this event as the cause of
// whatever the handler adds. It is a priority queue, so handlers keep their low priority for initial lists.
type causeQueue struct {
	*tapQueue
	cause     protocol.EnqueueCause
	ownerKind string
	keys      []string
}

var _ priorityqueue.PriorityQueue[reconcile.Request] = &causeQueue{}

func (c *causeQueue) Add(item reconcile.Request) { c.AddWithOpts(priorityqueue.AddOpts{}, item) }
func (c *causeQueue) AddAfter(item reconcile.Request, d time.Duration) {
	c.AddWithOpts(priorityqueue.AddOpts{After: d}, item)
}
func (c *causeQueue) AddRateLimited(item reconcile.Request) {
	c.AddWithOpts(priorityqueue.AddOpts{RateLimited: true}, item)
}
func (c *causeQueue) AddWithOpts(o priorityqueue.AddOpts, items ...reconcile.Request) {
	for _, item := range items {
		cause := c.cause
		if cause.Type == "owner" && c.ownerKind != "" {
			cause.Detail = c.ownerKind + " " + item.Name
		}
		c.keys = append(c.keys, keyOf(item))
		c.tapQueue.add(&cause, o, item)
	}
}

// tapPredicate reports the events a WithEventFilter predicate rejects (they never reach a handler).
type tapPredicate struct {
	s    *Scope
	ctrl *string
	name string
	// handler names the watch a WithPredicates predicate belongs to; empty for WithEventFilter's, which
	// every watch runs.
	handler string
	gvks    *gvkCache
	inner   predicate.Predicate
}

func (p *tapPredicate) filtered(eventType string, obj client.Object, pass bool) bool {
	if !pass && obj != nil {
		h := p.handler
		if h == "" {
			h = "WithEventFilter"
		}
		p.s.emit(protocol.HandlerEventEvent{Controller: *p.ctrl, Handler: h, EventType: eventType, Ref: refOf(obj, p.gvks.of(obj)), Keys: []string{}, FilteredBy: p.name})
	}
	return pass
}

func (p *tapPredicate) Create(e event.CreateEvent) bool {
	return p.filtered("create", e.Object, p.inner.Create(e))
}
func (p *tapPredicate) Update(e event.UpdateEvent) bool {
	return p.filtered("update", e.ObjectNew, p.inner.Update(e))
}
func (p *tapPredicate) Delete(e event.DeleteEvent) bool {
	return p.filtered("delete", e.Object, p.inner.Delete(e))
}
func (p *tapPredicate) Generic(e event.GenericEvent) bool {
	return p.filtered("generic", e.Object, p.inner.Generic(e))
}

// gvkCache names an object's kind from the scheme, once per Go type (typed objects from the cache carry no
// TypeMeta). Unstructured and metadata-only objects carry their own.
type gvkCache struct {
	scheme *runtime.Scheme
	byType sync.Map
}

func (g *gvkCache) of(obj runtime.Object) string {
	if k := obj.GetObjectKind().GroupVersionKind(); k.Kind != "" {
		return gvkString(k)
	}
	t := reflect.TypeOf(obj)
	if v, ok := g.byType.Load(t); ok {
		return v.(string)
	}
	gvk, err := apiutil.GVKForObject(obj, g.scheme)
	if err != nil {
		return typeName(obj)
	}
	s := gvkString(gvk)
	g.byType.Store(t, s)
	return s
}
