// The replay player: play (from the start again at the end), pause, speed, step one event back or forward,
// and a timeline to seek on, with the recording's notable moments marked (410s, relists, errors, hot loops).
// The position comes from the view this page holds, so the slider moves while playing; the server's state
// says whether it plays.
import { useState } from 'react';
import type { ReplayMark, ReplayMarkKind, ReplaySpeed, ReplayState } from '../../shared/protocol/commands';
import { useStoreState, useStore } from '../client/hooks';
import { fmtClock, fmtDuration } from './format';
import { useCommand } from './useCommand';

const SPEEDS: ReplaySpeed[] = [1, 10, 'max'];

export const MARK_LABEL: Record<ReplayMarkKind, string> = {
  hotLoop: 'hot loop',
  '410': '410 Gone',
  error: 'error',
  relist: 'relist',
};

/** Where the player is: the page's own view while it plays past the server's last pushed state. */
export function replayPosition(replay: ReplayState, viewSeq: number, viewTs: number): { seq: number; ts: number } {
  if (viewSeq >= replay.firstSeq && viewSeq <= replay.lastSeq && (replay.playing || viewSeq > replay.seq)) {
    return { seq: viewSeq, ts: viewTs || replay.ts };
  }
  return { seq: replay.seq, ts: replay.ts };
}

/** A mark's place on the timeline, 0–100 %. */
export function markLeft(m: ReplayMark, replay: ReplayState): number {
  const span = replay.lastSeq - replay.firstSeq;
  return span <= 0 ? 0 : ((m.seq - replay.firstSeq) / span) * 100;
}

export function ReplayControls({ replay }: { replay: ReplayState }) {
  const { run, busy, error, available } = useCommand<ReplayState>();
  const store = useStore();
  const [seek, setSeek] = useState<number | undefined>();
  const live = useStoreState(() => store.liveView);
  const at = replayPosition(replay, live.lastSeq, live.lastTs);
  const disabled = !available || busy;
  const commit = () => {
    if (seek !== undefined) void run({ type: 'replay.seek', seq: seek }).then(() => setSeek(undefined));
  };
  const marks = replay.marks ?? [];
  const lastEvent = live.log[live.log.length - 1];
  return (
    <div className="replay-player" data-testid="replay-controls">
      <div className="toolbar">
        <button
          type="button"
          className="btn small"
          disabled={disabled || at.seq <= replay.firstSeq}
          onClick={() => void run({ type: 'replay.step', by: -1 })}
          title="One event back (rebuilds the view up to the previous event)"
          aria-label="one event back"
        >
          ◀|
        </button>
        {replay.playing ? (
          <button
            type="button"
            className="btn small"
            disabled={disabled}
            onClick={() => void run({ type: 'replay.pause' })}
          >
            ❚❚ Pause
          </button>
        ) : (
          <button
            type="button"
            className="btn small primary"
            disabled={disabled}
            onClick={() => void run({ type: 'replay.play' })}
            title={replay.finished ? 'Play again from the start' : 'Play from here'}
          >
            {replay.finished ? '↻ Play again' : '▶ Play'}
          </button>
        )}
        <button
          type="button"
          className="btn small"
          disabled={disabled || replay.finished}
          onClick={() => void run({ type: 'replay.step', by: 1 })}
          title="One event forward"
          aria-label="one event forward"
        >
          |▶
        </button>
        <span className="seg">
          {SPEEDS.map((s) => (
            <button
              type="button"
              key={String(s)}
              className={replay.speed === s ? 'on' : ''}
              disabled={disabled}
              onClick={() => void run({ type: 'replay.play', speed: s })}
            >
              {s === 'max' ? 'max' : `${s}×`}
            </button>
          ))}
        </span>
        <span className="num dim" data-testid="replay-position">
          seq {seek ?? at.seq} / {replay.lastSeq} · {fmtClock(at.ts)} · {fmtDuration(at.ts - replay.firstTs)} /{' '}
          {fmtDuration(replay.lastTs - replay.firstTs)}
          {replay.waitingForViewer ? ' · waiting for a viewer' : ''}
        </span>
        {error && <span className="err">{error}</span>}
      </div>
      <div className="timeline">
        <div className="timeline-marks" aria-hidden="true">
          {marks.map((m) => (
            <button
              type="button"
              key={m.seq}
              className={`timeline-mark mark-${m.kind === '410' ? 'gone' : m.kind}`}
              style={{ left: `${markLeft(m, replay)}%` }}
              title={`${MARK_LABEL[m.kind]} at seq ${m.seq} (${fmtClock(m.ts)}): ${m.text}. Click to seek here.`}
              tabIndex={-1}
              onClick={() => void run({ type: 'replay.seek', seq: m.seq })}
            />
          ))}
        </div>
        <input
          type="range"
          min={replay.firstSeq}
          max={replay.lastSeq}
          value={seek ?? at.seq}
          disabled={disabled}
          onChange={(e) => setSeek(Number(e.target.value))}
          onPointerUp={commit}
          onKeyUp={commit}
          aria-label="seek in the recording"
          data-testid="replay-seek"
        />
      </div>
      <div className="dim timeline-legend">
        {marks.length > 0 ? (
          (['hotLoop', '410', 'error', 'relist'] as ReplayMarkKind[]).map((k) => {
            const n = marks.filter((m) => m.kind === k).length;
            return n > 0 ? (
              <span key={k}>
                <i className={`timeline-mark static mark-${k === '410' ? 'gone' : k}`} /> {MARK_LABEL[k]} {n}
              </span>
            ) : null;
          })
        ) : (
          <span>no 410, relist, error or hot loop in this recording</span>
        )}
        {lastEvent && (
          <span className="mono" data-testid="replay-last-event" style={{ marginLeft: 'auto' }}>
            #{lastEvent.seq} {lastEvent.kind}
          </span>
        )}
      </div>
    </div>
  );
}
