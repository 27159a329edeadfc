// Every claim the derived view makes about the oracle's objects, checked against ground truth. A claim is
// false when what the view says did not happen; "unknown" is never false. The result lists each false
// claim with the truth and enough context to find it in the recording.
import { splitLaneName } from '../../../shared/protocol/lanes';
import { partLiveness, replicaRoles } from '../../../shared/protocol/liveness';
import type { EnqueueCause } from '../../../shared/protocol/events';
import type {
  CauseAttribution,
  ControllerView,
  KeyView,
  ReconcileRecord,
  RuntimeView,
} from '../../../shared/protocol/view';
import { ownProcess, type Truth, type TruthReconcile, type TruthWrite } from './truth';
import { checkWalks } from './walk-claims';

export interface FalseClaim {
  claim: string;
  truth: string;
  where: string;
}

export interface CheckOptions {
  /** The controller is quiet (the harness waited): queue states and counts must be final. */
  quiescent: boolean;
}

export function checkView(view: RuntimeView, truth: Truth, opts: CheckOptions): FalseClaim[] {
  const out: FalseClaim[] = [];
  for (const c of oracleControllers(view, truth)) {
    for (const k of Object.values(c.keys)) {
      if (!truth.namespaces.has(k.key.slice(0, k.key.indexOf('/')))) continue;
      checkKeyCauses(c, k, truth, out);
      checkHotLoop(c, k, truth, out);
      // A gone process's queue is shown as it was last reported, under its gone banner: not a live state.
      if (opts.quiescent && partLiveness(view, c).state === 'alive') checkKeyQueue(c, k, truth, out);
    }
  }
  checkProcesses(view, truth, out);
  checkWalks(view, truth, out);
  return out;
}

function oracleControllers(view: RuntimeView, truth: Truth): ControllerView[] {
  return Object.values(view.controllers).filter((c) => splitLaneName(c.name).name === truth.controller);
}

function writesOf(truth: Truth, c: ControllerView): TruthWrite[] {
  const own = ownProcess(splitLaneName(c.name).lane);
  return truth.writes.filter((w) => own(w.process));
}

const versionOf = (w: TruthWrite): string => `${w.uid}@${w.resourceVersion}`;

function checkKeyCauses(c: ControllerView, k: KeyView, truth: Truth, out: FalseClaim[]): void {
  const mine = new Set(writesOf(truth, c).map(versionOf));
  const myDeletes = new Set(
    writesOf(truth, c)
      .filter((w) => w.verb === 'delete')
      .map((w) => w.uid),
  );
  for (const rec of k.history) {
    rec.causes.forEach((cause, i) => {
      const where = `${c.name} ${k.key} reconcile #${rec.seq}, cause ${i + 1} (${describe(cause)})`;
      checkDelivered(cause, truth, where, out);
      const a = rec.attributions?.[i];
      if (a) checkAttribution(a, cause, mine, myDeletes, where, out);
    });
    checkSelfFlag(c, rec, mine, out, k.key);
  }
}

function describe(cause: EnqueueCause): string {
  const s = cause.source;
  return `${cause.type} ${cause.eventType ?? ''} ${s ? `${s.gvk} ${s.namespace ?? ''}/${s.name} rv ${s.resourceVersion}` : ''}`.trim();
}

/** A cause names an event: that version of that object must be one the server delivered. */
function checkDelivered(cause: EnqueueCause, truth: Truth, where: string, out: FalseClaim[]): void {
  const s = cause.source;
  if (!s?.uid || !s.resourceVersion || cause.eventType === undefined || cause.eventType === 'generic') return;
  if (truth.server.delivered(s.uid, s.resourceVersion)) return;
  out.push({
    claim: `caused by an event at rv ${s.resourceVersion}`,
    truth: 'the API server never delivered that version of that object',
    where,
  });
}

