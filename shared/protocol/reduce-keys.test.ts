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
  const depth = { ready: 1, waiting: 0, processing: 0 };
  const add = (key: string) => ({ kind: 'queue.add', queue: 'c', key, cause: { type: 'manual' }, queued: true, depth });

  it('is refused whole when malformed, reported, and the events around it still apply', () => {
    const events = stamp([
      add('a'),
      // A hand-edited recording: no causes array, no depth.
      { kind: 'reconcile.start', controller: 'c', key: 'z', worker: 0, causes: null, attempt: 0 },
      { kind: 'queue.add', queue: 'c', key: 'y', cause: { type: 'manual' }, queued: true },
      add('b'),
    ] as unknown as RuntimeEvent[]);
    const v = reduce(createView(), events);
    expect(v.droppedEvents).toBe(2);
    expect(v.reducerErrors).toEqual([
      { seq: 2, ts: events[1]?.ts, kind: 'reconcile.start', error: 'field "causes" is missing or malformed' },
      { seq: 3, ts: events[2]?.ts, kind: 'queue.add', error: 'field "depth" is missing or malformed' },
    ]);
    expect(v.notable.some((n) => n.level === 'error' && n.text.includes('dropped event #2'))).toBe(true);
    // Nothing of a refused event is applied or logged, so no panel meets a half-made record.
    expect(Object.keys(v.controllers.c?.keys ?? {}).sort()).toEqual(['a', 'b']);
    expect(v.log.map((e) => e.seq)).toEqual([1, 4]);
    expect(v.lastSeq).toBe(4);
    // Re-delivering the batch (a resume) does not count it again.
    expect(reduce(v, events)).toBe(v);
  });

  it('is dropped and reported when applying it throws', () => {
    // A view from a server that had no module list, then a module event: the reducer throws on it.
    const old = createView() as Partial<RuntimeView>;
    delete old.modules;
    const v = reduce(
      old as RuntimeView,
      stamp([
        { kind: 'module.lifecycle', file: 'm.ts', phase: 'loading', generation: 1 },
        add('a'),
      ] as unknown as RuntimeEvent[]),
    );
    expect(v.droppedEvents).toBe(1);
    expect(v.reducerErrors?.[0]).toMatchObject({ seq: 1, kind: 'module.lifecycle' });
    expect(v.reducerErrors?.[0]?.error).toMatch(/^TypeError: /);
    expect(v.controllers.c?.keys.a?.adds).toBe(1);
  });

  it('refuses events whose stamp is not a finite number', () => {
    const v = reduce(createView(), [{ ...add('a'), seq: 1, ts: Number.NaN } as unknown as StampedEvent]);
    expect(v.droppedEvents).toBe(1);
    expect(v.lastTs).toBe(0);
    expect(v.reducerErrors?.[0]?.error).toBe('seq and ts must be finite numbers');
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
    expect(v.reducerErrors).toHaveLength(1);
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

describe('reduce over malformed events (property)', () => {
  it('never throws, and every record it leaves is one the panels can read', () => {
    const base = eventsNaming('x', 'ns');
    const mutated = fc
      .tuple(fc.nat(base.length - 1), fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }))
      .map(([i, field, value]) => {
        const ev = { ...(base[i] as object) } as Record<string, unknown>;
        const fields = Object.keys(ev).filter((f) => f !== 'kind');
        const pick =
          fields.length > 0 && field.length % 2 === 0 ? (fields[field.length % fields.length] as string) : field;
        ev[pick] = value;
        return ev as unknown as RuntimeEvent;
      });
    fc.assert(
      fc.property(fc.array(fc.oneof(mutated, fc.constantFrom(...base)), { maxLength: 40 }), (events) => {
        const v = reduce(createView(), stamp(events));
        for (const c of Object.values(v.controllers)) {
          expect(typeof c.depth.ready).toBe('number');
          for (const k of Object.values(c.keys)) {
            expect(Array.isArray(k.pendingCauses) && Array.isArray(k.history)).toBe(true);
            expect(typeof k.key).toBe('string');
          }
        }
        for (const i of Object.values(v.informers)) expect(Array.isArray(i.history)).toBe(true);
        for (const n of v.notable) expect(typeof n.text).toBe('string');
        expect(() => JSON.stringify(v)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
