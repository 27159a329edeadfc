package scope

import (
	"sigs.k8s.io/controller-runtime/pkg/controller"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// wiring is what a controller's lifecycle events say it is built from: the builder's For, Owns and Watches
// (so the dashboard lists every source, events or not), the queue it runs on and whether that queue's rate
// limiter is controller-runtime's default for it. It rides on every phase, so a view that starts late has it.
type wiring struct {
	sources     []protocol.ControllerSource
	queue       protocol.ControllerQueueKind
	rateLimiter string
}

// on adds the wiring to a lifecycle event.
func (w wiring) on(ev protocol.ControllerLifecycleEvent) protocol.ControllerLifecycleEvent {
	ev.Sources, ev.QueueKind, ev.RateLimiter = w.sources, w.queue, w.rateLimiter
	return ev
}

// wiringOf reads the builder's calls and the controller options as controller-runtime will use them: a user
// NewQueue is 'custom' (it may be either kind); otherwise UsePriorityQueue, from the controller or the
// manager, on unless turned off.
func (b *Builder) wiringOf(gvks *gvkCache, forKind string, opts controller.Options, usePQ bool) wiring {
	var w wiring
	if b.forObj != nil {
		w.sources = append(w.sources, protocol.ControllerSource{Role: "for", Kind: forKind, Handler: "EnqueueRequestForObject"})
	}
	for _, o := range b.owns {
		w.sources = append(w.sources, protocol.ControllerSource{Role: "owns", Kind: gvks.of(o.obj), Handler: "EnqueueRequestForOwner"})
	}
	for _, x := range b.watches {
		w.sources = append(w.sources, protocol.ControllerSource{Role: "watches", Kind: gvks.of(x.obj), Handler: typeName(x.h)})
	}
	switch {
	case opts.NewQueue != nil:
		w.queue = protocol.ControllerQueueKindCustom
	case usePQ:
		w.queue = protocol.ControllerQueueKindPriority
	default:
		w.queue = protocol.ControllerQueueKindRateLimiting
	}
	w.rateLimiter = "default"
	if opts.RateLimiter != nil {
		w.rateLimiter = "custom"
	}
	return w
}
