// Reading what a Go bridge sends: its hello and its NDJSON event lines, checked before they reach the
// recorder (they arrive from the network).
import type { BridgeHello } from '../../../shared/protocol/events-bridge';
import type { RuntimeEvent } from '../../../shared/protocol/events';
import { BRIDGE_LIMITS } from '../../../shared/protocol/bridge-limits';

export interface WireEvent {
  seq: number;
  event: RuntimeEvent;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The hello, or an error saying what is wrong with it. */
export function parseHello(body: unknown): BridgeHello {
  if (!isRecord(body) || typeof body.protocolVersion !== 'number' || typeof body.epoch !== 'string') {
    throw new Error('not a controller-scope bridge (its /hello has no protocolVersion and epoch)');
  }
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
  // Seqs and counts: a non-negative safe integer, or 0 (a firstSeq of 1e300 would skip every event).
  const num = (v: unknown): number => (Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : 0);
  return {
    protocolVersion: body.protocolVersion,
    epoch: body.epoch,
    process: typeof body.process === 'string' && body.process ? body.process : 'unknown',
    ...(typeof body.controllerRuntime === 'string' ? { controllerRuntime: body.controllerRuntime } : {}),
    controllers: strings(body.controllers),
    seq: num(body.seq),
    firstSeq: num(body.firstSeq),
    dropped: num(body.dropped),
    steppable: strings(body.steppable),
  };
}

/**
 * One stream line: undefined for a heartbeat (empty line) or a line that is not an event. A seq that is not
 * a positive safe integer (1e300, 1.5, -1, a string) is no event either: seqs only order and resume the
 * stream, and one too large to count past would make every later event look old.
 */
export function parseEventLine(line: string): WireEvent | 'bad-seq' | undefined {
  if (line.trim() === '') return undefined;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(v) || typeof v.kind !== 'string' || !v.kind.includes('.')) return undefined;
  if (!Number.isSafeInteger(v.seq) || (v.seq as number) <= 0) return 'bad-seq';
  const { seq, ts: _ts, ...event } = v;
  // The recorder stamps its own seq and time; the process's seq only orders and resumes the stream.
  return { seq: seq as number, event: event as unknown as RuntimeEvent };
}

/**
 * Splits a byte stream into lines, keeping a partial last line for the next chunk. The partial line is kept
 * as its chunks (joined once, when its newline comes: re-joining it on every chunk was quadratic) and at
 * most maxLineBytes of it: a longer line is dropped whole, up to its newline, and counted.
 */
export class LineSplitter {
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  /** Inside a line that passed the cap: bytes are discarded until its newline. */
  private skipping = false;
  private readonly decoder = new TextDecoder();

  constructor(private readonly maxLineBytes: number = BRIDGE_LIMITS.lineBytes) {}

  push(chunk: Uint8Array): { lines: string[]; oversized: number } {
    const lines: string[] = [];
    let oversized = 0;
    for (let start = 0; ;) {
      const nl = chunk.indexOf(10, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      if (!this.skipping) {
        if (this.partBytes + piece.length > this.maxLineBytes) {
          this.skipping = true;
          this.parts = [];
          this.partBytes = 0;
          oversized++;
        } else if (nl !== -1) {
          lines.push(this.take(piece));
        } else if (piece.length > 0) {
          // A copy: the chunk's buffer may be reused by the stream, and a small piece must not pin a large one.
          this.parts.push(piece.slice());
          this.partBytes += piece.length;
        }
      }
      if (nl === -1) return { lines, oversized };
      this.skipping = false;
      start = nl + 1;
    }
  }

  /** The kept parts and the last piece, decoded as one line (UTF-8 across chunk boundaries). */
  private take(last: Uint8Array): string {
    if (this.parts.length === 0) return this.decoder.decode(last);
    this.parts.push(last);
    const line = this.decoder.decode(Buffer.concat(this.parts, this.partBytes + last.length));
    this.parts = [];
    this.partBytes = 0;
    return line;
  }
}
