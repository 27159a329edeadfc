// The key list is a snapshot the server sends every few seconds, while the cache's size beside it is live: after a
// create or a delete the two disagree until the next refresh. useCatchUp turns that disagreement into an early
// refresh, at most one per gapMs while it lasts, so a small cache's list follows its count within a second.
import { useEffect, useState } from 'react';

/** A number that grows by one gapMs after `lagging` became true, and again every gapMs while it stays true. */
export function useCatchUp(lagging: boolean, gapMs: number): number {
  const [bump, setBump] = useState(0);
  useEffect(() => {
    if (!lagging) return;
    const timer = setTimeout(() => setBump((b) => b + 1), gapMs);
    return () => clearTimeout(timer);
  }, [lagging, bump, gapMs]);
  return bump;
}

/** Caches up to this many keys catch up early; a larger list is costly to resend and keeps its slower refresh. */
export const CATCH_UP_MAX_KEYS = 5_000;
