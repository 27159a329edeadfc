// The dashboard's ControllerStepper over a runtime controller's step gate: StepState answers, breakpoint ids.
import { describe, expect, it } from 'vitest';
import { addKeys, steppedController } from '../runtime/testing/stepped-controller';
import { flushMicrotasks } from '../runtime/testing/fake-clock';
import { stepPort } from './step-port';

const setup = steppedController;
const add = addKeys;

describe('stepPort (the dashboard ControllerStepper shape)', () => {
  it('holds, steps, resumes and reports StepState', async () => {
    const { c, queue, seen, stop } = setup((r) => r.name === 'b');
    const port = stepPort(c);
    expect(port.hold()).toMatchObject({ controller: 'stepped', holding: true, held: 0 });
    await flushMicrotasks();
    add(queue, 'a', 'b');
    expect(port.state().held).toBe(2);
    port.next();
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a']);
    port.setBreakpoint({ onError: true }, false);
    port.setBreakpoint({ key: 'ns/z' }, false);
    expect(port.state().breakpoints).toEqual({ keys: ['ns/z'], onError: true });
    port.setBreakpoint({ key: 'ns/z' }, true);
    expect(port.state().breakpoints.keys).toEqual([]);
    port.next();
    await flushMicrotasks();
    expect(port.state().pausedAt).toMatchObject({ key: 'ns/b', reason: 'error', outcome: 'error' });
    expect(port.resume().holding).toBe(false);
    await stop();
  });

  it('names the held key that next() releases after a key breakpoint', async () => {
    const { c, queue, seen, stop } = setup();
    const port = stepPort(c);
    port.setBreakpoint({ key: 'ns/a' }, false);
    add(queue, 'a');
    await flushMicrotasks();
    expect(port.state()).toMatchObject({ holding: true, pausedAt: { key: 'ns/a', reason: 'key' } });
    expect(port.next().released).toBe('ns/a');
    await flushMicrotasks();
    expect(seen).toEqual(['ns/a']);
    expect(port.state().lastReleased).toEqual({ key: 'ns/a', worker: 0 });
    await stop();
  });

  it('toggles and removes breakpoints by id, refusing an unknown one by name', async () => {
    const { c, stop } = setup();
    const port = stepPort(c);
    const st = port.setBreakpoint({ key: 'ns/*', minAttempt: 2 }, false);
    const id = st.list?.[0]?.id as string;
    expect(st.list).toEqual([{ id, enabled: true, hits: 0, key: 'ns/*', minAttempt: 2 }]);
    expect(port.setBreakpoint({ id, enabled: false }, false).list?.[0]?.enabled).toBe(false);
    expect(port.setBreakpoint({ id }, true).list).toEqual([]);
    expect(() => port.setBreakpoint({ id }, true)).toThrow(`no breakpoint "${id}"`);
    await stop();
  });
});
