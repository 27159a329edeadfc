// Recording, in the top bar. "Rec" records for this viewer only: it notes where the stream was when it
// started and, on stop, downloads that span as a file `--replay` opens; nobody else notices. The server's
// own --record file, when there is one, is shown beside it; pausing that file is one switch for everyone, and
// the button says so. Neither ever stops a viewer's stream.
import { useState } from 'react';
import type { RecordingState } from '../../shared/protocol/commands';
import { useStore, useStoreState } from '../client/hooks';
import { tokenFromPage } from '../client/connection';
import { fmtCount, fmtDuration } from './format';
import { useCommand } from './useCommand';

/** The download address of this viewer's span: the state right before fromSeq, then the events up to toSeq. */
export function recordingUrl(base: string, fromSeq: number, toSeq: number, token?: string): string {
  const url = new URL('api/recording', base);
  url.searchParams.set('fromSeq', String(fromSeq));
  url.searchParams.set('toSeq', String(toSeq));
  if (token) url.searchParams.set('token', token);
  return url.toString();
}

interface Span {
  fromSeq: number;
  startedAt: number;
}

export function ViewerRecording({ now }: { now: number }) {
  const store = useStore();
  const [span, setSpan] = useState<Span | undefined>();
  // The live seq, not the frozen one: freezing the display does not stop a recording.
  const seq = useStoreState(() => store.liveView.lastSeq);
  if (!span) {
    return (
      <button
        type="button"
        className="btn small"
        title="Record from now on, for you only: on stop, the span downloads as a file controller-scope --replay opens. Nobody else is affected."
        onClick={() => setSpan({ fromSeq: seq + 1, startedAt: Date.now() })}
        data-testid="viewer-record"
      >
        <span className="err">●</span> Rec
      </button>
    );
  }
  const stop = () => {
    setSpan(undefined);
    const a = document.createElement('a');
    a.href = recordingUrl(document.baseURI, span.fromSeq, seq, tokenFromPage());
    a.download = '';
    document.body.appendChild(a);
    a.click();
    a.remove();
  };
  return (
    <button
      type="button"
      className="btn small rec-on"
      title="Recording for you only. Click to stop and download the recording."
      onClick={stop}
      data-testid="viewer-record"
    >
      <span className="err">●</span> REC {fmtDuration(Math.max(0, now - span.startedAt))} ·{' '}
      {fmtCount(Math.max(0, seq - span.fromSeq + 1))} ev · ◼ Stop & save
    </button>
  );
}

export function ServerRecording({ recording }: { recording: RecordingState }) {
  const { run, busy, error, available } = useCommand<{ recording: RecordingState }>();
  if (!recording.file) return null;
  const paused = recording.paused;
  return (
    <button
      type="button"
      className="btn small"
      disabled={!available || busy}
      title={
        error ??
        `The server records everything to ${recording.file}. ${paused ? 'Resume' : 'Pause'} writing that file — ` +
          'one file, so this changes it for everyone; no viewer’s stream stops.'
      }
      onClick={() => void run({ type: paused ? 'recording.resume' : 'recording.pause' })}
      data-testid="server-recording"
    >
      <span className={paused ? 'warn' : 'err'}>{paused ? '◼' : '●'}</span> server file{' '}
      {paused ? 'paused' : 'recording'}
    </button>
  );
}
