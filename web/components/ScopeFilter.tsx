// Narrows the stream to one namespace and/or one controller (a server-side subscription), for big clusters
// where everything at once is too much to read. Aggregates then cover only what passes the filter.
import { useMemo, useRef } from 'react';
import type { RuntimeView } from '../../shared/protocol/view';
import type { Subscription } from '../../shared/protocol/subscription';
import { useConnection, useThrottled } from '../client/hooks';

/**
 * How often the namespaces are looked for again. The shell re-renders many times a second under a busy
 * stream and finding them walks every queue key (10,000 for a controller on as many objects), while a new
 * namespace showing in the list a second late costs nothing.
 */
const NAMESPACE_SCAN_MS = 1000;

/** Namespaces seen in queue keys and pending deltas, sorted. */
export function namespacesOf(view: RuntimeView): string[] {
  const out = new Set<string>();
  const add = (key: string) => {
    const i = key.indexOf('/');
    if (i > 0) out.add(key.slice(0, i));
  };
  for (const c of Object.values(view.controllers)) for (const k of Object.keys(c.keys)) add(k);
  for (const inf of Object.values(view.informers)) for (const k of Object.keys(inf.pending)) add(k);
  return [...out].sort();
}

export function ScopeFilter({
  view,
  sub,
  serverControllers,
}: {
  view: RuntimeView;
  sub: Subscription | undefined;
  serverControllers?: readonly string[];
}) {
  const conn = useConnection();
  // A filtered view only holds what passes the filter: remember every choice seen so switching stays possible.
  const seen = useRef({ ns: new Set<string>(), ctrl: new Set<string>() });
  const scanned = useThrottled(view, NAMESPACE_SCAN_MS);
  const found = useMemo(() => namespacesOf(scanned), [scanned]);
  for (const n of found) seen.current.ns.add(n);
  for (const c of [...Object.keys(view.controllers), ...(serverControllers ?? [])]) seen.current.ctrl.add(c);
  const ns = sub?.namespaces?.[0] ?? '';
  const ctrl = sub?.controllers?.[0] ?? '';
  if (ns) seen.current.ns.add(ns);
  if (ctrl) seen.current.ctrl.add(ctrl);
  const namespaces = [...seen.current.ns].sort();
  const controllers = [...seen.current.ctrl].sort();
  const apply = (next: { ns: string; ctrl: string }) => {
    const s: Subscription = {};
    if (next.ns) s.namespaces = [next.ns];
    if (next.ctrl) s.controllers = [next.ctrl];
    void conn?.subscribe(s);
  };
  return (
    <span className="toolbar" style={{ fontSize: 12 }} data-testid="scope-filter">
      <span className="dim">scope</span>
      <select
        className="sel"
        value={ns}
        disabled={!conn}
        onChange={(e) => apply({ ns: e.target.value, ctrl })}
        title="namespace"
      >
        <option value="">all namespaces</option>
        {namespaces.map((n) => (
          <option key={n}>{n}</option>
        ))}
      </select>
      <select
        className="sel"
        value={ctrl}
        disabled={!conn}
        onChange={(e) => apply({ ns, ctrl: e.target.value })}
        title="controller"
      >
        <option value="">all controllers</option>
        {controllers.map((n) => (
          <option key={n}>{n}</option>
        ))}
      </select>
    </span>
  );
}
