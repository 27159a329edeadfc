// The keyboard shortcuts, listed once: the key handler acts on this table and the "?" sheet shows it, so
// the help can never describe keys that do something else.
import { useEffect } from 'react';
import type { PanelId } from './route';

export type ShortcutAction =
  { type: 'panel'; panel: PanelId } | { type: 'freeze' } | { type: 'theme' } | { type: 'help' } | { type: 'close' };

export interface Shortcut {
  keys: string[];
  label: string;
  action: ShortcutAction;
}

/** The shortcuts for a navigation: digits for the numbered blocks, letters for the tools, then the rest. */
export function shortcutTable(nav: readonly { id: PanelId; label: string; step?: string }[]): Shortcut[] {
  const out: Shortcut[] = [];
  const overview = nav.find((n) => n.id === 'overview');
  if (overview) out.push({ keys: ['0'], label: overview.label, action: { type: 'panel', panel: overview.id } });
  for (const n of nav) if (n.step) out.push({ keys: [n.step], label: n.label, action: { type: 'panel', panel: n.id } });
  const letters: [string, PanelId][] = [
    ['f', 'faults'],
    ['l', 'learn'],
  ];
  for (const [k, id] of letters) {
    const n = nav.find((x) => x.id === id);
    if (n) out.push({ keys: [k], label: n.label, action: { type: 'panel', panel: n.id } });
  }
  out.push(
    { keys: ['.'], label: 'Freeze or unfreeze the display (data keeps arriving)', action: { type: 'freeze' } },
    { keys: ['t'], label: 'Light or dark theme (the system’s by default)', action: { type: 'theme' } },
    { keys: ['?'], label: 'This list of shortcuts', action: { type: 'help' } },
    { keys: ['Esc'], label: 'Close this list', action: { type: 'close' } },
  );
  return out;
}

/** Keys that work everywhere without a shortcut of their own, shown on the sheet. */
export const KEYBOARD_NOTES: readonly { keys: string[]; label: string }[] = [
  { keys: ['Tab', '⇧ Tab'], label: 'Move between boxes, rows, buttons and fields' },
  { keys: ['Enter', 'Space'], label: 'Open the focused row or box' },
];

export function shortcutFor(table: readonly Shortcut[], key: string): ShortcutAction | undefined {
  const k = key === 'Escape' ? 'Esc' : key;
  return table.find((s) => s.keys.includes(k))?.action;
}

/** Runs the table's actions on key presses outside form fields and without modifier keys. */
export function useShortcuts(table: readonly Shortcut[], run: (a: ShortcutAction) => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.ctrlKey || e.metaKey || e.altKey || (t && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName))) return;
      const a = shortcutFor(table, e.key);
      if (!a) return;
      e.preventDefault();
      run(a);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [table, run]);
}
