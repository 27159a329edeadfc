// The default item identity of every queue and rate limiter: String(item). Go compares items by value; string
// items (the common case) are their own key, so they skip the String() call on the hot paths.
import type { KeyOf } from './interfaces';

export const defaultKeyOf: KeyOf<unknown> = (item) => (typeof item === 'string' ? item : String(item));
