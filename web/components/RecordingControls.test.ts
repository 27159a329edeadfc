import { describe, expect, it } from 'vitest';
import { recordingNotice, recordingUrl } from './RecordingControls';

describe('a viewer recording', () => {
  it('asks for its span from the state before fromSeq to toSeq', () => {
    const u = new URL(recordingUrl('http://127.0.0.1:3000/', 41, 90, 'tok'));
    expect(u.pathname).toBe('/api/recording');
    expect([...u.searchParams]).toEqual([
      ['fromSeq', '41'],
      ['toSeq', '90'],
      ['token', 'tok'],
    ]);
  });

  it('says nothing when the file holds the span asked, and how much is missing when it starts later', () => {
    expect(recordingNotice(41, 41)).toBeUndefined();
    expect(recordingNotice(41, undefined)).toBeUndefined();
    expect(recordingNotice(41, Number.NaN)).toBeUndefined();
    const n = recordingNotice(41, 1041);
    expect(n).toContain('starts 1,000 events after you pressed Rec (at seq 1041)');
    expect(n).toContain('--ring-bytes');
    expect(recordingNotice(41, 42)).toContain('1 event after');
  });
});
