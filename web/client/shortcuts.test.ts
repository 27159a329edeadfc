import { describe, expect, it } from 'vitest';
import { PANELS as NAV } from '../panels/registry';
import { shortcutFor, shortcutTable } from './shortcuts';
import { nextChoice, resolveTheme } from './theme';

describe('shortcuts', () => {
  const table = shortcutTable(NAV);
  it('every numbered block and the overview has its digit, and the sheet opens on ?', () => {
    for (const n of NAV.filter((x) => x.step))
      expect(shortcutFor(table, n.step as string)).toEqual({ type: 'panel', panel: n.id });
    expect(shortcutFor(table, '0')).toEqual({ type: 'panel', panel: 'overview' });
    expect(shortcutFor(table, '?')).toEqual({ type: 'help' });
    expect(shortcutFor(table, 'Escape')).toEqual({ type: 'close' });
    expect(shortcutFor(table, 't')).toEqual({ type: 'theme' });
    expect(shortcutFor(table, 'x')).toBeUndefined();
  });

  it('no key does two things', () => {
    const keys = table.flatMap((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('theme', () => {
  it('follows the system until the user picks one', () => {
    expect(resolveTheme('system', 'light')).toBe('light');
    expect(resolveTheme('system', 'dark')).toBe('dark');
    expect(resolveTheme('dark', 'light')).toBe('dark');
  });

  it('the toggle shows the other theme, then returns to the system’s', () => {
    expect(nextChoice('system', 'dark')).toBe('light');
    expect(nextChoice('system', 'light')).toBe('dark');
    expect(nextChoice('light', 'dark')).toBe('system');
  });
});
