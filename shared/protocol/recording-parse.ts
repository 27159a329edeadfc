// Reads a recording's lines (after gunzip) into a Recording, one line at a time, checking each one: the file
// is untrusted data (hand-edited, truncated, crafted), so every error names the line, what is wrong and what
// to do. Pure, so the server's reader and the web's fixtures parse with the same rules.
import type { StampedEvent } from './events';
import { dictTree } from './records';
import { MAX_RECORDING_LINE_BYTES, RECORDING_FORMAT, RECORDING_VERSION } from './recording';
import type { CacheTable, Recording, RecordingGap, RecordingHeader, StateRecord } from './recording';
import { PROTOCOL_VERSION } from './version';
import { viewProblem } from './view-check';

export class RecordingError extends Error {
  override name = 'RecordingError';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';

/** The error for a line over the bound. */
export function tooLong(max: number): string {
  return `line longer than ${max} bytes: not a recording controller-scope wrote (a state record of the largest view is a few MB)`;
}

/** A value from the file, quoted short enough for an error line. */
function quote(v: unknown): string {
  return String(JSON.stringify(v)).slice(0, 40);
}

export class RecordingParser {
  private header: RecordingHeader | undefined;
  private readonly states: StateRecord[] = [];
  private readonly events: StampedEvent[] = [];
  private readonly gaps: RecordingGap[] = [];
  private lastSeq = 0;

  /** name: the file, for error messages. maxLineBytes: default MAX_RECORDING_LINE_BYTES. */
  constructor(
    private readonly name: string,
    readonly maxLineBytes = MAX_RECORDING_LINE_BYTES,
  ) {}

  private fail(n: number, why: string): never {
    throw new RecordingError(`${this.name}:${n}: ${why}`);
  }

  /** One line of the file (without its newline); n is its 1-based line number. */
  line(text: string, n: number): void {
    if (text.length > this.maxLineBytes) this.fail(n, tooLong(this.maxLineBytes));
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.fail(n, 'not JSON (a truncated or hand-edited file? record it again)');
    }
    if (!isObject(value)) this.fail(n, 'not a JSON object');
    if (!this.header) {
      this.header = this.checkHeader(n, value);
      return;
    }
    // Events carry a kind; the format's own records a type. Nothing else in the line selects what it is.
    if (typeof value.kind === 'string') return this.event(n, value);
    if (value.type === 'gap') return this.gap(n, value);
    if (value.type === 'snapshot' || value.type === 'keyframe') return this.state(n, value);
    this.fail(n, 'neither an event (kind, seq, ts) nor a snapshot, keyframe or gap record');
  }

  /** The recording, once every line was given. */
  finish(): Recording {
    if (!this.header) {
      throw new RecordingError(`${this.name}: empty, expected a recording header on the first line`);
    }
    if ((this.header.formatVersion ?? 1) >= 2 && this.states.length === 0) {
      throw new RecordingError(
        `${this.name}: no snapshot after the header, so the state the events start from is unknown (the file is truncated; record it again)`,
      );
    }
    return { header: this.header, states: this.states, events: this.events, gaps: this.gaps };
  }

  private checkHeader(n: number, h: Record<string, unknown>): RecordingHeader {
    if (h.type !== 'header' || h.format !== RECORDING_FORMAT) {
      this.fail(n, `not a controller-scope recording (no "${RECORDING_FORMAT}" header)`);
    }
    const version = h.formatVersion ?? 1;
    if (!Number.isInteger(version) || (version as number) < 1)
      this.fail(n, `header formatVersion ${quote(version)} is not a version`);
    if ((version as number) > RECORDING_VERSION) {
      this.fail(
        n,
        `recorded in format version ${version as number}, this build reads versions 1 to ${RECORDING_VERSION}: open it with a newer controller-scope`,
      );
    }
    if (h.protocolVersion !== PROTOCOL_VERSION) {
      this.fail(
        n,
        `recorded with protocol version ${quote(h.protocolVersion)}, this build replays version ${PROTOCOL_VERSION}`,
      );
    }
    if (!Array.isArray(h.controllers) || !h.controllers.every((c) => typeof c === 'string')) {
      this.fail(n, 'header "controllers" must be a list of controller names');
    }
    if (!isObject(h.cluster) || typeof h.cluster.kind !== 'string' || !optStr(h.cluster.name)) {
      this.fail(n, 'header "cluster" must be an object with a kind');
    }
    const limits = h.viewLimits;
    if (!isObject(limits)) this.fail(n, 'header "viewLimits" must be an object of numbers');
    for (const [name, value] of Object.entries(limits)) {
      if (!finite(value) || value < 0) {
        this.fail(n, `header viewLimits.${name.slice(0, 40)} must be a non-negative number, got ${quote(value)}`);
      }
    }
    return h as unknown as RecordingHeader;
  }

