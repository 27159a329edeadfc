// Controls for a replayed recording: play at 1x/10x/max, pause, and seek to any point (the server rebuilds
// the view up to that seq and sends a fresh snapshot).
import { useState } from 'react';
import type { ReplaySpeed, ReplayState } from '../../shared/protocol/commands';
import { fmtClock, fmtDuration } from './format';
import { useCommand } from './useCommand';

const SPEEDS: ReplaySpeed[] = [1, 10, 'max'];

export function ReplayControls({ replay }: { replay: ReplayState }) {
  const { run, busy, error, available } = useCommand<ReplayState>();
  const [seek, setSeek] = useState<number | undefined>();
  const disabled = !available || busy;
  return (
    <span className="toolbar" style={{ marginLeft: 'auto' }} data-testid="replay-controls">
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
          className="btn small"
          disabled={disabled || replay.finished}
          onClick={() => void run({ type: 'replay.play' })}
        >
          ▶ Play
        </button>
      )}
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
      <input
        type="range"
        min={replay.firstSeq}
        max={replay.lastSeq}
        value={seek ?? replay.seq}
        disabled={disabled}
        onChange={(e) => setSeek(Number(e.target.value))}
        onPointerUp={() => {
          if (seek !== undefined) void run({ type: 'replay.seek', seq: seek }).then(() => setSeek(undefined));
        }}
        onKeyUp={() => {
          if (seek !== undefined) void run({ type: 'replay.seek', seq: seek }).then(() => setSeek(undefined));
        }}
        style={{ width: 220 }}
        aria-label="seek in the recording"
      />
      <span className="num dim">
        {fmtClock(replay.ts)} · {fmtDuration(replay.ts - replay.firstTs)} /{' '}
        {fmtDuration(replay.lastTs - replay.firstTs)}
      </span>
      {error && <span className="err">{error}</span>}
    </span>
  );
}
