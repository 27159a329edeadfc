// Error classification the reflector relies on (client-go tools/cache/reflector.go helpers and
// apimachinery's errors/net predicates).
import { ApiError, isResourceExpired, isTooManyRequests } from '../util/errors';

/** The watch closed within a second without delivering anything: treated as a failure. */
export class VeryShortWatchError extends Error {
  override readonly name = 'VeryShortWatchError';
  constructor(readonly reflectorName: string) {
    super(
      `very short watch: ${reflectorName}: Unexpected watch close - watch lasted less than a second and no items received`,
    );
  }
}

/** errorStopRequested: the watch ended because we were asked to stop. */
export const ErrStopRequested = new Error('stop requested');

export { isResourceExpired, isTooManyRequests };

/** "connection refused": the API server is most likely restarting; retry the watch, don't relist. */
export function isConnectionRefused(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; cause?: unknown; message?: unknown; reason?: unknown };
  if (e.code === 'ECONNREFUSED' || e.reason === 'ConnectionRefused') return true;
  if (typeof e.message === 'string' && /connection refused|ECONNREFUSED/i.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== err && isConnectionRefused(e.cause);
}

export function isInternalError(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 500 || err.reason === 'InternalError');
}

/**
 * The three historical shapes of "resource version too large": a ResourceVersionTooLarge cause, or a
 * Timeout whose message or causes mention "Too large resource version".
 */
export function isTooLargeResourceVersion(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  const causes = err.status?.details?.causes ?? [];
  if (causes.some((c) => c.reason === 'ResourceVersionTooLarge')) return true;
  if (err.reason === 'ResourceVersionTooLarge') return true;
  if (err.code !== 504 && err.reason !== 'Timeout') return false;
  const mentions = (s: string | undefined): boolean => !!s && s.toLowerCase().includes('too large resource version');
  return mentions(err.message) || causes.some((c) => mentions(c.message));
}

export function errorCode(err: unknown): { code: number; reason: string } {
  if (err instanceof ApiError) return { code: err.code, reason: err.reason };
  if (err instanceof VeryShortWatchError) return { code: 0, reason: 'VeryShortWatch' };
  if (isConnectionRefused(err)) return { code: 0, reason: 'ConnectionRefused' };
  return { code: 0, reason: err instanceof Error ? err.name : 'Error' };
}
