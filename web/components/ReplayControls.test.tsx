// The replay player's position, marks and end-of-recording state.
import { describe, expect, it } from 'vitest';
import type { ReplayState } from '../../shared/protocol/commands';
import { recordedView } from '../fixtures/recorded-view';
import { renderText, storeWith } from '../fixtures/render';
import { markLeft, ReplayControls, replayPosition } from './ReplayControls';

const replay: ReplayState = {
  playing: true,
  speed: 1,
  seq: 100,
  firstSeq: 1,
  lastSeq: 1001,
  ts: 5000,
  firstTs: 1000,
  lastTs: 9000,
  finished: false,
};

describe('replay player', () => {
  it('moves with the view it holds while playing, not with the last pushed state (the slider stood still)', () => {
    expect(replayPosition(replay, 640, 7000)).toEqual({ seq: 640, ts: 7000 });
    // Paused after a seek back: the server's position is the truth.
    expect(replayPosition({ ...replay, playing: false, seq: 50 }, 40, 3000)).toEqual({ seq: 50, ts: 5000 });
    // A view from another session (out of range) is ignored.
    expect(replayPosition(replay, 5000, 1)).toEqual({ seq: 100, ts: 5000 });
  });

  it('places marks along the timeline and counts them by kind', () => {
    expect(markLeft({ seq: 501, ts: 0, kind: '410', text: '' }, replay)).toBe(50);
    const view = recordedView();
    const marks = [
      { seq: 200, ts: 2000, kind: '410' as const, text: 'v1/Pod: watch expired (410 Gone)' },
      { seq: 300, ts: 3000, kind: 'hotLoop' as const, text: 'hot-loop demo/x: hot loop' },
      { seq: 310, ts: 3100, kind: 'error' as const, text: 'flaky demo/y: reconcile error' },
    ];
    const t = renderText(<ReplayControls replay={{ ...replay, marks }} />, storeWith(view));
    expect(t).toContain('hot loop 1');
    expect(t).toContain('410 Gone 1');
    expect(t).toContain('error 1');
    expect(t).toContain('❚❚ Pause');
  });

  it('offers Play again at the end instead of a disabled Play', () => {
    const t = renderText(
      <ReplayControls replay={{ ...replay, playing: false, finished: true, seq: 1001 }} />,
      storeWith(recordedView()),
    );
    expect(t).toContain('↻ Play again');
    expect(t).toContain('no 410, relist, error or hot loop in this recording');
  });
});
