package scope

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
)

// scriptOp is one step of a queue script shared with the TypeScript runtime's cross-check test
// (test/go/queue-crosscheck.test.ts): the same steps run through our priority queue port there and through
// controller-runtime's priority queue and the bridge's wrapper here, and the events must agree.
type scriptOp struct {
	Op       string `json:"op"`
	Key      string `json:"key,omitempty"`
	Ms       int    `json:"ms,omitempty"`
	Priority *int   `json:"priority,omitempty"`
}

// TestQueueScript runs CROSSCHECK_SCRIPT (a JSON array of steps) and writes the events to CROSSCHECK_OUT;
// without them it has nothing to do.
func TestQueueScript(t *testing.T) {
	in, out := os.Getenv("CROSSCHECK_SCRIPT"), os.Getenv("CROSSCHECK_OUT")
	if in == "" || out == "" {
		t.Skip("run by test/go/queue-crosscheck.test.ts")
	}
	raw, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var ops []scriptOp
	if err := json.Unmarshal(raw, &ops); err != nil {
		t.Fatal(err)
	}
	s := testScope(t)
	q := newPQ(s, false)
	n, gets := 0, 0
	for _, o := range ops {
		switch o.Op {
		case "add":
			q.AddWithOpts(priorityqueue.AddOpts{Priority: o.Priority}, requestOf(o.Key))
			n++
		case "addAfter":
			q.AddWithOpts(priorityqueue.AddOpts{After: time.Duration(o.Ms) * time.Millisecond, Priority: o.Priority}, requestOf(o.Key))
			n++
		case "addRateLimited":
			q.AddWithOpts(priorityqueue.AddOpts{RateLimited: true, Priority: o.Priority}, requestOf(o.Key))
			n++
		case "get":
			item, _, _ := q.GetWithPriority()
			if keyOf(item) != o.Key {
				t.Fatalf("get: the queue handed out %q, the script expects %q", keyOf(item), o.Key)
			}
			n++
			gets++
		case "done":
			q.Done(requestOf(o.Key))
			n++
		case "forget":
			q.Forget(requestOf(o.Key))
			n++
		default:
			t.Fatalf("unknown op %q", o.Op)
		}
	}
	// Every step reports exactly one queue event; the first get also reports the controller started, which
	// is the tap's own news and not the queue's, so it is left out of what is compared.
	if gets > 0 {
		n++
	}
	drain(t, s, n)
	lines, _, _ := s.ring.after(0, n)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		var head struct {
			Kind string `json:"kind"`
		}
		if json.Unmarshal(l, &head) == nil && head.Kind == "controller.lifecycle" {
			continue
		}
		_, _ = f.Write(l)
	}
	q.ShutDown()
}
