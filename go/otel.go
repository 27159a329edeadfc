package scope

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// otlpTracesURL decides, by the rules server/otel/config.ts follows, whether traces are exported and to
// which OTLP/HTTP URL: on with an explicit endpoint (Config.OTLPEndpoint), OTEL_TRACES_EXPORTER naming otlp,
// or an OTLP endpoint variable unless OTEL_TRACES_EXPORTER says none; always off with OTEL_SDK_DISABLED=true.
func otlpTracesURL(getenv func(string) string, explicit string) (string, bool) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return "", false
	}
	exporters := map[string]bool{}
	for _, e := range strings.Split(getenv("OTEL_TRACES_EXPORTER"), ",") {
		exporters[strings.ToLower(strings.TrimSpace(e))] = true
	}
	tracesURL := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))
	base := strings.TrimSpace(explicit)
	if base == "" {
		base = strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT"))
	}
	asked := explicit != "" || exporters["otlp"]
	if !asked && (exporters["none"] || (tracesURL == "" && base == "")) {
		return "", false
	}
	if explicit == "" && tracesURL != "" {
		return tracesURL, true
	}
	if base == "" {
		base = "http://localhost:4318"
	}
	return strings.TrimRight(base, "/") + "/v1/traces", true
}

// tracer turns the planner's spans into SDK spans with the planned ids and times and exports them. It runs
// on a goroutine of its own behind a bounded buffer, so a collector or SDK that falls behind drops spans (counted)
// and never slows the event stream the dashboard reads.
type tracer struct {
	provider *sdktrace.TracerProvider
	tracer   trace.Tracer
	planner  *spanPlanner
	in       chan stamped
	done     chan struct{}
	dropped  atomic.Int64
	// mu orders observe's send against shutdown's close of in.
	mu     sync.RWMutex
	closed bool
}

// observe hands an event to the tracer's goroutine without waiting (the encoder calls it, in order).
func (t *tracer) observe(st stamped) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.closed {
		return
	}
	select {
	case t.in <- st:
	default:
		t.dropped.Add(1)
	}
}

func (t *tracer) run() {
	defer close(t.done)
	for st := range t.in {
		t.planner.observe(st.ts, st.ev)
	}
}

// maxQueuedSpans is the batcher's queue: the SDK's default (2048) drops spans in the burst a busy controller
// makes (three per reconcile) before the first batch is sent.
const maxQueuedSpans = 65536

type plannedIDsKey struct{}

// plannedIDs hands the SDK the ids the planner chose, through the context of each Start call.
type plannedIDs struct{}

func (plannedIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	if r, ok := ctx.Value(plannedIDsKey{}).(spanRef); ok {
		return r.trace, r.span
	}
	r := randomSpanRef()
	return r.trace, r.span
}

func (plannedIDs) NewSpanID(ctx context.Context, _ trace.TraceID) trace.SpanID {
	if r, ok := ctx.Value(plannedIDsKey{}).(spanRef); ok {
		return r.span
	}
	return randomSpanID()
}

func newTracer(url, process string, buffer int, exporter sdktrace.SpanExporter) (*tracer, error) {
	ctx := context.Background()
	if exporter == nil {
		var err error
		if exporter, err = otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(url)); err != nil {
			return nil, err
		}
	}
	res, err := resource.New(ctx, resource.WithTelemetrySDK(), resource.WithAttributes(processResource(process)...), resource.WithFromEnv())
	if err != nil {
		return nil, err
	}
	p := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithIDGenerator(plannedIDs{}), sdktrace.WithBatcher(exporter, sdktrace.WithMaxQueueSize(maxQueuedSpans)))
	t := &tracer{provider: p, tracer: p.Tracer("github.com/controller-scope/controller-scope/go"), in: make(chan stamped, buffer), done: make(chan struct{})}
	t.planner = newSpanPlanner(t.export)
	go t.run()
	return t, nil
}

// processResource is service.* and, in a pod, k8s.pod.name / k8s.namespace.name; OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES override (resource.WithFromEnv comes last).
func processResource(process string) []attribute.KeyValue {
	a := []attribute.KeyValue{
		attribute.String(protocol.OtelResourceServiceName, filepath.Base(os.Args[0])),
		attribute.String(protocol.OtelResourceServiceInstanceID, process),
	}
	_, inPod := os.LookupEnv("KUBERNETES_SERVICE_HOST")
	pod := os.Getenv("POD_NAME")
	if pod == "" && inPod {
		pod, _ = os.Hostname()
	}
	if pod != "" {
		a = append(a, attribute.String(protocol.OtelResourceK8sPodName, pod))
	}
	ns := os.Getenv("POD_NAMESPACE")
	if ns == "" && inPod {
		b, _ := os.ReadFile("/var/run/secrets/kubernetes.io/serviceaccount/namespace")
		ns = strings.TrimSpace(string(b))
	}
	if ns != "" {
		a = append(a, attribute.String(protocol.OtelResourceK8sNamespaceName, ns))
	}
	return a
}

func (t *tracer) export(s spanPlan) {
	ctx := context.WithValue(context.Background(), plannedIDsKey{}, s.spanRef)
	if s.parent != nil {
		ctx = trace.ContextWithSpanContext(ctx, trace.NewSpanContext(trace.SpanContextConfig{
			TraceID: s.parent.trace, SpanID: s.parent.span, TraceFlags: trace.FlagsSampled,
		}))
	}
	links := make([]trace.Link, 0, len(s.links))
	for _, l := range s.links {
		sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: l.trace, SpanID: l.span, TraceFlags: trace.FlagsSampled})
		links = append(links, trace.Link{SpanContext: sc, Attributes: l.attrs})
	}
	_, span := t.tracer.Start(ctx, s.name, trace.WithTimestamp(s.start), trace.WithAttributes(s.attrs...), trace.WithLinks(links...))
	if s.err != "" {
		span.SetStatus(codes.Error, s.err)
	}
	span.End(trace.WithTimestamp(s.end))
}

// shutdown plans what is buffered, then sends every span still waiting.
func (t *tracer) shutdown() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	close(t.in)
	t.mu.Unlock()
	<-t.done
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if d := t.dropped.Load(); d > 0 {
		fmt.Fprintf(os.Stderr, "controller-scope: %d events reached no span: the trace exporter fell behind\n", d)
	}
	return t.provider.Shutdown(ctx)
}
