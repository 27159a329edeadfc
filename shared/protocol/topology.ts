// Which informers feed which controller: the links the Overview draws and the oracle checks. One process's
// controller is fed only by its own process's informers, which with several processes attached sit in the
// same lane as the controller.
import { laneName, splitLaneName } from './lanes';
import type { ControllerView, InformerView } from './view';

/**
 * The informers a controller consumes: its For() kind and every Owns / Watches kind it reported, any informer
 * that lists it as a handler, and every kind its handlers received events for. With several processes attached, a controller's names and kinds
 * are its process's own and its informers sit in the same lane, so the lookup goes through that lane.
 */
export function controllerSources(c: ControllerView, informers: readonly InformerView[]): string[] {
  const { lane, name } = splitLaneName(c.name);
  const ids = new Set(informers.map((i) => i.id));
  const out = new Set<string>();
  const add = (kind: string): void => {
    const id = laneName(lane, kind);
    if (ids.has(id)) out.add(id);
  };
  if (c.forKind) add(c.forKind);
  // The wiring the runtime reported: an Owns or Watches kind is a source before any event of it arrived.
  for (const s of c.sources ?? []) if (s.kind) add(s.kind);
  for (const inf of informers) {
    if (splitLaneName(inf.id).lane !== lane) continue;
    if (inf.handlers.some((h) => h === name || h.startsWith(`${name}/`) || h === c.name)) out.add(inf.id);
  }
  for (const w of c.watches ?? []) add(w);
  return [...out];
}
