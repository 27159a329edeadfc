// The fields the reducer and the UI rely on, per event kind, checked before an event touches the view: a
// malformed event (a hand-edited recording, a buggy producer) is then refused whole instead of half applied,
// which could leave a record the panels cannot read. Only what would break is checked: strings that become
// keys, objects and arrays that are dereferenced, the stamp. Kinds not listed here (from a newer server) pass.

type Check = (v: unknown) => boolean;

const str: Check = (v) => typeof v === 'string';
const num: Check = (v) => typeof v === 'number';
const optStr: Check = (v) => v === undefined || typeof v === 'string';
const optNum: Check = (v) => v === undefined || typeof v === 'number';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ref: Check = (v) =>
  isObject(v) && str(v.gvk) && str(v.name) && optStr(v.namespace) && optStr(v.resourceVersion) && optStr(v.uid);
const optRef: Check = (v) => v === undefined || ref(v);
const cause: Check = (v) =>
  isObject(v) && str(v.type) && optRef(v.source) && optStr(v.eventType) && optStr(v.previousResourceVersion);
const causes: Check = (v) => Array.isArray(v) && v.every(cause);
const depth: Check = (v) => isObject(v) && num(v.ready) && num(v.waiting) && num(v.processing);
const strings: Check = (v) => Array.isArray(v) && v.every(str);
const optStrings: Check = (v) => v === undefined || strings(v);
const optSources: Check = (v) =>
  v === undefined ||
  (Array.isArray(v) && v.every((x) => isObject(x) && str(x.role) && optStr(x.kind) && optStr(x.handler)));
const moduleError: Check = (v) => v === undefined || (isObject(v) && str(v.message));

const cache = { informer: str };
const queue = { queue: str, key: str };

const SHAPES: Record<string, Record<string, Check>> = {
  'reflector.state': { ...cache, from: str, to: str, reason: str },
  'reflector.listBegin': { ...cache, resourceVersion: str, method: optStr },
  'reflector.listEnd': { ...cache, resourceVersion: str, items: num, durationMs: num, error: optStr },
  'reflector.watchStart': { ...cache, resourceVersion: str },
  'reflector.watchEnd': { ...cache, resourceVersion: str, events: num, reason: str, error: optStr },
  'reflector.event': { ...cache, ref },
  'reflector.bookmark': { ...cache, resourceVersion: str },
  'reflector.error': { ...cache, code: num, reason: str, message: str },
  'reflector.backoff': { ...cache, delayMs: num },
  'reflector.resync': cache,
  'fifo.delta': { ...cache, delta: str, key: str, ref, queueLength: num },
  'fifo.pop': { ...cache, key: str, queueLength: num, error: optStr },
  'indexer.update': { ...cache, key: str, ref, size: num },
  'indexer.replace': { ...cache, size: num },
  'informer.notify': { ...cache, handler: str, ref },
  'informer.synced': { ...cache, items: num, durationMs: num },
  'informer.lifecycle': { ...cache, phase: str, handler: optStr, fifo: optStr },
  'queue.add': { ...queue, cause, depth },
  'queue.addAfter': { ...queue, cause, depth, readyAt: num, requeues: optNum },
  'queue.get': { ...queue, depth },
  'queue.done': { ...queue, depth },
  'queue.forget': queue,
  'queue.shutdown': { queue: str },
  'controller.lifecycle': {
    controller: str,
    phase: str,
    workers: optNum,
    forKind: optStr,
    sources: optSources,
    queueKind: optStr,
    rateLimiter: optStr,
    error: optStr,
  },
  'handler.event': { controller: str, handler: str, ref, keys: strings, filteredBy: optStr },
  'reconcile.start': { controller: str, key: str, worker: num, causes, attempt: num, reconcileId: optStr },
  'reconcile.end': {
    controller: str,
    key: str,
    worker: num,
    durationMs: num,
    outcome: str,
    error: optStr,
    requeueAfterMs: optNum,
  },
  'reconcile.stuck': { controller: str, key: str, worker: num, reason: str, sinceAbortMs: num },
  'client.request': { controller: optStr, verb: str, ref, code: optNum, error: optStr, reconcileId: optStr },
  'manager.lifecycle': { phase: str, group: optStr, error: optStr, process: optStr },
  'module.lifecycle': { file: str, phase: str, generation: num, controllers: optStrings, error: moduleError },
  'leaderelection.state': { lease: str, identity: str, phase: str, holder: optStr, process: optStr },
  'bridge.process': { process: str, address: str, phase: str, reason: optStr, missed: optNum },
  'bridge.dropped': { process: str, dropped: num, total: num, cause: optStr, cap: optNum },
};

/**
 * The shapes as parallel lists of field names and checks, by kind: every event is checked, and walking
 * Object.keys of its shape allocated an array per event.
 */
const COMPILED = new Map<string, { fields: string[]; checks: Check[] }>(
  Object.entries(SHAPES).map(([kind, shape]) => [kind, { fields: Object.keys(shape), checks: Object.values(shape) }]),
);

/** What is wrong with an event, or undefined when the reducer can apply it. */
export function eventProblem(ev: unknown): string | undefined {
  if (!isObject(ev)) return 'not an object';
  if (typeof ev.kind !== 'string') return 'no kind';
  if (!Number.isFinite(ev.seq) || !Number.isFinite(ev.ts)) return 'seq and ts must be finite numbers';
  const shape = COMPILED.get(ev.kind);
  if (!shape) return undefined;
  const { fields, checks } = shape;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as string;
    if (!(checks[i] as Check)(ev[field])) return `field "${field}" is missing or malformed`;
  }
  return undefined;
}
