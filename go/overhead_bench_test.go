package scope

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// BenchmarkControllerLoop drives a real controller-runtime controller (priority queue, one worker) with
// b.N events for distinct objects through EnqueueRequestForObject to a reconciler that does nothing, once
// plain, with the bridge's queue, handler and reconciler taps (events encoded, no reader), and with the taps
// and trace export: spans sent over OTLP/HTTP to $CONTROLLER_SCOPE_BENCH_OTLP (a collector; bench/go-bridge.ts
// starts Jaeger) or else to a local endpoint that accepts and discards them. It reports wall time per
// reconcile and the process CPU per reconcile (the encoder's goroutine included; with traces, until the last
// span is sent).
func BenchmarkControllerLoop(b *testing.B) {
	b.Run("plain", func(b *testing.B) { runControllerLoop(b, false, "") })
	b.Run("bridge", func(b *testing.B) { runControllerLoop(b, true, "") })
	b.Run("traced", func(b *testing.B) {
		endpoint := os.Getenv("CONTROLLER_SCOPE_BENCH_OTLP")
		if endpoint == "" {
			sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
			}))
			defer sink.Close()
			endpoint = sink.URL
		}
		runControllerLoop(b, true, endpoint)
	})
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func runControllerLoop(b *testing.B, tapped bool, otlp string) {
	s, err := New(Config{Addr: "off", Process: "bench", OTLPEndpoint: otlp})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var done atomic.Int64
	finished := make(chan struct{})
	want := int64(b.N)
	var r reconcile.Reconciler = reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		if done.Add(1) == want {
			close(finished)
		}
		return reconcile.Result{}, nil
	})
	var h handler.EventHandler = &handler.EnqueueRequestForObject{}
	opts := controller.Options{SkipNameValidation: ptr.To(true)}
	if tapped {
		slot := &queueSlot{}
		r = &tappedReconciler{s: s, name: "bench", inner: r, queue: slot.get}
		h = &tapHandler{s: s, ctrl: "bench", name: "EnqueueRequestForObject", causeType: "event", gvks: &gvkCache{scheme: scheme.Scheme}, inner: h}
		opts.NewQueue = func(name string, rl workqueue.TypedRateLimiter[reconcile.Request]) workqueue.TypedRateLimitingInterface[reconcile.Request] {
			q := newTapQueue(s, name, priorityqueue.New(name, func(o *priorityqueue.Opts[reconcile.Request]) { o.RateLimiter = rl }), rl, false)
			slot.set(q)
			return q
		}
	}
	opts.Reconciler = r
	c, err := controller.NewUnmanaged("bench", opts)
	if err != nil {
		b.Fatal(err)
	}
	ch := make(chan event.GenericEvent, 1024)
	if err := c.Watch(source.Channel[client.Object](ch, h)); err != nil {
		b.Fatal(err)
	}
	objs := make([]*corev1.ConfigMap, b.N)
	for i := range objs {
		objs[i] = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "bench", Name: fmt.Sprintf("cm-%d", i), ResourceVersion: "1"}}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = c.Start(ctx) }()
	b.ResetTimer()
	cpu0 := cpuNow()
	for _, o := range objs {
		ch <- event.GenericEvent{Object: o}
	}
	<-finished
	if otlp != "" {
		// Every span handed to the exporter and acknowledged: part of the cost.
		for len(s.in) > 0 {
			time.Sleep(time.Millisecond)
		}
		_ = s.Close()
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuNow()-cpu0)/float64(b.N), "cpu-ns/op")
	dropped := s.Dropped()
	if s.tracer != nil {
		dropped += s.tracer.dropped.Load()
	}
	b.ReportMetric(float64(dropped), "dropped")
}
