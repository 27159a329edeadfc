package scope

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// The vector server/otel/span-plan.test.ts checks too: both languages derive a write's ids alike.
func TestOtelWriteSpanRefVector(t *testing.T) {
	r := writeSpanRef("uid-1", "42")
	if r.trace.String() != "b0efe2996a6b59c319bc1f27a03ba8de" || r.span.String() != "b94aecff9743034d" {
		t.Fatalf("writeSpanRef = %s/%s", r.trace, r.span)
	}
}

func TestOtelTracesURL(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		env      map[string]string
		explicit string
		want     string
	}{
		{map[string]string{}, "", ""},
		{map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, "", "http://localhost:4318/v1/traces"},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/"}, "", "http://c:4318/v1/traces"},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"}, "", ""},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:9/t"}, "", "http://c:9/t"},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:9/t"}, "http://f:1", "http://f:1/v1/traces"},
		{map[string]string{"OTEL_TRACES_EXPORTER": "otlp", "OTEL_SDK_DISABLED": "true"}, "", ""},
	}
	for _, c := range cases {
		if got, _ := otlpTracesURL(env(c.env), c.explicit); got != c.want {
			t.Errorf("%v %q: got %q, want %q", c.env, c.explicit, got, c.want)
		}
	}
}

func attrOf(kvs []attribute.KeyValue, key string) string {
	for _, kv := range kvs {
		if string(kv.Key) == key {
			return kv.Value.Emit()
		}
	}
	return ""
}

func TestOtelReconcileWriteAndQueueWait(t *testing.T) {
	mem := tracetest.NewInMemoryExporter()
	tr, err := newTracer("", "test/1", 16, mem)
	if err != nil {
		t.Fatal(err)
	}
	cm := func(uid, rv string) protocol.ObjectRef {
		return protocol.ObjectRef{GVK: "v1/ConfigMap", Namespace: "default", Name: "a", UID: uid, ResourceVersion: rv}
	}
	src := cm("u1", "5")
	cause := protocol.EnqueueCause{Type: "event", EventType: "update", Source: &src}
	for _, e := range []struct {
		ts float64
		ev protocol.RuntimeEvent
	}{
		{100, protocol.QueueAddEvent{Queue: "c", Key: "default/a", Cause: cause, Queued: true}},
		{110, protocol.ReconcileStartEvent{Controller: "c", Key: "default/a", Causes: []protocol.EnqueueCause{cause}, Attempt: 1, ReconcileID: "r1"}},
		{125, protocol.ClientRequestEvent{Verb: "update", Ref: cm("u2", "7"), DurationMs: 3, Code: 200, ReconcileID: "r1"}},
		{130, protocol.ReconcileEndEvent{Controller: "c", Key: "default/a", Outcome: "success", ReconcileID: "r1"}},
	} {
		tr.planner.observe(e.ts, e.ev)
	}
	if err := tr.provider.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := mem.GetSpans()
	if len(spans) != 3 {
		t.Fatalf("got %d spans, want write, reconcile, queue wait", len(spans))
	}
	write, rec, wait := spans[0], spans[1], spans[2]
	if want := writeSpanRef("u2", "7"); write.SpanContext.TraceID() != want.trace || write.SpanContext.SpanID() != want.span {
		t.Errorf("write ids %s/%s, want the ones derived from uid and rv", write.SpanContext.TraceID(), write.SpanContext.SpanID())
	}
	if len(write.Links) != 1 || write.Links[0].SpanContext.SpanID() != rec.SpanContext.SpanID() {
		t.Errorf("the write links back to its reconcile: %v", write.Links)
	}
	if rec.Name != protocol.OtelSpanReconcile || attrOf(rec.Attributes, protocol.OtelAttrReconcileID) != "r1" || attrOf(rec.Attributes, protocol.OtelAttrResult) != "success" {
		t.Errorf("reconcile span %s %v", rec.Name, rec.Attributes)
	}
	if len(rec.Links) != 2 || rec.Links[0].SpanContext.SpanID() != writeSpanRef("u1", "5").span || rec.Links[1].SpanContext.SpanID() != write.SpanContext.SpanID() {
		t.Errorf("reconcile links: %v", rec.Links)
	}
	if !rec.StartTime.Equal(time.UnixMilli(110)) || !rec.EndTime.Equal(time.UnixMilli(130)) {
		t.Errorf("reconcile times %v..%v", rec.StartTime, rec.EndTime)
	}
	if wait.Name != protocol.OtelSpanQueueWait || wait.Parent.SpanID() != rec.SpanContext.SpanID() || !wait.StartTime.Equal(time.UnixMilli(100)) {
		t.Errorf("queue wait %s parent %s start %v", wait.Name, wait.Parent.SpanID(), wait.StartTime)
	}
	_ = tr.shutdown()
}