  private event(n: number, rec: Record<string, unknown>): void {
    if (!finite(rec.seq) || !finite(rec.ts)) this.fail(n, 'not a stamped event (needs kind, seq and ts)');
    if (rec.seq <= this.lastSeq) this.fail(n, `seq ${rec.seq} does not increase (previous ${this.lastSeq})`);
    this.lastSeq = rec.seq;
    this.events.push(rec as unknown as StampedEvent);
  }

  private gap(n: number, rec: Record<string, unknown>): void {
    if (!finite(rec.dropped) || !finite(rec.afterSeq))
      this.fail(n, 'a gap record needs the numbers dropped and afterSeq');
    this.gaps.push({ type: 'gap', dropped: rec.dropped, afterSeq: rec.afterSeq });
  }

  private state(n: number, rec: Record<string, unknown>): void {
    const what = rec.type as string;
    if (what === 'snapshot' && (this.states.length > 0 || this.events.length > 0)) {
      this.fail(n, 'a second snapshot: a recording has one, right after its header (keyframes repeat it)');
    }
    if (what === 'keyframe' && this.states.length === 0) {
      this.fail(n, 'a keyframe before the snapshot: the file is not in the order controller-scope writes');
    }
    if (!finite(rec.seq) || !finite(rec.ts)) this.fail(n, `a ${what} needs the numbers seq and ts`);
    if (rec.seq < this.lastSeq)
      this.fail(n, `${what} at seq ${rec.seq} is behind the events before it (${this.lastSeq})`);
    const problem = viewProblem(rec.view);
    if (problem) this.fail(n, `${what}: ${problem}`);
    if ((rec.view as { lastSeq: number }).lastSeq !== rec.seq) {
      this.fail(n, `${what} at seq ${rec.seq} holds a view of seq ${(rec.view as { lastSeq: number }).lastSeq}`);
    }
    const caches = this.caches(n, what, rec.caches);
    this.lastSeq = rec.seq;
    // Records keyed by data (informers, controllers, keys) become null-prototype before anything indexes them.
    const view = dictTree(rec.view) as StateRecord['view'];
    this.states.push({ type: what === 'snapshot' ? 'snapshot' : 'keyframe', seq: rec.seq, ts: rec.ts, view, caches });
  }

  private caches(n: number, what: string, value: unknown): CacheTable[] {
    const bad = (why: string): never => this.fail(n, `${what}: caches ${why}`);
    if (!Array.isArray(value)) bad('must be a list of [informer, entries]');
    for (const table of value as unknown[]) {
      if (!Array.isArray(table) || table.length !== 2 || typeof table[0] !== 'string' || !Array.isArray(table[1])) {
        bad('must be a list of [informer, entries]');
      }
      for (const entry of (table as [string, unknown[]])[1]) {
        if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string') {
          bad(`of ${quote((table as unknown[])[0])}: each entry must be [key, ref]`);
        }
        const ref = (entry as unknown[])[1];
        if (
          !isObject(ref) ||
          typeof ref.gvk !== 'string' ||
          typeof ref.name !== 'string' ||
          !optStr(ref.namespace) ||
          !optStr(ref.uid) ||
          !optStr(ref.resourceVersion)
        ) {
          bad(`of ${quote((table as unknown[])[0])}: the ref of ${quote((entry as unknown[])[0])} needs gvk and name`);
        }
      }
    }
    return value as CacheTable[];
  }
}
