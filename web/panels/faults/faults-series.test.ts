import { describe, expect, it } from 'vitest';
import { DEFAULT_FAULT_FORM, buildFault } from './faults-series';

describe('buildFault', () => {
  it('builds a targeted fault with an automatic lift', () => {
    expect(
      buildFault({
        ...DEFAULT_FAULT_FORM,
        kind: 'conflicts',
        rate: 0.3,
        resource: 'pods',
        verbs: 'update, patch',
        durationSec: 10,
      }),
    ).toEqual({
      fault: { kind: 'conflicts', rate: 0.3, resource: 'pods', verbs: ['update', 'patch'] },
      durationMs: 10_000,
    });
  });

  it('leaves out empty targets and the duration when 0', () => {
    expect(buildFault({ ...DEFAULT_FAULT_FORM, resource: '', durationSec: 0 })).toEqual({
      fault: { kind: 'expireWatches' },
    });
  });

  it('refuses invalid input with a message instead of sending it', () => {
    expect(buildFault({ ...DEFAULT_FAULT_FORM, kind: 'errors', rate: 2 })).toEqual({
      error: 'Rate must be in (0, 1].',
    });
    expect(buildFault({ ...DEFAULT_FAULT_FORM, kind: 'errors', code: 200 })).toEqual({
      error: 'Status code must be 4xx or 5xx.',
    });
    expect(buildFault({ ...DEFAULT_FAULT_FORM, verbs: 'frobnicate' })).toMatchObject({
      error: expect.stringContaining('frobnicate'),
    });
    expect(buildFault({ ...DEFAULT_FAULT_FORM, kind: 'latency', ms: 0 })).toMatchObject({ error: expect.any(String) });
  });
});
