// The "?" sheet: every shortcut from the one table the key handler uses, and how to reach everything else.
import { useEffect, useRef } from 'react';
import { KEYBOARD_NOTES } from '../client/shortcuts';
import type { Shortcut } from '../client/shortcuts';

function Keys({ keys }: { keys: readonly string[] }) {
  return (
    <>
      {keys.map((k, i) => (
        <span key={k}>
          {i > 0 && ' '}
          <kbd>{k}</kbd>
        </span>
      ))}
    </>
  );
}

export function ShortcutSheet({ table, onClose }: { table: readonly Shortcut[]; onClose: () => void }) {
  const closeBtn = useRef<HTMLButtonElement>(null);
  useEffect(() => closeBtn.current?.focus(), []);
  return (
    <div className="sheet-backdrop" onClick={onClose} data-testid="shortcut-sheet">
      <div
        className="sheet"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        onClick={(e) => e.stopPropagation()}
      >
        <h2>Keyboard shortcuts</h2>
        <table>
          <tbody>
            {table.map((s) => (
              <tr key={s.keys.join(' ')}>
                <td style={{ width: 130, whiteSpace: 'nowrap' }}>
                  <Keys keys={s.keys} />
                </td>
                <td>{s.action.type === 'panel' ? `Open ${s.label}` : s.label}</td>
              </tr>
            ))}
            {KEYBOARD_NOTES.map((n) => (
              <tr key={n.keys.join(' ')}>
                <td>
                  <Keys keys={n.keys} />
                </td>
                <td className="dim">{n.label}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div style={{ textAlign: 'right', marginTop: 10 }}>
          <button type="button" className="btn small" ref={closeBtn} onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
