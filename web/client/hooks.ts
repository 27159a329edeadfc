// React's side of the store: narrow selectors through useSyncExternalStore, and a ticking clock for
// countdowns. Components never hold their own copy of runtime data.
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Capabilities } from '../../shared/protocol/socket';
import type { RuntimeView } from '../../shared/protocol/view';
import type { RuntimeStore, StoreState } from './runtime-store';
import type { Connection } from './connection';

export const StoreContext = createContext<RuntimeStore | null>(null);
export const ConnectionContext = createContext<Connection | null>(null);

export function useStore(): RuntimeStore {
  const s = useContext(StoreContext);
  if (!s) throw new Error('useStore outside <StoreContext.Provider>');
  return s;
}

/** Subscribes to one slice of the store state; re-renders only when the selected value changes identity. */
export function useStoreState<T>(select: (s: StoreState) => T): T {
  const store = useStore();
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.getState()),
    () => select(store.getState()),
  );
}

export function useView<T>(select: (v: RuntimeView) => T): T {
  return useStoreState((s) => select(s.view));
}

/**
 * Whether the server offers a capability (step mode, requeue, faults...): undefined until its hello arrived,
 * so controls can stay enabled while unknown and the server's own answer explains a refusal.
 */
export function useCapability(name: keyof Capabilities): boolean | undefined {
  return useStoreState((s) => {
    const v = s.server?.capabilities[name];
    return v === undefined ? undefined : Boolean(v);
  });
}

/** The live connection for commands and inspect, or null in tests and replays without a server. */
export function useConnection(): Connection | null {
  return useContext(ConnectionContext);
}

/**
 * Wall-clock now, re-rendering every intervalMs; for countdowns and "ago" labels. When the view is frozen or
 * replayed, pass the view's lastTs instead so times stay consistent with the data.
 */
export function useNow(intervalMs = 500): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

/**
 * `value`, changing at most once per `ms` (trailing: the newest value always shows once the interval is up).
 * `same` says when a new value draws the same as the shown one, so equal rebuilds cost nothing.
 */
export function useThrottled<T>(value: T, ms: number, same: (a: T, b: T) => boolean = Object.is): T {
  const [shown, setShown] = useState(value);
  const shownAt = useRef(0);
  const latest = useRef(value);
  latest.current = value;
  const differs = !same(shown, value);
  useEffect(() => {
    if (!differs) return;
    const timer = setTimeout(
      () => {
        shownAt.current = Date.now();
        setShown(latest.current);
      },
      Math.max(0, shownAt.current + ms - Date.now()),
    );
    return () => clearTimeout(timer);
  });
  return shown;
}

/** The value from an earlier render while `same` says the new one equals it, so memos built on it hold. */
export function useStable<T>(value: T, same: (a: T, b: T) => boolean): T {
  const kept = useRef(value);
  if (kept.current !== value && !same(kept.current, value)) kept.current = value;
  return kept.current;
}
