package scope

import (
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/controller-scope/controller-scope/go/protocol"
)

func (p *spanPlanner) ended(e protocol.ReconcileEndEvent, at time.Time) {
	id := slot(e.Controller, e.Key)
	r, ok := p.open[id]
	if !ok {
		return
	}
	delete(p.open, id)
	delete(p.byReconcileID, r.reconcileID)
	attrs := []attribute.KeyValue{
		attribute.String(protocol.OtelAttrController, r.controller),
		attribute.String(protocol.OtelAttrKey, r.key),
		attribute.String(protocol.OtelAttrResult, string(e.Outcome)),
		attribute.Int(protocol.OtelAttrAttempt, r.attempt),
		attribute.Int(protocol.OtelAttrCauses, len(r.causes)),
	}
	if r.reconcileID != "" {
		attrs = append(attrs, attribute.String(protocol.OtelAttrReconcileID, r.reconcileID))
	}
	if e.Error != "" {
		attrs = append(attrs, attribute.String(protocol.OtelAttrError, e.Error))
	}
	if e.RequeueAfterMs != 0 {
		attrs = append(attrs, attribute.Float64(protocol.OtelAttrRequeueAfterMs, e.RequeueAfterMs))
	}
	links := append(p.causeLinks(r, id), r.wrote...)
	p.emit(spanPlan{spanRef: r.spanRef, name: protocol.OtelSpanReconcile, start: r.start, end: at, attrs: attrs, links: links, err: e.Error})
	if r.queued != nil {
		p.emit(queueWait(r, *r.queued))
	}
	p.last.put(id, r.spanRef)
}

var retryCauses = map[protocol.CauseType]bool{"requeue": true, "requeueAfter": true, "errorBackoff": true}

// causeLinks is one link per distinct target: the write behind each watch event, the previous reconcile of
// the key on a retry.
func (p *spanPlanner) causeLinks(r *openReconcile, id string) []linkPlan {
	var out []linkPlan
	seen := map[spanRef]bool{}
	for _, c := range r.causes {
		if src := c.Source; src != nil && src.UID != "" && src.ResourceVersion != "" && c.EventType != "" {
			target := writeSpanRef(src.UID, src.ResourceVersion)
			if !seen[target] {
				seen[target] = true
				out = append(out, linkPlan{spanRef: target, attrs: causeAttrs(c)})
			}
		}
		if prev, ok := p.last.get(id); ok && retryCauses[c.Type] && !seen[prev] {
			seen[prev] = true
			out = append(out, linkPlan{spanRef: prev, attrs: []attribute.KeyValue{
				attribute.String(protocol.OtelAttrLink, protocol.OtelLinkRetry),
				attribute.String(protocol.OtelAttrCauseType, string(c.Type)),
			}})
		}
	}
	return out
}

func causeAttrs(c protocol.EnqueueCause) []attribute.KeyValue {
	src := c.Source
	a := []attribute.KeyValue{
		attribute.String(protocol.OtelAttrLink, protocol.OtelLinkCause),
		attribute.String(protocol.OtelAttrCauseType, string(c.Type)),
		attribute.String(protocol.OtelAttrObjectKind, src.GVK),
		attribute.String(protocol.OtelAttrObjectName, src.Name),
		attribute.String(protocol.OtelAttrObjectUID, src.UID),
		attribute.String(protocol.OtelAttrObjectResourceVersion, src.ResourceVersion),
		attribute.String(protocol.OtelAttrEventType, c.EventType),
	}
	if src.Namespace != "" {
		a = append(a, attribute.String(protocol.OtelAttrObjectNamespace, src.Namespace))
	}
	return a
}

func queueWait(r *openReconcile, queued time.Time) spanPlan {
	parent := r.spanRef
	return spanPlan{
		spanRef: spanRef{trace: r.trace, span: randomSpanID()}, parent: &parent,
		name: protocol.OtelSpanQueueWait, start: queued, end: r.start,
		attrs: []attribute.KeyValue{
			attribute.String(protocol.OtelAttrController, r.controller),
			attribute.String(protocol.OtelAttrKey, r.key),
			attribute.Float64(protocol.OtelAttrQueueWaitMs, float64(r.start.Sub(queued).Microseconds())/1000),
			attribute.Int(protocol.OtelAttrCauses, len(r.causes)),
		},
	}
}

var writeVerbs = map[string]bool{
	"create": true, "update": true, "patch": true, "delete": true, "deleteAllOf": true, "updateStatus": true, "patchStatus": true,
}

func (p *spanPlanner) wrote(e protocol.ClientRequestEvent, at time.Time) {
	if e.Cached || !writeVerbs[e.Verb] {
		return
	}
	r := p.reconcileOf(e.ReconcileID, e.Controller)
	made := e.Ref.UID != "" && e.Ref.ResourceVersion != "" && e.Error == ""
	// A write that made a version starts that version's trace; one that made none stays inside its reconcile.
	plan := spanPlan{name: protocol.OtelSpanWrite, start: at.Add(-time.Duration(e.DurationMs * float64(time.Millisecond))), end: at, err: e.Error}
	switch {
	case made:
		plan.spanRef = writeSpanRef(e.Ref.UID, e.Ref.ResourceVersion)
	case r != nil:
		parent := r.spanRef
		plan.spanRef, plan.parent = spanRef{trace: r.trace, span: randomSpanID()}, &parent
	default:
		plan.spanRef = randomSpanRef()
	}
	plan.attrs = writeAttrs(e, r, made)
	if r != nil {
		if made {
			plan.links = []linkPlan{{spanRef: r.spanRef, attrs: []attribute.KeyValue{attribute.String(protocol.OtelAttrLink, protocol.OtelLinkMadeBy)}}}
		}
		r.wrote = append(r.wrote, linkPlan{spanRef: plan.spanRef, attrs: []attribute.KeyValue{attribute.String(protocol.OtelAttrLink, protocol.OtelLinkWrote)}})
	}
	p.emit(plan)
}

func writeAttrs(e protocol.ClientRequestEvent, r *openReconcile, made bool) []attribute.KeyValue {
	a := []attribute.KeyValue{
		attribute.String(protocol.OtelAttrVerb, e.Verb),
		attribute.String(protocol.OtelAttrObjectKind, e.Ref.GVK),
		attribute.String(protocol.OtelAttrObjectName, e.Ref.Name),
	}
	add := func(k, v string) {
		if v != "" {
			a = append(a, attribute.String(k, v))
		}
	}
	add(protocol.OtelAttrObjectNamespace, e.Ref.Namespace)
	add(protocol.OtelAttrObjectUID, e.Ref.UID)
	if made {
		add(protocol.OtelAttrObjectResourceVersion, e.Ref.ResourceVersion)
	}
	if e.Code != 0 {
		a = append(a, attribute.Int(protocol.OtelAttrStatusCode, e.Code))
	}
	controller := e.Controller
	if controller == "" && r != nil {
		controller = r.controller
	}
	add(protocol.OtelAttrController, controller)
	add(protocol.OtelAttrReconcileID, e.ReconcileID)
	add(protocol.OtelAttrError, e.Error)
	return a
}

// reconcileOf is the reconcile that made a call: by its reconcileID, else the controller's only running one.
func (p *spanPlanner) reconcileOf(reconcileID, controller string) *openReconcile {
	if reconcileID != "" {
		return p.byReconcileID[reconcileID]
	}
	var only *openReconcile
	for _, r := range p.open {
		if controller == "" || r.controller != controller {
			continue
		}
		if only != nil {
			return nil
		}
		only = r
	}
	return only
}
