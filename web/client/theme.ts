// Light or dark: the system's choice (prefers-color-scheme) until the user picks one, remembered in this
// browser. The theme in effect is written to <html data-theme>, which theme.css keys on.
import { useEffect, useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const STORAGE_KEY = 'controller-scope.theme';
const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

export function themeChoice(): ThemeChoice {
  const v = storage()?.getItem(STORAGE_KEY);
  return v === 'light' || v === 'dark' ? v : 'system';
}

function systemTheme(): Theme {
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

/** The theme a choice means now. */
export function resolveTheme(choice: ThemeChoice, system: Theme = systemTheme()): Theme {
  return choice === 'system' ? system : choice;
}

/** system → the other of what the system shows → the system's again: a toggle never gets stuck. */
export function nextChoice(choice: ThemeChoice, system: Theme): ThemeChoice {
  if (choice === 'system') return system === 'dark' ? 'light' : 'dark';
  return 'system';
}

export function applyTheme(): Theme {
  const theme = resolveTheme(themeChoice());
  if (typeof document !== 'undefined') document.documentElement.dataset.theme = theme;
  return theme;
}

export function setThemeChoice(choice: ThemeChoice): void {
  const s = storage();
  if (choice === 'system') s?.removeItem(STORAGE_KEY);
  else s?.setItem(STORAGE_KEY, choice);
  applyTheme();
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  const mq = typeof matchMedia !== 'undefined' ? matchMedia('(prefers-color-scheme: light)') : undefined;
  const onSystem = () => {
    applyTheme();
    l();
  };
  mq?.addEventListener('change', onSystem);
  return () => {
    listeners.delete(l);
    mq?.removeEventListener('change', onSystem);
  };
}

/** The user's choice and the theme in effect, kept in step with the system setting. */
export function useTheme(): { choice: ThemeChoice; theme: Theme; toggle: () => void } {
  const snapshot = useSyncExternalStore(
    subscribe,
    () => `${themeChoice()}|${resolveTheme(themeChoice())}`,
    () => 'system|dark',
  );
  const [choice, theme] = snapshot.split('|') as [ThemeChoice, Theme];
  useEffect(() => {
    applyTheme();
  }, [snapshot]);
  return { choice, theme, toggle: () => setThemeChoice(nextChoice(choice, systemTheme())) };
}
