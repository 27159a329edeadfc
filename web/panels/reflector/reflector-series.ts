// Models for the reflector panel: the state machine (which states exist, which one is current, which were
// visited), the session history as table rows, and the watch-event rate over time.
import type { ReflectorState } from '../../../shared/protocol/reflector-machine';
import type { InformerView, ReflectorSessionEntry } from '../../../shared/protocol/view';
import type { ChartPoint } from '../../components/TimeSeriesChart';
import { fmtDuration } from '../../components/format';
import { visitedStates } from './state-diagram-model';

export interface StateMachineModel {
  current: ReflectorState;
  since: number;
  reason: string;
  visited: Set<ReflectorState>;
}

export function stateMachine(inf: InformerView): StateMachineModel {
  const visited = visitedStates(inf.counters, inf.state);
  return { current: inf.state, since: inf.stateSince, reason: inf.stateReason, visited };
}

export interface SessionRow {
  seq: number;
  ts: number;
  kind: string;
  tone: 'ok' | 'warn' | 'err' | 'info' | 'muted' | 'purple';
  summary: string;
  duration?: string;
  open: boolean;
}

/** History rows, newest first, each summarised in one line the way a person would describe it. */
export function sessionRows(inf: InformerView, now: number): SessionRow[] {
  return inf.history
    .map((e: ReflectorSessionEntry): SessionRow => {
      switch (e.type) {
        case 'list': {
          const parts = [`rv=${e.resourceVersion || '0'}`];
          if (e.items !== undefined) parts.push(`${e.items} items`);
          if (e.pages !== undefined && e.pages > 1) parts.push(`${e.pages} pages`);
          if (e.relist && e.replaced !== undefined) parts.push(`${e.replaced} replaced`);
          if (e.relist && e.deleted) parts.push(`${e.deleted} deleted (tombstones)`);
          if (e.cause) parts.push(`cause: ${e.cause}`);
          if (e.error) parts.push(`error: ${e.error}`);
          const row: SessionRow = {
            seq: e.seq,
            ts: e.beginTs,
            // A WatchList sync is bracketed like a list, but it is one streaming WATCH: say so.
            kind: `${e.relist ? 'RELIST' : 'LIST'}${e.method === 'watchList' ? ' (stream)' : ''}`,
            tone: e.error ? 'err' : e.relist ? 'purple' : 'info',
            summary: parts.join(' · '),
            open: e.endTs === undefined,
          };
          row.duration = e.durationMs !== undefined ? fmtDuration(e.durationMs) : `${fmtDuration(now - e.beginTs)}…`;
          return row;
        }
        case 'watch': {
          const parts = [`from rv=${e.resourceVersion}`, `${e.events} events`];
          if (e.bookmarks)
            parts.push(`${e.bookmarks} bookmarks${e.lastBookmarkRv ? ` (last rv=${e.lastBookmarkRv})` : ''}`);
          parts.push(`timeout ${e.timeoutSeconds}s`);
          if (e.reason) parts.push(`ended: ${e.reason}`);
          if (e.error) parts.push(e.error);
          return {
            seq: e.seq,
            ts: e.startTs,
            kind: e.expired ? 'WATCH 410' : 'WATCH',
            tone: e.expired ? 'warn' : e.error ? 'err' : e.endTs === undefined ? 'ok' : 'muted',
            summary: parts.join(' · '),
            duration: e.endTs !== undefined ? fmtDuration(e.endTs - e.startTs) : `${fmtDuration(now - e.startTs)}…`,
            open: e.endTs === undefined,
          };
        }
        case 'backoff':
          return {
            seq: e.seq,
            ts: e.ts,
            kind: 'BACKOFF',
            tone: 'warn',
            summary: `waiting ${fmtDuration(e.delayMs)} before retrying`,
            duration: fmtDuration(e.delayMs),
            open: e.until > now,
          };
        case 'error':
          return {
            seq: e.seq,
            ts: e.ts,
            kind: e.code === 410 ? '410 GONE' : 'ERROR',
            tone: e.code === 410 ? 'warn' : 'err',
            summary: `${e.code ? `${e.code} ` : ''}${e.reason}: ${e.message}`,
            open: false,
          };
      }
    })
    .reverse();
}

export function watchSeries(inf: InformerView): ChartPoint[] {
  return inf.series.map((p) => ({ t: p.t, watchEvents: p.watchEvents, deltas: p.deltas, storeSize: p.storeSize }));
}
