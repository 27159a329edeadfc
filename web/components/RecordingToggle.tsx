// The recorder's state in the top bar: recording (click to pause stamping events) or paused (click to
// resume). The runtime keeps running either way; only what the dashboard records stops.
import type { RecordingState } from '../../shared/protocol/commands';
import { useCommand } from './useCommand';

export function RecordingToggle({ recording }: { recording: RecordingState }) {
  const { run, busy, error, available } = useCommand<{ recording: RecordingState }>();
  const paused = recording.paused;
  return (
    <button
      type="button"
      className="btn small"
      disabled={!available || busy}
      title={
        error ??
        (paused
          ? 'Recording is paused: the runtime runs, the dashboard records nothing. Click to resume.'
          : `Recording events${recording.file ? ` to ${recording.file}` : ''}. Click to pause.`)
      }
      onClick={() => void run({ type: paused ? 'recording.resume' : 'recording.pause' })}
      data-testid="recording-toggle"
    >
      <span className={paused ? 'warn' : 'err'}>{paused ? '◼' : '●'}</span> {paused ? 'Paused' : 'Recording'}
    </button>
  );
}
