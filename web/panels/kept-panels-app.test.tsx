// @vitest-environment happy-dom
// The shell with the real panels: moving between them through the sidebar keeps each one opened, hidden.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../App';
import { StoreContext } from '../client/hooks';
import { recordedView } from '../fixtures/recorded-view';
import { storeWith } from '../fixtures/render';

const visible = (testId: string): boolean => {
  const el = screen.getByTestId(testId);
  for (let e: HTMLElement | null = el; e; e = e.parentElement) if (e.style.display === 'none') return false;
  return true;
};

async function go(panel: string): Promise<void> {
  await act(async () => {
    fireEvent.click(screen.getByTestId(`nav-${panel}`));
    await new Promise((r) => setTimeout(r, 0));
  });
}

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

describe('App panels', () => {
  it('keeps the workqueue filter typed before visiting another panel, and shows one panel at a time', async () => {
    window.location.hash = '#/workqueue';
    const store = storeWith(recordedView());
    render(
      <StoreContext.Provider value={store}>
        <App />
      </StoreContext.Provider>,
    );
    const filter = screen.getByPlaceholderText('filter keys…') as HTMLInputElement;
    fireEvent.change(filter, { target: { value: 'web-3' } });
    await go('controller');
    expect(visible('panel-controller')).toBe(true);
    expect(visible('panel-workqueue')).toBe(false);
    await act(async () => store.setSnapshot(recordedView()));
    await go('workqueue');
    expect(visible('panel-workqueue')).toBe(true);
    expect(visible('panel-controller')).toBe(false);
    expect((screen.getByPlaceholderText('filter keys…') as HTMLInputElement).value).toBe('web-3');
    expect(screen.queryByTestId('panel-overview')).toBeNull();
  });
});
