// Makes a non-button element (a table row, a box) act like a button for the keyboard: reachable with Tab,
// activated with Enter or Space, announced as a button. One home, so every clickable row behaves the same.
import type { KeyboardEvent } from 'react';

export function activateProps(onActivate: () => void): {
  role: 'button';
  tabIndex: 0;
  onClick: () => void;
  onKeyDown: (e: KeyboardEvent) => void;
} {
  return {
    role: 'button',
    tabIndex: 0,
    onClick: onActivate,
    onKeyDown: (e) => {
      if (e.target !== e.currentTarget) return;
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onActivate();
      }
    },
  };
}
