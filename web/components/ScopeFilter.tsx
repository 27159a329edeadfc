// Narrows the stream to one namespace and/or one controller (a server-side subscription), for big clusters
// where everything at once is too much to read. Aggregates then cover only what passes the filter.
import { useRef } from 'react';
import type { RuntimeView } from '../../shared/protocol/view';
import type { Subscription } from '../../shared/protocol/subscription';
import { useConnection } from '../client/hooks';

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
  for (const n of namespacesOf(view)) seen.current.ns.add(n);
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
