// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useEffect, useLayoutEffect, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { KeptPanels } from './KeptPanels';

/** What the fake panels count: renders, and store subscriptions open right now (an effect, as useSyncExternalStore's). */
const counts = { renders: new Map<string, number>(), subscribed: new Map<string, number>() };
const bump = (m: Map<string, number>, k: string, by = 1): void => void m.set(k, (m.get(k) ?? 0) + by);

function FakePanel({ id, seq }: { id: string; seq: number }) {
  bump(counts.renders, id);
  const [typed, setTyped] = useState('');
  useEffect(() => {
    bump(counts.subscribed, id);
    return () => bump(counts.subscribed, id, -1);
  }, [id]);
  return (
    <div className="page" data-testid={`panel-${id}`}>
      <span data-testid={`seq-${id}`}>seq {seq}</span>
      <input aria-label={`search ${id}`} value={typed} onChange={(e) => setTyped(e.target.value)} />
    </div>
  );
}

const shown = (id: string): boolean => (screen.getByTestId(`panel-${id}`) as HTMLElement).style.display !== 'none';

afterEach(() => {
  cleanup();
  counts.renders.clear();
  counts.subscribed.clear();
});

describe('KeptPanels', () => {
  it('keeps a panel left and revisited mounted, with what the user typed, and draws it anew once shown', () => {
    const { rerender } = render(<KeptPanels id="workqueue" panel={<FakePanel id="workqueue" seq={1} />} />);
    fireEvent.change(screen.getByLabelText('search workqueue'), { target: { value: 'web-3' } });
    rerender(<KeptPanels id="controller" panel={<FakePanel id="controller" seq={2} />} />);
    expect(shown('controller')).toBe(true);
    expect(shown('workqueue')).toBe(false);
    rerender(<KeptPanels id="workqueue" panel={<FakePanel id="workqueue" seq={3} />} />);
    expect(shown('workqueue')).toBe(true);
    expect(shown('controller')).toBe(false);
    expect((screen.getByLabelText('search workqueue') as HTMLInputElement).value).toBe('web-3');
    expect(screen.getByTestId('seq-workqueue').textContent).toBe('seq 3');
  });

  it('renders nothing in a hidden panel on store updates and disconnects its effects until it is shown', () => {
    const { rerender } = render(<KeptPanels id="overview" panel={<FakePanel id="overview" seq={1} />} />);
    expect(counts.subscribed.get('overview')).toBe(1);
    rerender(<KeptPanels id="indexer" panel={<FakePanel id="indexer" seq={1} />} />);
    const hiddenAt = counts.renders.get('overview');
    expect(counts.subscribed.get('overview')).toBe(0);
    for (let seq = 2; seq < 20; seq++)
      rerender(<KeptPanels id="indexer" panel={<FakePanel id="indexer" seq={seq} />} />);
    expect(counts.renders.get('overview')).toBe(hiddenAt);
    expect(screen.getByTestId('seq-overview').textContent).toBe('seq 1');
    rerender(<KeptPanels id="overview" panel={<FakePanel id="overview" seq={20} />} />);
    expect(counts.subscribed.get('overview')).toBe(1);
    expect(screen.getByTestId('seq-overview').textContent).toBe('seq 20');
    expect(counts.subscribed.get('indexer')).toBe(0);
  });

  it('shows a revisited panel first as it was left, then with the current view', () => {
    const committed: number[] = [];
    function Shown({ seq }: { seq: number }) {
      useLayoutEffect(() => void committed.push(seq), [seq]);
      return <div data-testid="panel-controller">seq {seq}</div>;
    }
    const { rerender } = render(<KeptPanels id="controller" panel={<Shown seq={1} />} />);
    rerender(<KeptPanels id="overview" panel={<FakePanel id="overview" seq={2} />} />);
    committed.length = 0;
    rerender(<KeptPanels id="controller" panel={<Shown seq={3} />} />);
    expect(committed).toEqual([1, 3]);
    expect(screen.getByTestId('panel-controller').textContent).toBe('seq 3');
  });

  it('mounts a panel only once it is opened', () => {
    render(<KeptPanels id="trace" panel={<FakePanel id="trace" seq={1} />} />);
    expect(screen.queryByTestId('panel-overview')).toBeNull();
    expect(counts.renders.has('overview')).toBe(false);
    expect(shown('trace')).toBe(true);
  });
});
