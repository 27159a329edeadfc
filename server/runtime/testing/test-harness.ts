// Per-test set-up the cache suites share. Named test-harness.ts so the npm package leaves it out (as it leaves
// out the transport's): it imports vitest.
import { afterEach, beforeEach } from 'vitest';
import { FakeClock } from './fake-clock';

/**
 * A fresh FakeClock and AbortController before each test of the enclosing suite, handed to `use`, and the
 * controller aborted after it, so no informer or reflector of one test runs on into the next.
 */
export function freshClockEachTest(use: (clock: FakeClock, ctl: AbortController) => void): void {
  let ctl: AbortController | undefined;
  beforeEach(() => {
    ctl = new AbortController();
    use(new FakeClock(), ctl);
  });
  afterEach(() => ctl?.abort());
}
