// The states a user must not miss, above every panel: no connection, protocol mismatch, resync, lagging,
// replay (with its controls), a frozen display or a filtered stream. And the pill the top bar shows.
import type { LinkStatus, StoreState } from '../client/runtime-store';
import { attachedSummary } from '../../shared/protocol/liveness';
import type { RuntimeView } from '../../shared/protocol/view';
import { ReplayControls } from './ReplayControls';
import { fmtCount, fmtDuration } from './format';

/**
 * The top bar's pill. LIVE means the page is connected to the server and, when the server is attached to
 * processes, that they are there too: a live stream from a dashboard whose only process was killed is not
 * a live view of a controller.
 */
export function statusPill(
  s: LinkStatus,
  view?: Pick<RuntimeView, 'processes'>,
): { tone: 'ok' | 'warn' | 'err' | 'info'; text: string } {
  switch (s.state) {
    case 'live': {
      const { processes, gone } = view ? attachedSummary(view as RuntimeView) : { processes: [], gone: 0 };
      if (gone > 0 && gone === processes.length)
        return { tone: 'err', text: processes.length === 1 ? 'PROCESS GONE' : 'ALL PROCESSES GONE' };
      if (gone > 0) return { tone: 'warn', text: `LIVE · ${gone} OF ${processes.length} GONE` };
      return { tone: 'ok', text: 'LIVE' };
    }
    case 'replaying':
      return { tone: 'info', text: 'REPLAY' };
    case 'connecting':
      return { tone: 'info', text: 'CONNECTING' };
    case 'resyncing':
      return { tone: 'info', text: 'RESYNCING' };
    case 'lagging':
      return { tone: 'warn', text: 'CATCHING UP' };
    case 'disconnected':
      return { tone: 'err', text: 'OFFLINE' };
    case 'incompatible':
      return { tone: 'err', text: 'VERSION MISMATCH' };
  }
}

export function Banner({ state, now }: { state: StoreState; now: number }) {
  const s = state.status;
  const view = state.view;
  switch (s.state) {
    case 'incompatible':
      return (
        <div className="banner err" role="alert" data-testid="banner">
          <b>Version mismatch.</b> This page speaks protocol v{s.clientVersion}, the server speaks v{s.serverVersion}.{' '}
          {s.message}
          <button type="button" className="btn" onClick={() => window.location.reload()}>
            Reload
          </button>
        </div>
      );
    case 'disconnected':
      return (
        <div className="banner err" role="alert" data-testid="banner">
          <b>No connection to the controller-scope server</b> for {fmtDuration(now - s.since)}
          {s.error ? ` (${s.error})` : ''}. Retrying{s.attempt > 0 ? ` (attempt ${s.attempt})` : ''}…
          {view.lastSeq > 0 && (
            <span className="dim"> Showing the last data received (seq {view.lastSeq}); it resumes from there.</span>
          )}
        </div>
      );
    case 'connecting':
      return (
        <div className="banner info" data-testid="banner">
          Connecting to the controller-scope server…
        </div>
      );
    case 'resyncing':
      return (
        <div className="banner info" data-testid="banner">
          Resynchronising: {s.reason}.
        </div>
      );
    case 'lagging':
      return (
        <div className="banner warn" data-testid="banner">
          This page fell behind the event stream ({fmtCount(s.dropped)} events skipped); showing summaries until a fresh
          snapshot arrives.
        </div>
      );
    case 'replaying': {
      const replay = state.serverStatus?.replay;
      return (
        <div className="banner info replay-banner" data-testid="banner">
          <span className="replay-what">
            <b>Replay</b> of {s.source}: recorded earlier, not a live cluster.
            {replay && (
              <span className="dim">
                {' '}
                {replay.waitingForViewer
                  ? 'Waiting for a viewer.'
                  : replay.finished
                    ? 'Finished.'
                    : replay.playing
                      ? 'Playing.'
                      : 'Paused.'}
              </span>
            )}
          </span>
          {replay && <ReplayControls replay={replay} />}
        </div>
      );
    }
    case 'live':
      if (
        !state.frozen &&
        state.subscription &&
        (state.subscription.namespaces?.length || state.subscription.controllers?.length)
      ) {
        return (
          <div className="banner info" data-testid="banner">
            Filtered to{' '}
            {[
              ...(state.subscription.namespaces ?? []).map((n) => `namespace ${n}`),
              ...(state.subscription.controllers ?? []).map((c) => `controller ${c}`),
            ].join(', ')}
            : counts and rates cover only matching events.
          </div>
        );
      }
      return state.frozen ? (
        <div className="banner warn" data-testid="banner">
          Display frozen at seq {view.lastSeq}: events keep arriving underneath.
        </div>
      ) : null;
  }
}

/** Events the reducer could not apply (a malformed recording, a buggy producer): dropped, and said so here. */
export function DroppedEventsBanner({ view }: { view: StoreState['view'] }) {
  const n = view.droppedEvents ?? 0;
  if (n === 0) return null;
  const last = view.reducerErrors?.[view.reducerErrors.length - 1];
  return (
    <div className="banner warn" role="status" data-testid="dropped-events">
      <b>
        {fmtCount(n)} event{n === 1 ? '' : 's'} could not be applied
      </b>{' '}
      and {n === 1 ? 'was' : 'were'} dropped; what they touched may be incomplete.
      {last && (
        <span className="dim">
          {' '}
          Latest: #{last.seq} {last.kind}: {last.error}
        </span>
      )}
    </div>
  );
}

/** Attached processes that are gone: everything they owned is shown as it was last reported, and said so. */
export function GoneProcessesBanner({ view, now }: { view: RuntimeView; now: number }) {
  const gone = attachedSummary(view).processes.filter((p) => p.state === 'gone');
  if (gone.length === 0) return null;
  return (
    <div className="banner err" role="status" data-testid="gone-processes">
      {gone.map((p) => (
        <div key={p.process}>
          <b>Process {p.process} is gone</b> ({p.address}) for {fmtDuration(now - p.since)}
          {p.reason ? `: ${p.reason}` : ''}. Its manager, lease, informers and controllers show what they last reported;
          the dashboard keeps trying to reach it.
        </div>
      ))}
    </div>
  );
}
