// API errors as apimachinery's k8s.io/apimachinery/pkg/api/errors classifies them.
import type { KubeStatus } from '../../../shared/models/object';

/** An error answered by the API server (or a transport failure, code 0). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly status?: KubeStatus,
  ) {
    super(message);
  }

  static fromStatus(status: KubeStatus): ApiError {
    return new ApiError(status.code, status.reason ?? '', status.message ?? `status ${status.code}`, status);
  }
}

function reasonOf(err: unknown): { code: number; reason: string } | undefined {
  if (err instanceof ApiError) return { code: err.code, reason: err.reason };
  return undefined;
}

export const isNotFound = (err: unknown): boolean =>
  reasonOf(err)?.reason === 'NotFound' || reasonOf(err)?.code === 404;
export const isAlreadyExists = (err: unknown): boolean => reasonOf(err)?.reason === 'AlreadyExists';
export const isConflict = (err: unknown): boolean => reasonOf(err)?.code === 409 && !isAlreadyExists(err);
export const isForbidden = (err: unknown): boolean => reasonOf(err)?.code === 403;
export const isUnauthorized = (err: unknown): boolean => reasonOf(err)?.code === 401;
/** 410 Gone with reason Expired, or reason Gone: the resourceVersion is too old (compacted). */
export const isResourceExpired = (err: unknown): boolean => {
  const r = reasonOf(err);
  return r !== undefined && (r.reason === 'Expired' || r.reason === 'Gone' || r.code === 410);
};
export const isTooManyRequests = (err: unknown): boolean => reasonOf(err)?.code === 429;

/**
 * A reconciler error that must not be retried (controller-runtime's reconcile.TerminalError). Its message
 * is upstream's: "terminal error: <wrapped>", or "nil terminal error" when nothing is wrapped.
 */
export class TerminalError extends Error {
  override readonly name = 'TerminalError';
  constructor(override readonly cause: unknown) {
    super(cause === undefined || cause === null ? 'nil terminal error' : `terminal error: ${errorMessage(cause)}`);
  }
}

export function terminalError(err: unknown): TerminalError {
  return new TerminalError(err);
}

/** errors.Is(err, reconcile.TerminalError(nil)): err or anything in its cause chain is a TerminalError. */
export function isTerminalError(err: unknown): boolean {
  try {
    for (let e = err, depth = 0; e instanceof Error && depth < 100; e = e.cause, depth++) {
      if (e instanceof TerminalError) return true;
    }
  } catch {
    // A cause getter that throws: not terminal.
  }
  return false;
}

/**
 * The message of anything thrown; never throws itself. The one place a thrown value becomes text: a
 * reconciler or a user's module may throw anything at all, including values that throw when looked at
 * (a Proxy whose getPrototypeOf trap throws defeats even `instanceof`).
 */
export function errorMessage(err: unknown): string {
  try {
    return err instanceof Error ? String(err.message) : String(err);
  } catch {
    return unprintable(err);
  }
}

/** `v instanceof Error`, false (not a throw) for a value whose prototype cannot be read. */
export function isError(v: unknown): v is Error {
  try {
    return v instanceof Error;
  } catch {
    return false;
  }
}

/** What can be said of a value that throws when printed: only what typeof and a guarded look tell. */
function unprintable(err: unknown): string {
  const type = err === null ? 'null' : typeof err;
  let proto: string;
  try {
    proto = Reflect.getPrototypeOf(err as object) === null ? ' (it has no prototype)' : '';
  } catch {
    proto = ' (reading its prototype throws)';
  }
  return `a thrown ${type} that cannot be printed${proto}`;
}
