package scope

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// tappedReconciler reports each reconcile: its start with every cause the key absorbed and the attempt,
// its end with outcome, error, RequeueAfter and duration; it remembers the reconcileID so the client tap can
// attribute writes. A panic is reported and passed on unchanged (controller-runtime recovers it).
type tappedReconciler struct {
	s     *Scope
	name  string
	inner reconcile.Reconciler
	queue func() *tapQueue
}

func (t *tappedReconciler) Reconcile(ctx context.Context, req reconcile.Request) (res reconcile.Result, err error) {
	q := t.queue()
	if q == nil {
		return t.inner.Reconcile(ctx, req)
	}
	id := string(controller.ReconcileIDFromContext(ctx))
	key := keyOf(req)
	worker := q.workerStart(key)
	t.s.reconciles.Store(id, t.name)
	t.s.emit(protocol.ReconcileStartEvent{
		Controller: t.name, Key: key, Worker: worker, Causes: q.takeCauses(key),
		Attempt: q.NumRequeues(req) + 1, ReconcileID: id,
	})
	start := t.s.cfg.Now()
	defer func() {
		p := recover()
		t.s.reconciles.Delete(id)
		q.workerEnd(key)
		end := protocol.ReconcileEndEvent{Controller: t.name, Key: key, Worker: worker, DurationMs: ms(t.s.cfg.Now().Sub(start)), ReconcileID: id}
		r := &pendingResult{}
		switch {
		case p != nil:
			end.Outcome, end.Error = "panic", fmt.Sprint(p)
			r.cause = protocol.EnqueueCause{Type: "errorBackoff", Detail: "panic: " + fmt.Sprint(p)}
		case err != nil && errors.Is(err, reconcile.TerminalError(nil)):
			end.Outcome, end.Error = "terminalError", err.Error()
		case err != nil:
			end.Outcome, end.Error = "error", err.Error()
			r.cause = protocol.EnqueueCause{Type: "errorBackoff", Detail: err.Error()}
		case res.RequeueAfter > 0:
			end.Outcome, end.RequeueAfterMs = "requeueAfter", ms(res.RequeueAfter)
			r.cause = protocol.EnqueueCause{Type: "requeueAfter", Detail: res.RequeueAfter.String()}
		case res.Requeue: //nolint:staticcheck // still honoured by controller-runtime
			end.Outcome = "requeue"
			r.cause = protocol.EnqueueCause{Type: "requeue"}
		default:
			end.Outcome = "success"
		}
		r.outcome, r.end = end.Outcome, end
		q.result(key, r)
		if end.Outcome == "error" || end.Outcome == "panic" || end.Outcome == "terminalError" {
			q.step.reconcileFailed(key)
		}
		if p != nil {
			panic(p)
		}
	}()
	return t.inner.Reconcile(ctx, req)
}

// queueSlot is filled when controller-runtime builds the controller's queue at start.
type queueSlot struct {
	mu sync.Mutex
	q  *tapQueue
}

func (s *queueSlot) get() *tapQueue {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.q
}

func (s *queueSlot) set(q *tapQueue) {
	s.mu.Lock()
	s.q = q
	s.mu.Unlock()
}
