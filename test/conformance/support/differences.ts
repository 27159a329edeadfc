// The one list of places where the sandbox deliberately answers differently from kube-apiserver + etcd.
// A case that cannot hold on both targets is declared through sandboxOnly(), which refuses titles that
// are not listed here; README.md repeats this list and sandbox.test.ts checks it does.
import { it } from 'vitest';
import type { TargetName } from './target';

export interface Difference {
  /** Exact test title (without the " [sandbox-only]" suffix). */
  title: string;
  reason: string;
}

export const SANDBOX_ONLY: readonly Difference[] = [];

/** Registers a test that runs on the sandbox only; the title must be listed in SANDBOX_ONLY. */
export function sandboxOnly(target: TargetName, title: string, fn: () => Promise<void>, timeout?: number): void {
  if (!SANDBOX_ONLY.some((d) => d.title === title)) {
    throw new Error(`sandboxOnly("${title}") is not listed in test/conformance/support/differences.ts`);
  }
  it.skipIf(target !== 'sandbox')(`${title} [sandbox-only]`, fn, timeout);
}
