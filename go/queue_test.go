package scope

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-scope/controller-scope/go/protocol"
)

func req(ns, name string) reconcile.Request {
	return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: name}}
}

func testScope(t *testing.T) *Scope {
	t.Helper()
	s, err := New(Config{Addr: "off", Process: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// drain returns the events encoded so far, as decoded JSON objects.
func drain(t *testing.T, s *Scope, want int) []map[string]any {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		lines, _, wait := s.ring.after(0, 1<<20)
		if len(lines) >= want {
			out := make([]map[string]any, 0, len(lines))
			for _, l := range lines {
				var m map[string]any
				if err := json.Unmarshal(l, &m); err != nil {
					t.Fatalf("line %q: %v", l, err)
				}
				out = append(out, m)
			}
			return out
		}
		select {
		case <-wait:
		case <-deadline:
			t.Fatalf("waited for %d events, have %d", want, len(lines))
		}
	}
}

func kinds(evs []map[string]any) string {
	k := make([]string, len(evs))
	for i, e := range evs {
		k[i] = e["kind"].(string)
	}
	return strings.Join(k, " ")
}

func newPQ(s *Scope, classic bool) *tapQueue {
	rl := workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](5*time.Millisecond, time.Second)
	var inner priorityqueue.PriorityQueue[reconcile.Request]
	if classic {
		inner = classicQueue{workqueue.NewTypedRateLimitingQueueWithConfig(rl, workqueue.TypedRateLimitingQueueConfig[reconcile.Request]{Name: "c"})}
	} else {
		inner = priorityqueue.New[reconcile.Request]("c", func(o *priorityqueue.Opts[reconcile.Request]) { o.RateLimiter = rl })
	}
	return newTapQueue(s, "c", inner, rl, classic)
}

func TestQueueReportsAddGetDoneWithDepthAndDeduplication(t *testing.T) {
	for _, classic := range []bool{false, true} {
		s := testScope(t)
		q := newPQ(s, classic)
		q.Add(req("ns", "a"))
		q.Add(req("ns", "a")) // de-duplicated
		item, _, _ := q.GetWithPriority()
		if item != req("ns", "a") {
			t.Fatalf("got %v", item)
		}
		q.Add(req("ns", "a")) // dirty while processing
		q.Done(item)
		evs := drain(t, s, 6)
		// The first worker asking for a key is when controller-runtime has started the controller.
		if got := kinds(evs); got != "queue.add queue.add controller.lifecycle queue.get queue.add queue.done" {
			t.Fatalf("classic=%v kinds: %s", classic, got)
		}
		if evs[2]["phase"] != "started" {
			t.Errorf("classic=%v: the first get reports the controller started: %v", classic, evs[2])
		}
		evs = append(evs[:2], evs[3:]...)
		if evs[0]["queued"] != true || evs[1]["queued"] != false {
			t.Errorf("classic=%v: first add queued, second de-duplicated: %v %v", classic, evs[0], evs[1])
		}
		if evs[3]["dirtyWhileProcessing"] != true || evs[4]["requeued"] != true {
			t.Errorf("classic=%v: add while processing parks the key and done requeues it: %v %v", classic, evs[3], evs[4])
		}
		depth := evs[4]["depth"].(map[string]any)
		if depth["ready"] != 1.0 || depth["processing"] != 0.0 {
			t.Errorf("classic=%v depth after done: %v", classic, depth)
		}
		q.ShutDown()
	}
}

func TestRateLimitedAddCarriesTheLimitersDelayAndMatures(t *testing.T) {
	s := testScope(t)
	q := newPQ(s, false)
	q.result("ns/a", &pendingResult{outcome: "error", cause: causeOf("errorBackoff", "boom")})
	q.AddRateLimited(req("ns", "a"))
	q.AddRateLimited(req("ns", "a"))
	evs := drain(t, s, 4) // addAfter, reconcile.end, addAfter, matured add
	if got := kinds(evs[:3]); got != "queue.addAfter reconcile.end queue.addAfter" {
		t.Fatalf("kinds: %s", got)
	}
	if evs[0]["delayMs"] != 5.0 || evs[2]["delayMs"] != 10.0 {
		t.Errorf("exponential backoff 5ms then 10ms, got %v and %v", evs[0]["delayMs"], evs[2]["delayMs"])
	}
	if c := evs[0]["cause"].(map[string]any); c["type"] != "errorBackoff" || c["detail"] != "boom" {
		t.Errorf("the controller's add after an error carries the error: %v", c)
	}
	if evs[2]["requeues"] != 2.0 {
		t.Errorf("requeues after two rate-limited adds: %v", evs[2]["requeues"])
	}
	if evs[3]["kind"] != "queue.add" || evs[3]["matured"] != true {
		t.Errorf("the delay passing makes the key ready: %v", evs[3])
	}
	item, _, _ := q.GetWithPriority()
	if item != req("ns", "a") {
		t.Fatalf("the real queue hands out the matured key, got %v", item)
	}
	q.ShutDown()
}

func TestPriorityQueueFoldsAReadyAddIntoAWaitingKey(t *testing.T) {
	s := testScope(t)
	q := newPQ(s, false)
	q.AddAfter(req("", "a"), time.Hour)
	q.Add(req("", "a"))
	evs := drain(t, s, 2)
	if evs[1]["delayCancelled"] != true || evs[1]["queued"] != true {
		t.Fatalf("an undelayed add ends the wait in the priority queue: %v", evs[1])
	}
	d := evs[1]["depth"].(map[string]any)
	if d["waiting"] != 0.0 || d["ready"] != 1.0 {
		t.Fatalf("depth: %v", d)
	}
	q.ShutDown()
}

func TestStepHoldKeepsKeysQueuedAndNextReleasesOne(t *testing.T) {
	s := testScope(t)
	q := newPQ(s, false)
	if _, err := q.command(command{Type: "step.hold", Controller: "c"}); err != nil {
		t.Fatal(err)
	}
	q.Add(req("", "a"))
	q.Add(req("", "b"))
	got := make(chan reconcile.Request, 2)
	go func() {
		for {
			item, _, shutdown := q.GetWithPriority()
			if shutdown {
				return
			}
			got <- item
		}
	}()
	select {
	case item := <-got:
		t.Fatalf("held, yet %v was handed out", item)
	case <-time.After(100 * time.Millisecond):
	}
	st, _ := q.command(command{Type: "step.next", Controller: "c"})
	if !st.(protocol.StepState).Holding {
		t.Fatalf("next keeps holding: %+v", st)
	}
	// The answer names what the step let through, so the dashboard can say what it did.
	if r := st.(protocol.StepState).LastReleased; r == nil || r.Key != "a" || r.Worker != 0 {
		t.Fatalf("next answers with the released key and its worker: %+v", r)
	}
	first := <-got
	select {
	case item := <-got:
		t.Fatalf("one release, yet %v followed %v", item, first)
	case <-time.After(100 * time.Millisecond):
	}
	if _, err := q.command(command{Type: "step.resume", Controller: "c"}); err != nil {
		t.Fatal(err)
	}
	<-got
	q.ShutDown()
}

func TestRequeueCommandAddsWithAManualCause(t *testing.T) {
	s := testScope(t)
	q := newPQ(s, false)
	if _, err := q.command(command{Type: "requeue", Controller: "c", Key: "ns/x"}); err != nil {
		t.Fatal(err)
	}
	evs := drain(t, s, 1)
	if evs[0]["key"] != "ns/x" || evs[0]["cause"].(map[string]any)["type"] != "manual" {
		t.Fatalf("%v", evs[0])
	}
	if _, err := q.command(command{Type: "requeue", Controller: "c"}); err == nil {
		t.Fatal("a requeue without a key is refused")
	}
	q.ShutDown()
}

func TestEmitNeverBlocksAndCountsDrops(t *testing.T) {
	s, _ := New(Config{Addr: "off", Buffer: 1})
	// Fill the channel faster than the encoder drains it: every emit returns at once either way.
	for range 10000 {
		s.emit(queueForget("k"))
	}
	drain(t, s, 1)
	if s.Dropped() == 0 {
		t.Skip("the encoder kept up with 10000 emits into a buffer of one")
	}
	s.emit(queueForget("after"))
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		lines, _, _ := s.ring.after(0, 1<<20)
		for _, l := range lines {
			if strings.Contains(string(l), `"kind":"bridge.dropped"`) {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("drops are reported with a bridge.dropped event")
}

func causeOf(t, detail string) protocol.EnqueueCause {
	return protocol.EnqueueCause{Type: protocol.CauseType(t), Detail: detail}
}

func queueForget(key string) protocol.QueueForgetEvent {
	return protocol.QueueForgetEvent{Queue: "c", Key: key}
}

func TestTypeNameDropsPackagePointerAndTypeArguments(t *testing.T) {
	if got := typeName(&priorityqueue.AddOpts{}); got != "AddOpts" {
		t.Errorf("got %q", got)
	}
	if got := typeName(newPQ(testScope(t), false).inner); got != "Priorityqueue" {
		t.Errorf("generic type: got %q", got)
	}
}
