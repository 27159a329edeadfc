package scope

import (
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// spanPlan describes one span built after the fact from the event stream, with the events' own times.
// The same builder as server/otel/span-plan.ts: the TypeScript and the Go exporter make the same spans.
type spanPlan struct {
	spanRef
	name       string
	parent     *spanRef // same trace; nil for a root span
	start, end time.Time
	attrs      []attribute.KeyValue
	links      []linkPlan
	err        string
}

type linkPlan struct {
	spanRef
	attrs []attribute.KeyValue
}

type openReconcile struct {
	spanRef
	controller, key, reconcileID string
	start                        time.Time
	queued                       *time.Time
	causes                       []protocol.EnqueueCause
	attempt                      int
	wrote                        []linkPlan
}

// maxRememberedKeys bounds the per-key memory (pending queue waits, the last reconcile for retry links).
const maxRememberedKeys = 10000

// spanPlanner follows the events of one process in order (the encoder goroutine) and emits spans as
// reconciles end and writes return. Not safe for concurrent use; it needs no lock where it runs.
type spanPlanner struct {
	emit          func(spanPlan)
	open          map[string]*openReconcile
	byReconcileID map[string]*openReconcile
	firstQueued   *lru[time.Time]
	last          *lru[spanRef]
}

func newSpanPlanner(emit func(spanPlan)) *spanPlanner {
	return &spanPlanner{
		emit: emit, open: map[string]*openReconcile{}, byReconcileID: map[string]*openReconcile{},
		firstQueued: newLRU[time.Time](maxRememberedKeys), last: newLRU[spanRef](maxRememberedKeys),
	}
}

func (p *spanPlanner) observe(ts float64, ev protocol.RuntimeEvent) {
	at := time.UnixMicro(int64(ts * 1000))
	switch e := ev.(type) {
	case protocol.QueueAddEvent:
		p.queued(e.Queue, e.Key, at)
	case protocol.QueueAddAfterEvent:
		p.queued(e.Queue, e.Key, at)
	case protocol.ReconcileStartEvent:
		p.started(e, at)
	case protocol.ClientRequestEvent:
		p.wrote(e, at)
	case protocol.ReconcileEndEvent:
		p.ended(e, at)
	}
}

func slot(controller, key string) string { return controller + "\x00" + key }

func (p *spanPlanner) queued(queue, key string, at time.Time) {
	if _, ok := p.firstQueued.get(slot(queue, key)); !ok {
		p.firstQueued.put(slot(queue, key), at)
	}
}

func (p *spanPlanner) started(e protocol.ReconcileStartEvent, at time.Time) {
	id := slot(e.Controller, e.Key)
	r := &openReconcile{
		spanRef: randomSpanRef(), controller: e.Controller, key: e.Key, reconcileID: e.ReconcileID,
		start: at, causes: e.Causes, attempt: e.Attempt,
	}
	if q, ok := p.firstQueued.get(id); ok && !q.After(at) {
		r.queued = &q
	}
	p.firstQueued.remove(id)
	p.open[id] = r
	if e.ReconcileID != "" {
		p.byReconcileID[e.ReconcileID] = r
	}
}
