// The one list of places where the sandbox deliberately answers differently from kube-apiserver + etcd.
// A case that cannot hold on both targets is declared through onlyOn(), which refuses titles that are not
// listed here; README.md repeats this list and sandbox.test.ts checks that it does.
import { it } from 'vitest';
import type { TargetName } from './target';

export interface Difference {
  /** Exact test title (without the " [<target>-only]" suffix). */
  title: string;
  /** The one target whose behaviour the case asserts. */
  runsOn: TargetName;
  reason: string;
}

// Empty: every case holds on both servers. (Custom-resource type validation was envtest-only until the
// sandbox gained schema validation in 88e429d.)
export const DIFFERENCES: readonly Difference[] = [];

/** Registers a test that runs only on `runsOn`; the title must be listed in DIFFERENCES with that target. */
export function onlyOn(
  target: TargetName,
  runsOn: TargetName,
  title: string,
  fn: () => Promise<void>,
  timeout?: number,
): void {
  if (!DIFFERENCES.some((d) => d.title === title && d.runsOn === runsOn)) {
    throw new Error(`onlyOn("${title}") is not listed for ${runsOn} in test/conformance/support/differences.ts`);
  }
  it.skipIf(target !== runsOn)(`${title} [${runsOn}-only]`, fn, timeout);
}
