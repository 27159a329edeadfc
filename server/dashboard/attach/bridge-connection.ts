// One attached process: reads its hello, streams its events into the recorder, reconnects (resuming from
// the last seq it received while the process is the same one), and reports the process as gone when it
// cannot be reached, instead of going silent.
import { setTimeout as delay } from 'node:timers/promises';
import type { KubeObject } from '../../../shared/models/object';
import type { BridgeHello } from '../../../shared/protocol/events-bridge';
import type { RuntimeEvent } from '../../../shared/protocol/events';
import type { Probe } from '../../runtime/instrumentation/probe';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import { intoLane, laneName } from './lanes';
import { LineSplitter, parseEventLine, parseHello } from './bridge-wire';
import { BRIDGE_LIMITS } from '../../../shared/protocol/bridge-limits';
import { DropReport } from './drop-report';
import { errorMessage, isError } from '../../runtime/util/errors';
import { MAX_COMPARE_BYTES, parseRemoteVersions, readCapped, type RemoteVersions } from './remote-compare-wire';

export interface BridgeConnectionOptions {
  /** host:port, or an http(s) URL. */
  address: string;
  /** The bridge's CONTROLLER_SCOPE_TOKEN, when it has one. */
  token?: string;
  probe: Probe;
  /** Prefix names with the process identity (when several processes are attached). Default false. */
  lanes?: boolean;
  /** Wait between reconnect attempts. Default 1000 ms. */
  retryMs?: number;
  /** A stream silent this long (the bridge sends a heartbeat every 3 s) counts as lost. Default 10000 ms. */
  silenceMs?: number;
  log?: (line: string) => void;
}

export type ConnectionState = 'connecting' | 'connected' | 'gone' | 'incompatible' | 'closed';

export class BridgeConnection {
  readonly baseUrl: string;
  private readonly ac = new AbortController();
  private hello: BridgeHello | undefined;
  private epoch: string | undefined;
  private lastSeq = 0;
  /** Set when a seq went back: the next session resumes from before it (see accept). */
  private resyncFrom: number | undefined;
  /** The names this run of the process has used, each set at most its cap (BRIDGE_LIMITS). */
  private readonly named = { controllers: new Set<string>(), informers: new Set<string>() };
  private readonly drops = new DropReport(
    (ev) => this.o.probe.enabled && this.o.probe.emit(ev),
    () => this.process,
  );
  private reported: 'none' | 'connected' | 'gone' = 'none';
  private loop: Promise<void> | undefined;
  private firstHello: Promise<void>;
  private resolveFirst!: () => void;
  state: ConnectionState = 'connecting';

  constructor(private readonly o: BridgeConnectionOptions) {
    this.baseUrl = /^https?:\/\//.test(o.address) ? o.address.replace(/\/$/, '') : `http://${o.address}`;
    this.firstHello = new Promise((r) => (this.resolveFirst = r));
  }

  /** The process identity (from its hello), or the address before the first hello. */
  get process(): string {
    return this.hello?.process ?? this.o.address;
  }

  /** The controller-runtime version the process was built with, as its hello says. */
  get controllerRuntime(): string | undefined {
    return this.hello?.controllerRuntime;
  }

  /** The lane prefix of this process's names, when lanes are on. */
  get lane(): string | undefined {
    return this.o.lanes ? this.process : undefined;
  }

  /** The controllers as the dashboard names them. */
  controllers(): string[] {
    return (this.hello?.controllers ?? []).map((c) => laneName(this.lane, c));
  }

