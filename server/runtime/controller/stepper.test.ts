// Step mode: dispatch held in the queue, released one item per step, breakpoints on a key or an error.
import { describe, expect, it } from 'vitest';
import { addKeys, steppedController } from '../testing/stepped-controller';
import { flushMicrotasks } from '../testing/fake-clock';
import { Stepper, type StepperState } from './stepper';

const setup = steppedController;
const add = addKeys;

describe('Controller step mode', () => {
  it('holds items in the queue until stepped, one per step', async () => {
    const { c, queue, seen, stop } = setup();
    c.stepper.enableStepMode();
    await flushMicrotasks();
    add(queue, 'a', 'b', 'c');
    await flushMicrotasks();
    expect(seen).toEqual([]);
    expect(queue.len()).toBe(3);
    expect(c.stepper.state()).toMatchObject({ stepMode: true, waitingWorkers: 1, permits: 0 });
    c.stepper.step();
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a']);
    c.stepper.step(2);
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a', 'ns/b', 'ns/c']);
    await stop();
  });

  it('releases everything when step mode is disabled', async () => {
    const { c, queue, seen, stop } = setup();
    c.stepper.enableStepMode();
    add(queue, 'a', 'b');
    await flushMicrotasks();
    c.stepper.disableStepMode();
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a', 'ns/b']);
    await stop();
  });

  it('pauses on a key breakpoint, holding that item until a step', async () => {
    const { c, queue, seen, stop } = setup();
    c.stepper.setBreakpoint({ key: 'ns/b' });
    add(queue, 'a', 'b', 'c');
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a']);
    expect(c.stepper.state()).toMatchObject({ stepMode: true, held: ['ns/b'] });
    c.stepper.step();
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a', 'ns/b']);
    c.stepper.clearBreakpoints();
    c.stepper.disableStepMode();
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a', 'ns/b', 'ns/c']);
    await stop();
  });

  it('pauses dispatch after an error when an onError breakpoint is set', async () => {
    const { c, queue, seen, stop } = setup((r) => r.name === 'a');
    c.stepper.setBreakpoint({ onError: true });
    add(queue, 'a', 'b');
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a']);
    expect(c.stepper.state().stepMode).toBe(true);
    c.stepper.step();
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a', 'ns/b']);
    await stop();
  });

  it('says which key a step let through and which worker took it', async () => {
    const { c, queue, seen, stop } = setup();
    c.stepper.enableStepMode();
    add(queue, 'a', 'b');
    await flushMicrotasks();
    c.stepper.step();
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a']);
    expect(c.stepper.state().lastReleased).toEqual({ key: 'ns/a', worker: 0 });
    await stop();
  });

  it('names the worker holding a key at a breakpoint', async () => {
    const { c, queue, stop } = setup();
    c.stepper.setBreakpoint({ key: 'ns/b' });
    add(queue, 'b');
    await flushMicrotasks();
    expect(c.stepper.state().holders).toEqual([{ key: 'ns/b', worker: 0 }]);
    await stop();
  });

  it('a removed or disabled breakpoint no longer pauses the controller after resume', async () => {
    const { c, queue, seen, stop } = setup((r) => r.name === 'a');
    const bp = c.stepper.setBreakpoint({ key: 'ns/a' });
    add(queue, 'a');
    await flushMicrotasks();
    expect(c.stepper.state().pausedAt).toMatchObject({ key: 'ns/a', reason: 'key', breakpoint: bp.id });
    expect(c.stepper.enableBreakpoint(bp.id, false)).toBe(true);
    c.stepper.disableStepMode();
    await flushMicrotasks();
    // It failed and came back: with the breakpoint off it runs again without holding.
    add(queue, 'a');
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a', 'ns/a']);
    expect(c.stepper.state().stepMode).toBe(false);
    expect(c.stepper.removeBreakpointById(bp.id)).toBe(true);
    expect(c.stepper.state().breakpoints).toEqual([]);
    expect(c.stepper.removeBreakpointById(bp.id)).toBe(false);
    await stop();
  });

  it('matches key patterns, outcomes and attempts', async () => {
    const { c, queue, seen, stop } = setup((r) => r.name.startsWith('bad'));
    c.stepper.setBreakpoint({ key: 'ns/bad-*', outcome: 'error' });
    add(queue, 'good-1', 'bad-1', 'good-2');
    await flushMicrotasks();
    expect(seen).toEqual(['ns/good-1', 'ns/bad-1']);
    expect(c.stepper.state()).toMatchObject({
      stepMode: true,
      pausedAt: { key: 'ns/bad-1', reason: 'breakpoint', outcome: 'error' },
    });
    c.stepper.clearBreakpoints();
    c.stepper.setBreakpoint({ minAttempt: 3 });
    c.stepper.disableStepMode();
    await flushMicrotasks();
    expect(seen).toEqual(['ns/good-1', 'ns/bad-1', 'ns/good-2']);
    expect(c.stepper.state().stepMode).toBe(false);
    await stop();
  });

  it('runs to a key: dispatches freely, then holds that key once', async () => {
    const { c, queue, seen, stop } = setup();
    c.stepper.enableStepMode();
    add(queue, 'a', 'b', 'c');
    await flushMicrotasks();
    c.stepper.runTo('ns/b');
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a']);
    expect(c.stepper.state()).toMatchObject({ stepMode: true, held: ['ns/b'], breakpoints: [] });
    await stop();
  });

  it('lets stopped workers go while they wait for a permit', async () => {
    const { c, stop } = setup();
    c.stepper.enableStepMode();
    await flushMicrotasks();
    await expect(stop()).resolves.toBeUndefined();
  });
});

describe('Stepper', () => {
  it('ignores steps outside step mode and reports changes', () => {
    const s = new Stepper();
    const states: StepperState[] = [];
    s.onChange((st) => states.push(st));
    s.step(3);
    expect(s.state().permits).toBe(0);
    s.enableStepMode();
    s.step(2);
    expect(states.at(-1)).toMatchObject({ stepMode: true, permits: 2 });
    expect(() => s.setBreakpoint({})).toThrow(/key pattern, an outcome or a minimum attempt/);
    expect(() => s.setBreakpoint({ minAttempt: 0 })).toThrow(/whole number/);
  });

  it('refuses a key pattern longer than any queue key', () => {
    const s = new Stepper();
    expect(() => s.setBreakpoint({ key: '*'.repeat(513) })).toThrow(/513 characters; the limit is 512/);
    expect(s.state().breakpoints).toEqual([]);
  });

  it('checks a key against a pathological pattern without hanging the worker', async () => {
    const s = new Stepper();
    s.setBreakpoint({ key: '*a'.repeat(20) + '*b' });
    // No match: the worker goes on at once instead of the process spinning on the pattern.
    await s.afterGet('a'.repeat(100), false, new AbortController().signal, { worker: 1, attempt: 1 });
    expect(s.state().pausedAt).toBeUndefined();
  });
});
