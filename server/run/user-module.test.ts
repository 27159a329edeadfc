import { describe, expect, it } from 'vitest';
import { EXPECTED_EXPORT, findSetup, moduleErrorOf, noSetupError } from './user-module';

async function fn(): Promise<void> {}
async function other(): Promise<number> {
  return 1;
}

describe('findSetup: the accepted export shapes, in order', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['a default function', { default: fn }, 'default'],
    ['a named setup', { setup: fn }, 'setup'],
    ['a named setupWithManager', { setupWithManager: fn }, 'setupWithManager'],
    ['a default object with setupWithManager', { default: { setupWithManager: fn } }, 'default.setupWithManager'],
    ['default wins over setup', { default: fn, setup: other }, 'default'],
    ['setup wins over a default object', { default: { setupWithManager: fn }, setup: fn }, 'setup'],
  ])('%s', (_title, exports, name) => {
    expect(findSetup(exports)?.exportName).toBe(name);
  });

  it('a default-exported class is not a setup function (it would need new)', () => {
    class Reconciler {}
    expect(findSetup({ default: Reconciler })).toBeUndefined();
    expect(noSetupError('r.ts', { default: Reconciler }).message).toBe(
      'r.ts has no setup function: it exports default (a class)',
    );
  });

  it('calls a default object method with the object as this', async () => {
    const obj = {
      seen: undefined as unknown,
      setupWithManager(mgr: unknown) {
        this.seen = mgr;
      },
    };
    await findSetup({ default: obj })?.setup('the manager' as never);
    expect(obj.seen).toBe('the manager');
  });

  it('says what a module exports and what it should', () => {
    expect(noSetupError('m.ts', {})).toEqual({
      message: 'm.ts has no setup function: it exports nothing',
      expected: EXPECTED_EXPORT,
    });
    expect(noSetupError('m.ts', { a: 1, b: null, c: [], d: {} }).message).toBe(
      'm.ts has no setup function: it exports a (a number), b (null), c (an array), d (an object)',
    );
  });
});

describe('moduleErrorOf', () => {
  it("points at the first stack frame in the user's code, skipping the package's own and node_modules", () => {
    const err = new Error('boom');
    err.stack = [
      'Error: boom',
      '    at Controller.x (/pkg/server/runtime/controller/controller.ts:10:5)',
      '    at f (/proj/node_modules/lib/index.js:1:1)',
      '    at setup (file:///proj/src/controller.ts?cs-generation=0.2:42:7)',
    ].join('\n');
    expect(moduleErrorOf(err, 'src/controller.ts', 'setup', '/pkg')).toEqual({
      message: 'setup in src/controller.ts threw: boom',
      at: { file: '/proj/src/controller.ts', line: 42, column: 7 },
    });
  });

  it('takes the place a compiler error names, and non-Error throws as text', () => {
    const err = new Error('Transform failed with 1 error:\n/proj/a.ts:3:12: ERROR: Unexpected ";"');
    expect(moduleErrorOf(err, 'a.ts', 'load', '/pkg')).toMatchObject({
      message: 'a.ts failed to load: Unexpected ";"',
      at: { file: '/proj/a.ts', line: 3, column: 12 },
    });
    expect(moduleErrorOf('just a string', 'a.ts', 'setup', '/pkg')).toEqual({
      message: 'setup in a.ts threw: just a string',
    });
  });
});
