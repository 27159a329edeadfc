// Recording, in the top bar. "Rec" records for this viewer only: it notes where the stream was when it
// started and, on stop, downloads that span as a file `--replay` opens; nobody else notices. The server's
// own --record file, when there is one, is shown beside it; pausing that file is one switch for everyone, and
// the button says so. Neither ever stops a viewer's stream.
import { useState } from 'react';
import type { RecordingState } from '../../shared/protocol/commands';
import { RECORDING_FROM_SEQ_HEADER } from '../../shared/protocol/recording';
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

/**
 * What to tell the viewer about a saved span: nothing when it holds what was asked; otherwise how much of
 * its start the server could no longer rebuild (its buffer had moved on), so a shorter file is not a surprise.
 */
export function recordingNotice(askedFromSeq: number, heldFromSeq: number | undefined): string | undefined {
  if (heldFromSeq === undefined || !Number.isSafeInteger(heldFromSeq) || heldFromSeq <= askedFromSeq) return undefined;
  const lost = heldFromSeq - askedFromSeq;
  return (
    `The recording starts ${fmtCount(lost)} event${lost === 1 ? '' : 's'} after you pressed Rec (at seq ${heldFromSeq}): ` +
    'the server no longer held the state from before them. Record shorter spans, or start the server with ' +
    'a larger --ring-bytes, to keep the whole span.'
  );
}

/** Fetches the span and hands it to the browser as a download; resolves with the first seq it holds. */
async function downloadSpan(url: string): Promise<number | undefined> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`the server refused the recording: ${res.status} ${await res.text()}`);
  const held = res.headers.get(RECORDING_FROM_SEQ_HEADER);
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'recording.csrec';
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(href);
  return held === null ? undefined : Number(held);
}

export function ViewerRecording({ now }: { now: number }) {
  const store = useStore();
  const [span, setSpan] = useState<Span | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  // The live seq, not the frozen one: freezing the display does not stop a recording.
  const seq = useStoreState(() => store.liveView.lastSeq);
  if (!span) {
    return (
      <>
        <button
          type="button"
          className="btn small"
          title="Record from now on, for you only: on stop, the span downloads as a file controller-scope --replay opens. Nobody else is affected."
          onClick={() => {
            setNotice(undefined);
            setSpan({ fromSeq: seq + 1, startedAt: Date.now() });
          }}
          data-testid="viewer-record"
        >
          <span className="err">●</span> Rec
        </button>
        {notice && (
          <span className="warn" role="status" aria-label={notice} data-testid="viewer-record-notice" title={notice}>
            ⚠ {notice.startsWith('Could not') ? 'not saved' : 'saved a shorter span'}
          </span>
        )}
      </>
    );
  }
  const stop = () => {
    setSpan(undefined);
    const asked = span.fromSeq;
    downloadSpan(recordingUrl(document.baseURI, asked, seq, tokenFromPage())).then(
      (held) => setNotice(recordingNotice(asked, held)),
      (err: unknown) => setNotice(`Could not save the recording: ${(err as Error).message}`),
    );
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
