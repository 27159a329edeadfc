package scope

import (
	"fmt"
	"strings"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// Builder is a drop-in for ctrl.NewControllerManagedBy with the same surface. It builds the controller with
// controller-runtime's own builder; what it changes is wiring, all through public options: For/Owns become
// Watches with the same handlers (tapped), the queue is the one the controller would make (tapped), and the
// reconciler is wrapped.
type Builder struct {
	s        *Scope
	mgr      manager.Manager
	forObj   client.Object
	forOpts  []builder.ForOption
	owns     []ownsInput
	watches  []watchesInput
	preds    []predicate.Predicate
	opts     controller.Options
	logCtor  func(*reconcile.Request) logr.Logger
	name     string
	ctrlName string
	err      error
}

type ownsInput struct {
	obj  client.Object
	opts []builder.OwnsOption
}

type watchesInput struct {
	obj  client.Object
	h    handler.EventHandler
	opts []builder.WatchesOption
}

// NewControllerManagedBy is ctrl.NewControllerManagedBy, reporting to the process-wide Scope.
func NewControllerManagedBy(mgr manager.Manager) *Builder {
	return Default().NewControllerManagedBy(mgr)
}

// NewControllerManagedBy is ctrl.NewControllerManagedBy, reporting to this Scope.
func (s *Scope) NewControllerManagedBy(mgr manager.Manager) *Builder {
	s.watchManager(mgr)
	return &Builder{s: s, mgr: mgr}
}

func (b *Builder) For(obj client.Object, opts ...builder.ForOption) *Builder {
	if b.forObj != nil {
		b.err = fmt.Errorf("For(...) should only be called once, could not assign multiple objects for reconciliation")
		return b
	}
	b.forObj, b.forOpts = obj, opts
	return b
}

func (b *Builder) Owns(obj client.Object, opts ...builder.OwnsOption) *Builder {
	b.owns = append(b.owns, ownsInput{obj, opts})
	return b
}

func (b *Builder) Watches(obj client.Object, h handler.EventHandler, opts ...builder.WatchesOption) *Builder {
	b.watches = append(b.watches, watchesInput{obj, h, opts})
	return b
}

func (b *Builder) WithEventFilter(p predicate.Predicate) *Builder {
	b.preds = append(b.preds, p)
	return b
}

func (b *Builder) WithOptions(o controller.Options) *Builder {
	b.opts = o
	return b
}

func (b *Builder) WithLogConstructor(f func(*reconcile.Request) logr.Logger) *Builder {
	b.logCtor = f
	return b
}

func (b *Builder) Named(name string) *Builder {
	b.name = name
	return b
}

func (b *Builder) Complete(r reconcile.Reconciler) error {
	_, err := b.Build(r)
	return err
}

// Build makes the controller, as the upstream builder would, with every part tapped.
func (b *Builder) Build(r reconcile.Reconciler) (controller.Controller, error) {
	if b.err != nil {
		return nil, b.err
	}
	if len(b.owns) > 0 && b.forObj == nil {
		return nil, fmt.Errorf("Owns() can only be used together with For()")
	}
	gvks := &gvkCache{scheme: b.mgr.GetScheme()}
	var forGVK schema.GroupVersionKind
	if b.forObj != nil {
		var err error
		if forGVK, err = apiutil.GVKForObject(b.forObj, b.mgr.GetScheme()); err != nil {
			return nil, err
		}
	}
	b.ctrlName = b.name
	if b.ctrlName == "" {
		if b.forObj == nil {
			return nil, fmt.Errorf("one of For() or Named() must be called")
		}
		b.ctrlName = strings.ToLower(forGVK.Kind)
	}
	name := b.ctrlName
	slot := &queueSlot{}
	opts := b.opts
	if opts.MaxConcurrentReconciles == 0 && b.forObj != nil {
		if n, ok := b.mgr.GetControllerOptions().GroupKindConcurrency[forGVK.GroupKind().String()]; ok && n > 0 {
			opts.MaxConcurrentReconciles = n
		}
	}
	usePQ := ptr.Deref(opts.UsePriorityQueue, ptr.Deref(b.mgr.GetControllerOptions().UsePriorityQueue, true))
	wired := b.wiringOf(gvks, gvkIf(b.forObj != nil, forGVK), opts, usePQ)
	opts.NewQueue = b.newQueue(name, slot, opts, usePQ, wired)

	up := builder.ControllerManagedBy(b.mgr).Named(name).WithOptions(opts)
	if b.logCtor != nil {
		up = up.WithLogConstructor(b.logCtor)
	} else if b.forObj != nil {
		up = up.WithLogConstructor(forLogger(b.mgr.GetLogger(), name, forGVK))
	}
	for _, p := range b.preds {
		up = up.WithEventFilter(&tapPredicate{s: b.s, ctrl: &b.ctrlName, name: typeName(p), gvks: gvks, inner: p})
	}
	if b.forObj != nil {
		up = up.Watches(b.forObj, &tapHandler{s: b.s, ctrl: name, name: "EnqueueRequestForObject", causeType: "event", gvks: gvks, inner: &handler.EnqueueRequestForObject{}}, b.tapPredicateOptions(forAsWatches(b.forOpts), "EnqueueRequestForObject", gvks)...)
	}
	for _, o := range b.owns {
		var ownerOpts []handler.OwnerOption
		matchEvery := false
		var wopts []builder.WatchesOption
		for _, opt := range o.opts {
			if opt == builder.OwnsOption(builder.MatchEveryOwner) {
				matchEvery = true
				continue
			}
			if w, ok := opt.(builder.WatchesOption); ok {
				wopts = append(wopts, w)
			}
		}
		if !matchEvery {
			ownerOpts = append(ownerOpts, handler.OnlyControllerOwner())
		}
		h := handler.EnqueueRequestForOwner(b.mgr.GetScheme(), b.mgr.GetRESTMapper(), b.forObj, ownerOpts...)
		up = up.Watches(o.obj, &tapHandler{s: b.s, ctrl: name, name: "EnqueueRequestForOwner", causeType: "owner", ownerKind: forGVK.Kind, gvks: gvks, inner: h}, b.tapPredicateOptions(wopts, "EnqueueRequestForOwner", gvks)...)
	}
	for _, w := range b.watches {
		hname := typeName(w.h)
		cause := protocol.CauseType("event")
		switch {
		case strings.Contains(strings.ToLower(hname), "owner"):
			cause = "owner"
		case strings.Contains(strings.ToLower(hname), "map"):
			cause = "mapped"
		}
		up = up.Watches(w.obj, &tapHandler{s: b.s, ctrl: name, name: hname, causeType: cause, gvks: gvks, inner: w.h}, b.tapPredicateOptions(w.opts, hname, gvks)...)
	}
	c, err := up.Build(&tappedReconciler{s: b.s, name: name, inner: r, queue: slot.get})
	if err != nil {
		return nil, err
	}
	b.s.addController(name, &lazyTarget{slot})
	b.s.emit(wired.on(protocol.ControllerLifecycleEvent{Controller: name, Phase: "starting", Workers: max(opts.MaxConcurrentReconciles, 1), ForKind: gvkIf(b.forObj != nil, forGVK)}))
	return c, nil
}

// newQueue builds the queue this controller-runtime version would build (the priority queue unless the
// controller or the manager turns it off), then wraps it.
func (b *Builder) newQueue(name string, slot *queueSlot, opts controller.Options, usePQ bool, wired wiring) func(string, workqueue.TypedRateLimiter[reconcile.Request]) workqueue.TypedRateLimitingInterface[reconcile.Request] {
	userQueue := opts.NewQueue
	log := b.mgr.GetLogger()
	return func(controllerName string, rl workqueue.TypedRateLimiter[reconcile.Request]) workqueue.TypedRateLimitingInterface[reconcile.Request] {
		var inner priorityqueue.PriorityQueue[reconcile.Request]
		classic := false
		switch {
		case userQueue != nil:
			made := userQueue(controllerName, rl)
			if pq, ok := made.(priorityqueue.PriorityQueue[reconcile.Request]); ok {
				inner = pq
			} else {
				inner, classic = classicQueue{made}, true
			}
		case usePQ:
			inner = priorityqueue.New(controllerName, func(o *priorityqueue.Opts[reconcile.Request]) {
				o.Log = log.WithValues("controller", controllerName)
				o.RateLimiter = rl
			})
		default:
			inner = classicQueue{workqueue.NewTypedRateLimitingQueueWithConfig(rl, workqueue.TypedRateLimitingQueueConfig[reconcile.Request]{Name: controllerName})}
			classic = true
		}
		q := newTapQueue(b.s, name, inner, rl, classic)
		q.wiring = wired
		slot.set(q)
		// controller-runtime makes the queue as the controller starts, then waits for its caches to sync.
		b.s.emit(wired.on(protocol.ControllerLifecycleEvent{Controller: name, Phase: "waitingForCacheSync"}))
		return q
	}
}

// classicQueue lets client-go's rate-limiting queue stand where a priority queue is expected, as
// controller-runtime itself does: priorities are ignored.
type classicQueue struct {
	workqueue.TypedRateLimitingInterface[reconcile.Request]
}

func (c classicQueue) AddWithOpts(o priorityqueue.AddOpts, items ...reconcile.Request) {
	for _, item := range items {
		switch {
		case o.RateLimited:
			c.AddRateLimited(item)
		case o.After > 0:
			c.AddAfter(item, o.After)
		default:
			c.Add(item)
		}
	}
}

func (c classicQueue) GetWithPriority() (reconcile.Request, int, bool) {
	item, shutdown := c.Get()
	return item, 0, shutdown
}

// lazyTarget answers commands once the controller has started and made its queue.
type lazyTarget struct{ slot *queueSlot }

func (l *lazyTarget) command(c command) (any, error) {
	q := l.slot.get()
	if q == nil {
		return nil, fmt.Errorf("controller %q has not started yet", c.Controller)
	}
	return q.command(c)
}

func forAsWatches(opts []builder.ForOption) []builder.WatchesOption {
	var out []builder.WatchesOption
	for _, o := range opts {
		if w, ok := o.(builder.WatchesOption); ok {
			out = append(out, w)
		}
	}
	return out
}

// forLogger is the log constructor the upstream builder gives a For() controller.
func forLogger(base logr.Logger, name string, gvk schema.GroupVersionKind) func(*reconcile.Request) logr.Logger {
	log := base.WithValues("controller", name, "controllerGroup", gvk.Group, "controllerKind", gvk.Kind)
	return func(req *reconcile.Request) logr.Logger {
		if req == nil {
			return log
		}
		return log.WithValues(gvk.Kind, req.NamespacedName.String(), "namespace", req.Namespace, "name", req.Name)
	}
}

func gvkIf(ok bool, gvk schema.GroupVersionKind) string {
	if !ok {
		return ""
	}
	return gvkString(gvk)
}
