// Span and trace ids: random for reconciles, derived from (uid, resourceVersion) for a write that produced a
// version, so any process that sees the version in a watch event can name the write's span without asking
// the process that made it. go/otel_ids.go computes the same bytes; both are tested on one fixed vector.
import { createHash, randomFillSync } from 'node:crypto';
import { OTEL_WRITE_ID_SEED } from '../../shared/protocol/otel-names';

export interface SpanRef {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
}

const ZERO_SPAN = '0000000000000000';

/** The ids of the span of the write that made version `rv` of the object `uid`. */
export function writeSpanRef(uid: string, rv: string): SpanRef {
  const h = createHash('sha256').update(`${OTEL_WRITE_ID_SEED}\u0000${uid}\u0000${rv}`).digest('hex');
  // All-zero ids are invalid in OpenTelemetry; a hash that gives one (2^-64) borrows the next bytes.
  const spanId = h.slice(32, 48) === ZERO_SPAN ? h.slice(48, 64) : h.slice(32, 48);
  return { traceId: h.slice(0, 32), spanId };
}

// One call to the system's random source per 4 KiB of ids: a call per id costs more than the rest of a span.
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  return pool.toString('hex', used - bytes, used);
}

export function randomSpanRef(): SpanRef {
  return { traceId: randomHex(16), spanId: randomSpanId() };
}

export function randomSpanId(): string {
  let id = randomHex(8);
  while (id === ZERO_SPAN) id = randomHex(8);
  return id;
}