function checkAttribution(
  a: CauseAttribution,
  cause: EnqueueCause,
  mine: ReadonlySet<string>,
  myDeletes: ReadonlySet<string>,
  where: string,
  out: FalseClaim[],
): void {
  const s = cause.source;
  if (!s) return;
  const version = `${s.uid ?? ''}@${s.resourceVersion ?? ''}`;
  const wroteIt = mine.has(version);
  if (a.writer === 'self' && a.basis === 'rv' && !wroteIt)
    out.push({
      claim: 'its own write (exact by resourceVersion)',
      truth: 'this controller never wrote that version',
      where,
    });
  if (a.writer === 'other' && wroteIt)
    out.push({
      claim: "another client's write (exact by absence)",
      truth: 'this controller wrote that version',
      where,
    });
  if (
    a.writer === 'self' &&
    a.basis === 'span' &&
    a.write &&
    !mine.has(`${s.uid ?? ''}@${a.write.resourceVersion ?? ''}`)
  )
    out.push({
      claim: `folded in its own write rv ${a.write.resourceVersion}`,
      truth: 'this controller never wrote that version',
      where,
    });
  if (a.writer === 'self' && a.basis === 'uid' && !myDeletes.has(s.uid ?? ''))
    out.push({ claim: 'after its own delete', truth: 'this controller never deleted that object', where });
}

function checkSelfFlag(
  c: ControllerView,
  rec: ReconcileRecord,
  mine: ReadonlySet<string>,
  out: FalseClaim[],
  key: string,
): void {
  if (!rec.selfCaused) return;
  const w = rec.selfCause?.write;
  const version = `${w?.ref.uid ?? rec.selfCause?.cause.source?.uid ?? ''}@${w?.ref.resourceVersion ?? ''}`;
  if (!mine.has(version))
    out.push({
      claim: `self-caused (its own ${w?.verb} → rv ${w?.ref.resourceVersion})`,
      truth: 'this controller never wrote that version',
      where: `${c.name} ${key} reconcile #${rec.seq}`,
    });
}

/** A hot loop's evidence must be the controller's own writes, and its headline must add up. */
function checkHotLoop(c: ControllerView, k: KeyView, truth: Truth, out: FalseClaim[]): void {
  const h = k.hotLoop;
  if (!h) return;
  const where = `${c.name} ${k.key} hot loop detected at ${h.detectedAt}`;
  const mine = new Set(writesOf(truth, c).map(versionOf));
  for (const e of h.evidence) {
    if (e.write && !mine.has(`${e.write.ref.uid ?? e.cause.source?.uid ?? ''}@${e.write.ref.resourceVersion ?? ''}`))
      out.push({
        claim: `hot-loop evidence: its own ${e.write.verb} → rv ${e.write.ref.resourceVersion}`,
        truth: 'never written by it',
        where,
      });
  }
  const span = h.spanMs ?? h.windowMs;
  const rate = Math.round(((h.reconcilesInWindow - 1) / (Math.max(span, 1) / 1000)) * 100) / 100;
  if (Math.abs(rate - h.rate) > 0.011 || span > h.windowMs)
    out.push({
      claim: `${h.reconcilesInWindow} reconciles in ${span} ms (${h.rate}/s)`,
      truth: `those figures give ${rate}/s`,
      where,
    });
  const started = truth.reconciles.filter(
    (r) => r.phase === 'start' && r.key === k.key && ownProcess(splitLaneName(c.name).lane)(r.process),
  );
  if (started.length < h.reconcilesInWindow)
    out.push({
      claim: `${h.reconcilesInWindow} reconciles counted`,
      truth: `only ${started.length} reconciles of the key ever ran`,
      where,
    });
}

/**
 * How close to its kill a reconcile must have started for its events to be possibly unsent. The bridge
 * streams within milliseconds; a second bounds a loaded machine without excusing anything older.
 */
const KILL_WINDOW_MS = 1_000;

/** r's run was replaced by a later run of the same process (it was killed), and r began just before the end. */
function startedJustBeforeKill(r: TruthReconcile, all: readonly TruthReconcile[]): boolean {
  const sameRun = all.filter((o) => o.process === r.process && o.generation === r.generation);
  const killed = all.some((o) => o.process === r.process && o.generation !== r.generation && o.ts > r.ts);
  const last = Math.max(...sameRun.map((o) => o.ts));
  return killed && r.ts >= last - KILL_WINDOW_MS;
}

