import { describe, expect, it } from 'vitest';
import { sameChart } from './TimeSeriesChart';

const series = [{ key: 'reconciles', label: 'reconciles', color: '#0f0', kind: 'area' as const }];
const points = (n: number) => Array.from({ length: 300 }, (_, i) => ({ t: i * 1000, reconciles: i === 299 ? n : 1 }));

describe('sameChart', () => {
  it('a rebuilt series with the same values does not redraw', () => {
    expect(sameChart({ data: points(5), series }, { data: points(5), series: [...series] })).toBe(true);
  });

  it('a changed value, a new point or another series does', () => {
    expect(sameChart({ data: points(5), series }, { data: points(6), series })).toBe(false);
    expect(sameChart({ data: points(5), series }, { data: points(5).slice(1), series })).toBe(false);
    expect(
      sameChart(
        { data: points(5), series },
        { data: points(5), series: [{ key: 'reconciles', label: 'reconciles', color: '#f00', kind: 'area' }] },
      ),
    ).toBe(false);
    expect(sameChart({ data: points(5), series, reference: { y: 3, label: 'w' } }, { data: points(5), series })).toBe(
      false,
    );
  });
});
