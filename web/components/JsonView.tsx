// Pretty-printed JSON with keys, strings, numbers and literals coloured, as an object inspector shows it.
import type { ReactNode } from 'react';

const TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/** Splits pretty JSON into coloured spans; pure so it can be tested on its own. */
export function highlightJson(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let i = 0;
  for (const m of text.matchAll(TOKEN)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    if (m[1] !== undefined && m[2] !== undefined) {
      out.push(
        <span key={i++} className="j-key">
          {m[1]}
        </span>,
        m[2],
      );
    } else if (m[1] !== undefined) {
      out.push(
        <span key={i++} className="j-str">
          {m[1]}
        </span>,
      );
    } else if (m[3] !== undefined) {
      out.push(
        <span key={i++} className="j-lit">
          {m[3]}
        </span>,
      );
    } else {
      out.push(
        <span key={i++} className="j-num">
          {m[4]}
        </span>,
      );
    }
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function JsonView({ value }: { value: unknown }) {
  return <pre className="json">{highlightJson(JSON.stringify(value, null, 2))}</pre>;
}
