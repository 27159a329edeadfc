// The controller's client as the test lab sees it: every write is numbered (across crashes), named in the
// trace, and passed through the gate, which may arm a fault on it, start a hold before it is sent, or ask
// for a crash or a lost answer right after it was applied. Once its manager has crashed, the client refuses
// everything: a dead process makes no more requests.
import type { KubeObject } from '../../shared/models/object';
import {
  ApiError,
  currentReconcileScope,
  gvkId,
  toGVK,
  type Client,
  type ObjectType,
  type StatusWriter,
} from '../runtime';
import type { TraceRef, WriteVerb } from './trace';

/** Thrown to a crashed manager's reconciles: nothing they do reaches the cluster any more. */
export class ControllerCrashedError extends Error {
  override readonly name = 'ControllerCrashedError';
  constructor() {
    super('the test lab stopped this manager (crash): its requests no longer reach the cluster');
  }
}

export interface WriteCall {
  verb: WriteVerb;
  ref: TraceRef;
  /** "controller key" of the reconcile making it, when one is. */
  during?: string;
}

export interface WriteGate {
  /** Kinds whose writes are not the controller's decisions (Events, Leases): passed through uncounted. */
  counts(kind: string): boolean;
  /** Before a counted write is sent: its number, and what happens once the server applied it. */
  begin(call: WriteCall): { k: number; after?: 'crash' | 'timeout' };
  /** A counted write ended: the object the server answered with, or the code it failed with. */
  end(k: number, call: WriteCall, outcome: { object?: KubeObject; code?: number }): void;
}

export interface TapOptions {
  gate: WriteGate;
  /** True once this client's manager has crashed. */
  dead: () => boolean;
}

const TIMEOUT_MESSAGE = 'Timeout: request did not complete within requested timeout - context deadline exceeded';

export function tapClient(inner: Client, o: TapOptions): Client {
  const live = <T>(fn: () => Promise<T>): Promise<T> =>
    o.dead() ? Promise.reject(new ControllerCrashedError()) : fn();
  const write = <T>(verb: WriteVerb, target: KubeObject | ObjectType, send: () => Promise<T>): Promise<T> =>
    live(() => tapped(o, callOf(verb, target), send));
  const status: StatusWriter = {
    update: (obj, opts) => write('updateStatus', obj, () => inner.status().update(obj, opts)),
    patch: (obj, patch, opts) => write('patchStatus', obj, () => inner.status().patch(obj, patch, opts)),
  };
  return {
    get: (type, key, opts) => live(() => inner.get(type, key, opts)),
    list: (type, opts) => live(() => inner.list(type, opts)),
    create: (obj, opts) => write('create', obj, () => inner.create(obj, opts)),
    update: (obj, opts) => write('update', obj, () => inner.update(obj, opts)),
    patch: (obj, patch, opts) => write('patch', obj, () => inner.patch(obj, patch, opts)),
    delete: (obj, opts) => write('delete', obj, () => inner.delete(obj, opts)),
    deleteAllOf: (type, opts) => write('deleteAllOf', type, () => inner.deleteAllOf(type, opts)),
    status: () => status,
  };
}

async function tapped<T>(o: TapOptions, call: WriteCall, send: () => Promise<T>): Promise<T> {
  if (!o.gate.counts(call.ref.kind)) return send();
  const { k, after } = o.gate.begin(call);
  let result: T;
  try {
    result = await send();
  } catch (err) {
    o.gate.end(k, call, { code: err instanceof ApiError ? err.code : -1 });
    throw err;
  }
  o.gate.end(k, call, isObject(result) ? { object: result } : {});
  if (o.dead()) throw new ControllerCrashedError();
  // Applied, but the controller never learns it: the answer is lost with the process, or to a timeout.
  if (after === 'crash') throw new ControllerCrashedError();
  if (after === 'timeout') throw new ApiError(504, 'Timeout', TIMEOUT_MESSAGE);
  return result;
}

function isObject(v: unknown): v is KubeObject {
  return typeof v === 'object' && v !== null && 'metadata' in v;
}

function callOf(verb: WriteVerb, target: KubeObject | ObjectType): WriteCall {
  const scope = currentReconcileScope();
  const during = scope ? `${scope.controller} ${scope.key}` : undefined;
  const meta = 'metadata' in target ? (target as KubeObject).metadata : undefined;
  let kind = 'unknown';
  try {
    const t = target as { apiVersion?: string; kind?: string; group?: string; version?: string };
    if (t.apiVersion !== undefined) kind = gvkId(toGVK({ apiVersion: t.apiVersion, kind: t.kind ?? '' }));
    else kind = gvkId(toGVK(target as ObjectType & { group: string; version: string; kind: string }));
  } catch {
    // An object without apiVersion/kind: still counted, named unknown.
  }
  const name = meta?.name || (meta?.generateName ? `${meta.generateName}*` : '*');
  return {
    verb,
    ref: { kind, name, ...(meta?.namespace ? { namespace: meta.namespace } : {}) },
    ...(during ? { during } : {}),
  };
}
