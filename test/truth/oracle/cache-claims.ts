// What the view says an informer's cache holds, against the API server at a quiet moment: its size on the
// Overview and the Indexer, and the keys the cache browser lists.
import { splitLaneName } from '../../../shared/protocol/lanes';
import { partLiveness } from '../../../shared/protocol/liveness';
import type { RuntimeView } from '../../../shared/protocol/view';
import type { OracleTarget } from '../harness/target';
import type { FalseClaim } from './claims';

const KINDS = { 'v1/ConfigMap': 'configMaps', 'v1/Secret': 'secrets' } as const;

export async function checkCaches(
  view: RuntimeView,
  target: OracleTarget,
  server: { configMaps: number; secrets: number },
): Promise<FalseClaim[]> {
  const out: FalseClaim[] = [];
  for (const inf of Object.values(view.informers)) {
    const kind = splitLaneName(inf.id).name as keyof typeof KINDS;
    if (!(kind in KINDS) || partLiveness(view, inf).state !== 'alive' || !inf.synced) continue;
    const want = server[KINDS[kind]];
    if (inf.storeSize !== want)
      out.push({
        claim: `${inf.id} caches ${inf.storeSize} objects`,
        truth: `the API server holds ${want}`,
        where: inf.id,
      });
    const keys = await target.cacheKeys(inf.id);
    if (keys !== undefined && keys.length !== want)
      out.push({
        claim: `${inf.id}'s cache browser lists ${keys.length} keys`,
        truth: `the API server holds ${want}`,
        where: inf.id,
      });
  }
  return out;
}
