package scope

import (
	"crypto/rand"
	"crypto/sha256"

	"go.opentelemetry.io/otel/trace"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// spanRef names a span: a trace id and a span id.
type spanRef struct {
	trace trace.TraceID
	span  trace.SpanID
}

// writeSpanRef is the ids of the span of the write that made version rv of object uid: SHA-256 of the seed,
// NUL, uid, NUL, rv; the trace id is the first 16 bytes, the span id the next 8 (server/otel/span-ids.ts
// computes the same, so a reconcile in a TypeScript process links to a Go process's write and back).
func writeSpanRef(uid, rv string) spanRef {
	h := sha256.Sum256([]byte(protocol.OtelWriteIDSeed + "\x00" + uid + "\x00" + rv))
	var r spanRef
	copy(r.trace[:], h[0:16])
	copy(r.span[:], h[16:24])
	// An all-zero span id is invalid; a hash that gives one (2^-64) borrows the next bytes, as the TS side does.
	if !r.span.IsValid() {
		copy(r.span[:], h[24:32])
	}
	return r
}

func randomSpanRef() spanRef {
	var r spanRef
	_, _ = rand.Read(r.trace[:])
	r.span = randomSpanID()
	return r
}

func randomSpanID() trace.SpanID {
	var s trace.SpanID
	_, _ = rand.Read(s[:])
	return s
}