/** Quiet: every key is idle, its counts are those the reconciler itself counted, its backoff rows add up. */
function checkKeyQueue(c: ControllerView, k: KeyView, truth: Truth, out: FalseClaim[]): void {
  const where = `${c.name} ${k.key}`;
  const own = ownProcess(splitLaneName(c.name).lane);
  const runs = truth.reconciles.filter((r) => r.key === k.key && own(r.process));
  const starts = runs.filter((r) => r.phase === 'start').length;
  if (k.state !== 'idle' || k.dirty)
    out.push({
      claim: `queue state ${k.state}${k.dirty ? ' (dirty)' : ''}`,
      truth: 'the controller is quiet: nothing queued or running',
      where,
    });
  // A run killed by SIGKILL never sent the events still in its buffer: a reconcile it started (or even
  // finished) in the moment before may be one the dashboard cannot know of. Those, and only those, may be
  // missing from the count: starts of a run that was killed, within KILL_WINDOW_MS of its last record.
  const lostAtKill = runs.filter((r) => r.phase === 'start' && startedJustBeforeKill(r, truth.reconciles)).length;
  if (c.evictedKeys === 0 && (k.reconciles > starts || k.reconciles < starts - lostAtKill))
    out.push({ claim: `${k.reconciles} reconciles`, truth: `the reconciler ran ${starts} times`, where });
  const lastEnd = runs.filter((r) => r.phase === 'end').at(-1);
  const lastRec = k.history.at(-1);
  if (lastEnd && lastRec?.outcome && outcomeClass(lastRec.outcome) !== lastEnd.outcome)
    out.push({
      claim: `last reconcile ${lastRec.outcome}`,
      truth: `the reconciler's last pass ended in ${lastEnd.outcome}`,
      where,
    });
  for (const step of k.backoff ?? []) {
    if (step.cause !== 'errorBackoff') continue;
    const want = 5 * 2 ** Math.max(0, step.requeues - 1);
    if (Math.abs(step.delayMs - want) > 1 && step.delayMs < want)
      out.push({
        claim: `backoff ${step.delayMs} ms after ${step.requeues} failures`,
        truth: `the default limiter waits at least ${want} ms`,
        where,
      });
  }
}

/** The reconciler's own log says success, error or requeueAfter. */
function outcomeClass(o: string): string {
  return o === 'terminalError' || o === 'panic' ? 'error' : o;
}

/** Gone and alive per process and part, and who leads, as the harness knows them. */
function checkProcesses(view: RuntimeView, truth: Truth, out: FalseClaim[]): void {
  for (const p of truth.processes ?? []) {
    const pv = view.processes?.[p.identity];
    if (!pv) continue;
    const shown = pv.state === 'gone' ? 'gone' : 'alive';
    if ((shown === 'alive') !== p.alive)
      out.push({
        claim: `process ${p.identity} ${shown}`,
        truth: p.alive ? 'it is running' : 'it was killed',
        where: 'processes',
      });
    for (const c of Object.values(view.controllers)) {
      if (c.process !== p.identity) continue;
      const live = partLiveness(view, c).state;
      if (!p.alive && live === 'alive')
        out.push({ claim: `controller ${c.name} alive`, truth: 'its process was killed', where: c.name });
    }
  }
  const alive = (truth.processes ?? []).filter((p) => p.alive && p.electedAt !== undefined);
  const leader = alive.sort((a, b) => (b.electedAt ?? 0) - (a.electedAt ?? 0))[0];
  for (const lease of Object.values(view.leaders)) {
    for (const r of replicaRoles(view, lease)) {
      if (r.role === 'leader' && leader && r.replica.identity !== leader.identity)
        out.push({
          claim: `${r.replica.identity} leads ${lease.lease}`,
          truth: `${leader.identity} was elected last and runs`,
          where: 'leases',
        });
      if (r.role === 'leader' && !leader)
        out.push({
          claim: `${r.replica.identity} leads ${lease.lease}`,
          truth: 'no running replica is elected',
          where: 'leases',
        });
    }
  }
}
