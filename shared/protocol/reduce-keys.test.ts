// Any string a cluster, a recording or a client supplies is safe as a key: names of Object.prototype members
// ("constructor", "__proto__", …) are ordinary keys in every record of the view, and an event the reducer
// cannot apply is dropped and reported instead of throwing out of reduce().
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RuntimeEvent, StampedEvent } from './events';
import { eventsNaming, PROTOTYPE_NAMES } from './testing/prototype-names';
import { dictTree, lookup } from './records';
import { reduce } from './reduce';
import { filterView } from './subscription';
import { createView } from './view';
import type { RuntimeView } from './view';

function stamp(events: RuntimeEvent[], from = 0): StampedEvent[] {
  return events.map((e, i) => ({ ...e, seq: from + i + 1, ts: 1_000_000 + from + i }) as StampedEvent);
}

/** The view says, for `name`, exactly what the events did. */
function expectNamed(v: RuntimeView, name: string, key: string): void {
  const c = Object.hasOwn(v.controllers, name) ? v.controllers[name] : undefined;
  expect(c?.name).toBe(name);
  const k = c && Object.hasOwn(c.keys, key) ? c.keys[key] : undefined;
  expect(k?.key).toBe(key);
  expect(k?.adds).toBe(1);
  expect(k?.reconciles).toBe(1);
  expect(k?.state).toBe('idle');
  expect(c?.keyCount).toBe(1);
  expect(Object.keys(c?.keys ?? {})).toEqual([key]);
  expect(c?.handlers[name]?.events).toBe(1);
  expect(c?.client.requests.update).toBe(1);
  expect(Object.keys(c?.writes ?? {})).toHaveLength(1);
  const inf = Object.hasOwn(v.informers, name) ? v.informers[name] : undefined;
  expect(inf?.id).toBe(name);
  expect(inf?.handlers).toEqual([name]);
  expect(inf?.counters.notifications[name]).toBe(1);
  expect(inf?.pendingKeys).toBe(0);
  expect(Object.keys(inf?.pending ?? {})).toEqual([]);
  expect(v.manager?.groups[name]).toBe('started');
  expect(v.leaders[name]?.holder).toBe(name);
  expect(v.droppedEvents ?? 0).toBe(0);
}

describe('reduce with names of Object.prototype members', () => {
  for (const name of PROTOTYPE_NAMES) {
    it(`"${name}" as controller, key, informer, handler, group and lease`, () => {
      const v = reduce(createView(), stamp(eventsNaming(name, undefined)));
      expectNamed(v, name, name);
      expect(Object.getPrototypeOf(Object.prototype)).toBeNull();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it(`"${name}" survives a JSON round trip and keeps reducing (the browser's path)`, () => {
      const events = eventsNaming(name, 'ns');
      const first = reduce(createView(), stamp(events.slice(0, 8)));
      const parsed = JSON.parse(JSON.stringify(first)) as RuntimeView;
      for (const view of [parsed, dictTree(JSON.parse(JSON.stringify(first)) as RuntimeView)]) {
        const v = reduce(view, stamp(events.slice(8), 8));
        expectNamed(v, name, `ns/${name}`);
      }
    });
  }

  it('a subscription narrowed to a namespace keeps such keys as keys', () => {
    const v = reduce(createView(), stamp(eventsNaming('constructor', 'ns')));
    const narrowed = filterView(v, { namespaces: ['ns'] });
    expect(Object.keys(lookup(narrowed.controllers, 'constructor')?.keys ?? {})).toEqual(['ns/constructor']);
    expect(lookup(filterView(v, { namespaces: ['other'] }).controllers, 'constructor')?.keyCount).toBe(0);
  });
});

describe('an event the reducer cannot apply', () => {
  it('is dropped and reported; the events around it still apply', () => {
    const events = stamp([
      { kind: 'queue.add', queue: 'c', key: 'a', cause: { type: 'manual' }, queued: true, depth: {} },
      // A malformed event (a hand-edited recording): no causes array.
      { kind: 'reconcile.start', controller: 'c', key: 'a', worker: 0, causes: null, attempt: 0 },
      { kind: 'queue.add', queue: 'c', key: 'b', cause: { type: 'manual' }, queued: true, depth: {} },
    ] as unknown as RuntimeEvent[]);
    const v = reduce(createView(), events);
    expect(v.droppedEvents).toBe(1);
    expect(v.reducerErrors).toHaveLength(1);
    expect(v.reducerErrors?.[0]).toMatchObject({ seq: 2, kind: 'reconcile.start' });
    expect(v.reducerErrors?.[0]?.error).toMatch(/TypeError/);
    expect(v.notable.some((n) => n.level === 'error' && n.text.includes('dropped event #2'))).toBe(true);
    expect(Object.keys(v.controllers.c?.keys ?? {}).sort()).toEqual(['a', 'b']);
    expect(v.lastSeq).toBe(3);
    // Re-delivering the batch (a resume) does not count it again.
    expect(reduce(v, events)).toBe(v);
  });

  it('keeps only the latest reports and counts the rest', () => {
    const bad = Array.from({ length: 30 }, () => ({
      kind: 'reconcile.start',
      controller: 'c',
      key: 'k',
      causes: null,
    }));
    const v = reduce(createView(), stamp(bad as unknown as RuntimeEvent[]));
    expect(v.droppedEvents).toBe(30);
    expect(v.reducerErrors?.length).toBe(20);
    expect(v.reducerErrors?.[19]?.seq).toBe(30);
  });

  it('accepts a view from an older server that has no report fields', () => {
    const old = createView();
    delete old.droppedEvents;
    delete old.reducerErrors;
    const v = reduce(old, stamp([{ kind: 'queue.add', queue: 'c', key: 'k' } as unknown as RuntimeEvent]));
    expect(v.droppedEvents).toBe(1);
  });
});

describe('reduce over arbitrary names (property)', () => {
  const name = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ minLength: 1, maxLength: 12 }));
  it('never drops an event, round-trips through JSON, and indexes every name as given', () => {
    fc.assert(
      fc.property(name, fc.option(name, { nil: undefined }), fc.boolean(), (n, ns, viaJson) => {
        const events = eventsNaming(n, ns);
        const key = ns === undefined ? n : `${ns}/${n}`;
        let v = reduce(createView(), stamp(events.slice(0, 5)));
        if (viaJson) v = dictTree(JSON.parse(JSON.stringify(v)) as RuntimeView);
        v = reduce(v, stamp(events.slice(5), 5));
        expectNamed(v, n, key);
        const again = JSON.parse(JSON.stringify(v)) as RuntimeView;
        expect(JSON.stringify(dictTree(again))).toBe(JSON.stringify(v));
      }),
      { numRuns: 300 },
    );
  });
});
