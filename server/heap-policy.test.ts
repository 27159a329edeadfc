import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, HEAP_POLICY_ENV, heapPolicyFlag } from './heap-policy';

describe('heapPolicyFlag', () => {
  it('sets the CLI default when nothing says otherwise', () => {
    expect(heapPolicyFlag([], {})).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapPolicyFlag(['--expose-gc'], { [HEAP_POLICY_ENV]: ' ' })).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it("keeps a flag node was started with, in either spelling, over the environment's", () => {
    expect(heapPolicyFlag(['--heap-growing-percent=80'], { [HEAP_POLICY_ENV]: '10' })).toBeUndefined();
    expect(heapPolicyFlag(['--heap_growing_percent=80'], {})).toBeUndefined();
  });

  it('takes a percent or "default" from the environment', () => {
    expect(heapPolicyFlag([], { [HEAP_POLICY_ENV]: '50' })).toBe('--heap-growing-percent=50');
    expect(heapPolicyFlag([], { [HEAP_POLICY_ENV]: 'default' })).toBeUndefined();
  });

  it('refuses anything else, naming the variable and what it takes', () => {
    for (const bad of ['0', '-5', '12.5', '30%', 'off', '1001']) {
      expect(() => heapPolicyFlag([], { [HEAP_POLICY_ENV]: bad })).toThrow(
        new RegExp(`${HEAP_POLICY_ENV}=.* is not a percent: give a whole number from 1 to 1000`),
      );
    }
  });
});
