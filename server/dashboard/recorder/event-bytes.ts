// What an event costs the process to keep, estimated from its shape, so the ring can honour a byte budget
// without serializing anything. The figures are those of a 64-bit V8 heap without pointer compression (as
// Node ships): each object a header plus one slot per field, each string a header plus one byte per
// character, each non-small number a boxed double. Strings the event shares with the cache (names, keys)
// are counted as if the event owned them, so the estimate errs on the side of holding less than the budget.

const OBJECT_HEADER = 32;
const ARRAY_HEADER = 32;
const SLOT = 8;
const STRING_HEADER = 16;
const HEAP_NUMBER = 16;
/** Events are flat records with a nested ref or two; anything deeper is counted as one slot. */
const MAX_DEPTH = 6;

function valueBytes(v: unknown, depth: number): number {
  switch (typeof v) {
    case 'string':
      return STRING_HEADER + v.length;
    case 'number':
      // Small integers live in the slot itself; seq, counts and lengths are such.
      return (v | 0) === v ? 0 : HEAP_NUMBER;
    case 'object': {
      if (v === null || depth >= MAX_DEPTH) return 0;
      if (Array.isArray(v)) {
        let n = ARRAY_HEADER + v.length * SLOT;
        for (const x of v) n += valueBytes(x, depth + 1);
        return n;
      }
      let n = OBJECT_HEADER;
      const rec = v as Record<string, unknown>;
      // Own fields only matter, and protocol events are plain literals with nothing inherited to skip.
      for (const k in rec) n += SLOT + valueBytes(rec[k], depth + 1);
      return n;
    }
    default:
      return 0;
  }
}

/** Estimated bytes an event (or any JSON-shaped value) holds on the heap. */
export function estimateEventBytes(ev: object): number {
  return valueBytes(ev, 0);
}

/** Events of a kind measured exactly: one in SAMPLE_EVERY, the rest take the kind's running mean. */
const SAMPLE_EVERY = 16;

interface KindSize {
  seen: number;
  mean: number;
}

/**
 * estimateEventBytes for a stream: events of one kind differ only in the lengths of a few strings, so
 * measuring every one (about 0.2 µs each) buys nothing; one in 16 is measured and the others are counted at
 * the mean of their kind's measured ones. Kinds are a small closed set; past MAX_KINDS every event is measured.
 */
export class EventSizer {
  private readonly kinds = new Map<string, KindSize>();

  bytes(ev: { kind: string }): number {
    const k = this.kinds.get(ev.kind);
    if (k !== undefined && k.seen++ % SAMPLE_EVERY !== 0) return k.mean;
    const exact = estimateEventBytes(ev);
    if (k === undefined) {
      if (this.kinds.size < MAX_KINDS) this.kinds.set(ev.kind, { seen: 1, mean: exact });
    } else {
      // A moving mean over the samples, so a kind whose events grow (longer keys) is followed.
      k.mean += (exact - k.mean) / 8;
    }
    return exact;
  }
}

const MAX_KINDS = 256;
