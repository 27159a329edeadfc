// A view read from a recording's state record is untrusted data that becomes the view the reducer continues
// from and the panels draw: the parts they index into are checked before it is used, so a hand-edited or
// truncated record is refused with the path that is wrong instead of breaking a panel later. As with events
// (event-check.ts) only what would break is checked: records that are indexed, arrays that are walked, the
// numbers the reducer does arithmetic on.
import { PROTOCOL_VERSION } from './version';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);

/** Fields every entry of a record must have, as a check per field. */
type Shape = readonly (readonly [field: string, check: (v: unknown) => boolean])[];

const INFORMER: Shape = [
  ['id', (v) => typeof v === 'string'],
  ['state', (v) => typeof v === 'string'],
  ['storeSize', finite],
  ['fifoLength', finite],
  ['handlers', (v) => Array.isArray(v) && v.every((h) => typeof h === 'string')],
  ['counters', isObject],
  ['pending', isObject],
  ['history', Array.isArray],
  ['series', Array.isArray],
];

const CONTROLLER: Shape = [
  ['name', (v) => typeof v === 'string'],
  ['phase', (v) => typeof v === 'string'],
  ['depth', isObject],
  ['workerStates', isObject],
  ['reconciles', isObject],
  ['histogram', isObject],
  ['causes', isObject],
  ['handlers', isObject],
  ['client', isObject],
  ['keys', isObject],
  ['hotLoops', Array.isArray],
  ['writes', isObject],
  ['series', Array.isArray],
];

const KEY: Shape = [
  ['key', (v) => typeof v === 'string'],
  ['state', (v) => typeof v === 'string'],
  ['pendingCauses', Array.isArray],
  ['history', Array.isArray],
  ['recent', Array.isArray],
];

function entryProblem(path: string, value: unknown, shape: Shape): string | undefined {
  if (!isObject(value)) return `${path} must be an object`;
  for (const [field, check] of shape) {
    if (!check(value[field])) return `${path}.${field} is missing or malformed`;
  }
  return undefined;
}

/** What is wrong with a recorded view, naming the path, or undefined when the reducer and panels can use it. */
export function viewProblem(view: unknown): string | undefined {
  if (!isObject(view)) return 'the view must be an object';
  if (view.protocolVersion !== PROTOCOL_VERSION) {
    return `the view is of protocol version ${String(view.protocolVersion).slice(0, 20)}, this build reads ${PROTOCOL_VERSION}`;
  }
  for (const field of ['lastSeq', 'lastTs', 'firstTs', 'eventCount']) {
    if (!finite(view[field])) return `view.${field} must be a number`;
  }
  if (!isObject(view.limits)) return 'view.limits must be an object of numbers';
  for (const [name, value] of Object.entries(view.limits)) {
    if (!finite(value) || (value as number) < 0)
      return `view.limits.${name.slice(0, 40)} must be a non-negative number`;
  }
  for (const field of ['informers', 'controllers', 'leaders']) {
    if (!isObject(view[field])) return `view.${field} must be an object`;
  }
  if (view.processes !== undefined && !isObject(view.processes)) return 'view.processes must be an object';
  for (const field of ['modules', 'log', 'notable']) {
    if (!Array.isArray(view[field])) return `view.${field} must be a list`;
  }
  for (const [id, inf] of Object.entries(view.informers as Record<string, unknown>)) {
    const problem = entryProblem(`view.informers[${JSON.stringify(id.slice(0, 60))}]`, inf, INFORMER);
    if (problem) return problem;
  }
  for (const [name, c] of Object.entries(view.controllers as Record<string, unknown>)) {
    const path = `view.controllers[${JSON.stringify(name.slice(0, 60))}]`;
    const problem = entryProblem(path, c, CONTROLLER);
    if (problem) return problem;
    for (const [key, k] of Object.entries((c as { keys: Record<string, unknown> }).keys)) {
      const keyProblem = entryProblem(`${path}.keys[${JSON.stringify(key.slice(0, 60))}]`, k, KEY);
      if (keyProblem) return keyProblem;
    }
  }
  return undefined;
}
