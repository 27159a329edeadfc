// Attached processes that passed one of the dashboard's limits (shared/protocol/bridge-limits.ts): what was
// dropped and why, so a capped view never reads as a complete one.
import { BRIDGE_DROP_CAUSES, describeDrop } from '../../shared/protocol/bridge-limits';
import { attachedSummary } from '../../shared/protocol/liveness';
import type { RuntimeView } from '../../shared/protocol/view';

export function ProcessLimitsBanner({ view }: { view: RuntimeView }) {
  const lines = attachedSummary(view).processes.flatMap((p) =>
    BRIDGE_DROP_CAUSES.flatMap((cause) => {
      const n = p.drops?.[cause] ?? 0;
      return n > 0 ? [{ key: `${p.process} ${cause}`, text: describeDrop(p.process, n, cause) }] : [];
    }),
  );
  if (lines.length === 0) return null;
  return (
    <div className="banner warn" role="status" data-testid="process-limits">
      {lines.map((l) => (
        <div key={l.key}>{l.text}.</div>
      ))}
    </div>
  );
}