  steppable(controller: string): boolean {
    return this.hello?.steppable.includes(controller) ?? false;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Resolves after the first hello, or after waitMs, whichever is first. */
  ready(waitMs: number): Promise<void> {
    return Promise.race([this.firstHello, new Promise<void>((r) => setTimeout(r, waitMs).unref())]);
  }

  async close(): Promise<void> {
    this.state = 'closed';
    this.ac.abort();
    await this.loop;
    this.drops.flush();
    this.drops.stop();
  }

  /** Commands go one at a time, in the order given: a hold is in force before a later requeue arrives. */
  private commands: Promise<unknown> = Promise.resolve();

  /** Sends a step or requeue command to the process; resolves with its Ack. */
  command(cmd: Record<string, unknown>): Promise<{ ok: boolean; result?: unknown; error?: string }> {
    const next = this.commands.then(() => this.send(cmd));
    this.commands = next.catch(() => undefined);
    return next;
  }

  private async send(cmd: Record<string, unknown>): Promise<{ ok: boolean; result?: unknown; error?: string }> {
    const res = await fetch(`${this.baseUrl}/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...this.auth() },
      body: JSON.stringify(cmd),
      signal: AbortSignal.any([this.ac.signal, AbortSignal.timeout(5000)]),
    });
    const body = (await res.json()) as { ok?: unknown; result?: unknown; error?: unknown };
    return {
      ok: body.ok === true,
      ...(body.result !== undefined ? { result: body.result } : {}),
      ...(typeof body.error === 'string' ? { error: body.error } : {}),
    };
  }

  /** The process's cached copy of one object (its informer's store), or undefined when it holds none. */
  async fetchObject(informer: string, key: string): Promise<KubeObject | undefined> {
    const q = new URLSearchParams({ informer, key });
    const res = await fetch(`${this.baseUrl}/object?${q}`, {
      headers: this.auth(),
      signal: AbortSignal.any([this.ac.signal, AbortSignal.timeout(5000)]),
    });
    if (!res.ok) return undefined;
    const body: unknown = await res.json();
    return isKubeObject(body) ? body : undefined;
  }

  /**
   * The process's informer store against a paged LIST of the API server, both as key → resourceVersion
   * (GET /compare, answered through the process's own API reader). The answer is read with a size cap:
   * it comes from the network.
   */
  async compareVersions(informer: string, pageSize: number): Promise<RemoteVersions> {
    const q = new URLSearchParams({ informer, pageSize: String(pageSize) });
    const res = await fetch(`${this.baseUrl}/compare?${q}`, {
      headers: this.auth(),
      signal: AbortSignal.any([this.ac.signal, AbortSignal.timeout(120_000)]),
    });
    const text = await readCapped(res, MAX_COMPARE_BYTES);
    if (!res.ok) throw new Error(`${this.process} could not compare ${informer}: ${text.slice(0, 300).trim()}`);
    return parseRemoteVersions(JSON.parse(text) as unknown);
  }

  private auth(): Record<string, string> {
    return this.o.token ? { authorization: `Bearer ${this.o.token}` } : {};
  }

  private log(line: string): void {
    this.o.log?.(`attach ${this.o.address}: ${line}`);
  }

  private async run(): Promise<void> {
    while (!this.ac.signal.aborted) {
      let reason: string;
      try {
        reason = await this.session();
      } catch (err) {
        const cause = isError(err) ? (err as { cause?: unknown }).cause : undefined;
        reason = errorMessage(isError(cause) ? cause : err);
      }
      if (this.ac.signal.aborted || this.state === 'incompatible') return;
      this.gone(reason);
      // The timer's own abort listener goes when it fires: one added per retry and never removed piled up
      // on the connection's signal (MaxListenersExceededWarning once a process had been gone a few seconds).
      await delay(this.o.retryMs ?? 1000, undefined, { signal: this.ac.signal }).catch(() => {});
    }
  }

  /** One connection: hello, then the stream until it ends. Returns why it ended. */
  private async session(): Promise<string> {
    const res = await fetch(`${this.baseUrl}/hello`, {
      headers: this.auth(),
      signal: AbortSignal.any([this.ac.signal, AbortSignal.timeout(5000)]),
    });
    if (res.status === 401) throw new Error('the bridge wants a token: pass --token (its CONTROLLER_SCOPE_TOKEN)');
    if (!res.ok) throw new Error(`GET /hello answered ${res.status}`);
    const hello = parseHello(await res.json());
    if (hello.protocolVersion !== PROTOCOL_VERSION) {
      this.state = 'incompatible';
      const why = `the process speaks protocol ${hello.protocolVersion}, this dashboard ${PROTOCOL_VERSION}: use matching versions of the Go module and controller-scope`;
      this.log(why);
      this.report('gone', why);
      this.resolveFirst();
      return why;
    }
    const sameProcess = this.epoch === hello.epoch;
    if (!sameProcess) {
      this.lastSeq = 0;
      this.named.controllers.clear();
      this.named.informers.clear();
    } else if (this.resyncFrom !== undefined) {
      // A seq went back: the jump before it was not the process's. Resume from before the jump, or from
      // the process's own highest seq if that is lower.
      this.lastSeq = Math.min(this.resyncFrom, hello.seq);
    }
    this.resyncFrom = undefined;
    hello.controllers = hello.controllers.filter((c) => this.admit('controllers', c));
    hello.steppable = hello.steppable.filter((c) => this.named.controllers.has(c));
    const resumed = sameProcess && this.reported !== 'none';
    // Events the process emitted that will never arrive: evicted from its buffer before this connect (on
    // a first connect, everything before its oldest held event), or since the last one received.
    const missed = Math.max(0, hello.firstSeq - this.lastSeq - 1);
    // Counted here once: the stream's first event then follows on from lastSeq (no gap counted twice).
    if (missed > 0) this.lastSeq = hello.firstSeq - 1;
    this.hello = hello;
    this.epoch = hello.epoch;
    this.state = 'connected';
    this.report(resumed ? 'resumed' : 'connected', undefined, missed > 0 ? missed : undefined);
    this.resolveFirst();
    this.log(
      `${resumed ? 'resumed' : 'connected to'} ${hello.process} (controllers: ${hello.controllers.join(', ') || 'none yet'})`,
    );
    return this.stream();
  }

  private async stream(): Promise<string> {
    const silence = new AbortController();
    let timer = setTimeout(() => silence.abort(), this.o.silenceMs ?? 10_000);
    const res = await fetch(`${this.baseUrl}/events?after=${this.lastSeq}`, {
      headers: this.auth(),
      signal: AbortSignal.any([this.ac.signal, silence.signal]),
    });
    if (!res.ok || !res.body) throw new Error(`GET /events answered ${res.status}`);
    const lines = new LineSplitter();
    try {
      for await (const chunk of res.body) {
        clearTimeout(timer);
        timer = setTimeout(() => silence.abort(), this.o.silenceMs ?? 10_000);
        const { lines: complete, oversized } = lines.push(chunk as Uint8Array);
        this.drops.count('lineBytes', oversized);
        for (const line of complete) {
          if (!this.accept(line)) return `seq went back (after ${this.lastSeq}); resyncing`;
        }
      }
      return 'the stream ended';
    } catch (err) {
      if (silence.signal.aborted) return `no data for ${this.o.silenceMs ?? 10_000} ms`;
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Takes one line into the view. Seqs must rise: a jump forward is events the process evicted before they
   * were read (counted as a gap); a seq at or below the last is refused, and false ends the session so the
   * next one resyncs from the process's hello (a single bogus high seq must not make every later event look
   * old). Events naming a controller or informer past the process's caps are dropped, and counted.
   */
  private accept(line: string): boolean {
    const w = parseEventLine(line);
    if (w === undefined) return true;
    if (w === 'bad-seq') {
      this.drops.count('seq');
      return true;
    }
    if (w.seq <= this.lastSeq) {
      this.drops.count('seq');
      this.resyncFrom = w.seq - 1;
      return false;
    }
    if (!this.admitNames(w.event)) return true;
    // A controller built after the hello was answered: the bridge's builder announces each one it makes
    // (and only those have a queue wrapper that takes commands).
    if (w.event.kind === 'controller.lifecycle' && this.hello) {
      if (!this.hello.controllers.includes(w.event.controller)) this.hello.controllers.push(w.event.controller);
      if (!this.hello.steppable.includes(w.event.controller)) this.hello.steppable.push(w.event.controller);
    }
    if (w.seq > this.lastSeq + 1) this.drops.count('gap', w.seq - this.lastSeq - 1);
    this.lastSeq = w.seq;
    if (this.o.probe.enabled) this.o.probe.emit(ownedBy(intoLane(w.event, this.lane), this.process));
    return true;
  }

  /** Whether the controller, queue and informer names the event carries are within the caps. */
  private admitNames(ev: RuntimeEvent): boolean {
    const e = ev as unknown as Record<string, unknown>;
    const c = typeof e.controller === 'string' ? e.controller : typeof e.queue === 'string' ? e.queue : undefined;
    if (c !== undefined && !this.admit('controllers', c)) return false;
    if (typeof e.informer === 'string' && !this.admit('informers', e.informer)) return false;
    return true;
  }

  private admit(what: 'controllers' | 'informers', name: string): boolean {
    const set = this.named[what];
    if (set.has(name)) return true;
    if (set.size >= BRIDGE_LIMITS[what]) {
      this.drops.count(what);
      return false;
    }
    set.add(name);
    return true;
  }

  private gone(reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'gone';
    if (this.reported === 'gone' || this.reported === 'none') {
      if (this.reported === 'none') this.log(`not reachable yet (${reason}); retrying`);
      return;
    }
    this.log(`${this.process} is gone (${reason}); retrying`);
    this.report('gone', reason);
    for (const c of this.controllers()) {
      this.o.probe.emit({
        kind: 'controller.lifecycle',
        controller: c,
        phase: 'stopped',
        error: `process ${this.process} is gone: ${reason}`,
      });
    }
  }

  private report(phase: 'connected' | 'resumed' | 'gone', reason?: string, missed?: number): void {
    this.reported = phase === 'gone' ? 'gone' : 'connected';
    this.o.probe.emit({
      kind: 'bridge.process',
      process: this.process,
      address: this.o.address,
      phase,
      ...(reason ? { reason } : {}),
      ...(missed ? { missed } : {}),
    });
  }
}

/**
 * Names the process on the events that carry no controller or informer name to put in a lane (its manager,
 * its leader election): the view keeps each process's manager and each replica's view of a lease apart.
 */
function ownedBy(ev: RuntimeEvent, process: string): RuntimeEvent {
  if (ev.kind === 'manager.lifecycle' || ev.kind === 'leaderelection.state') ev.process = process;
  return ev;
}

function isKubeObject(v: unknown): v is KubeObject {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { metadata?: unknown }).metadata === 'object' &&
    (v as { metadata: unknown }).metadata !== null
  );
}
