// Vitest glue for suites that need a real control plane: skip with a reason when the binaries are absent,
// fail instead when CONTROLLER_SCOPE_REQUIRE_ENVTEST=1 (CI after scripts/setup-envtest.sh), and share one
// control plane per suite file (starting one costs seconds on 2 cores; use a namespace per test instead).

import { afterAll, beforeAll, describe, it } from 'vitest';
import { EnvtestAssetsError, findAssets } from './assets';
import type { EnvtestAssets, FindAssetsOptions } from './assets';
import { ControlPlane } from './control-plane';
import type { ControlPlaneInfo, ControlPlaneOptions } from './control-plane';

export const REQUIRE_ENV = 'CONTROLLER_SCOPE_REQUIRE_ENVTEST';

export interface EnvtestAvailability {
  available: boolean;
  assets?: EnvtestAssets;
  /** Why it is unavailable (the findAssets message), when it is. */
  reason?: string;
  /** True when CONTROLLER_SCOPE_REQUIRE_ENVTEST=1: absence must fail, not skip. */
  required: boolean;
}

export function envtestAvailability(options: FindAssetsOptions = {}): EnvtestAvailability {
  const required = (options.env ?? process.env)[REQUIRE_ENV] === '1';
  try {
    return { available: true, assets: findAssets(options), required };
  } catch (err) {
    if (!(err instanceof EnvtestAssetsError)) throw err;
    return { available: false, reason: err.message, required };
  }
}

/** True when kube-apiserver and etcd binaries can be found. */
export function envtestAvailable(options: FindAssetsOptions = {}): boolean {
  return envtestAvailability(options).available;
}

/**
 * For use inside a test: returns the assets, or skips the test with the reason, or throws when envtest is
 * required. `ctx` is the vitest test context (`it('…', (ctx) => …)`).
 */
export function requireOrSkip(ctx: { skip: (note?: string) => void }, options: FindAssetsOptions = {}): EnvtestAssets {
  const a = envtestAvailability(options);
  if (a.assets) return a.assets;
  if (a.required) throw new Error(`${REQUIRE_ENV}=1 but ${a.reason}`);
  ctx.skip(`envtest binaries absent: ${a.reason}`);
  // ctx.skip throws in vitest; this line only satisfies the type checker.
  throw new Error('skipped');
}

/**
 * describe() that runs only when envtest is available. When it is not: the suite is skipped with the reason
 * printed once, or — with CONTROLLER_SCOPE_REQUIRE_ENVTEST=1 — replaced by one failing test.
 */
export function describeEnvtest(name: string, body: () => void, options: FindAssetsOptions = {}): void {
  const a = envtestAvailability(options);
  if (a.available) {
    describe(name, body);
    return;
  }
  if (a.required) {
    describe(name, () => {
      it(`needs envtest binaries (${REQUIRE_ENV}=1)`, () => {
        throw new Error(a.reason);
      });
    });
    return;
  }
  console.warn(`[envtest] skipping "${name}": ${a.reason}`);
  describe.skip(name, body);
}

/**
 * Starts one ControlPlane in beforeAll and stops it in afterAll (which vitest runs even when tests fail).
 * Returns a getter for the connection details, valid inside tests.
 */
export function useControlPlane(options: ControlPlaneOptions = {}): () => ControlPlaneInfo {
  const plane = new ControlPlane(options);
  beforeAll(async () => {
    await plane.start();
  });
  afterAll(async () => {
    await plane.stop();
  });
  return () => plane.info;
}
