// What faults do, and the live counters they move, so the effect of an injection shows on the same page.
import { failedReconciles } from '../../../shared/protocol/reconcile-outcomes';
import type { RuntimeView } from '../../../shared/protocol/view';
import { Card } from '../../components/Card';
import { Stat, Stats } from '../../components/Stat';
import { fmtCount } from '../../components/format';
import { FAULT_KINDS } from './faults-series';

/** The counters a fault moves, summed over every informer and controller, so its effect shows right here. */
export function Effects({ view, recorded = false }: { view: RuntimeView; recorded?: boolean }) {
  const infs = Object.values(view.informers);
  const ctrls = Object.values(view.controllers);
  const sum = <T,>(xs: T[], f: (x: T) => number) => xs.reduce((s, x) => s + f(x), 0);
  return (
    <Card
      title={recorded ? 'Effects, as recorded' : 'Effects, live'}
      right={<span className="dim">all informers and controllers</span>}
      testId="fault-effects"
    >
      <Stats>
        <Stat label="410 Expired" value={fmtCount(sum(infs, (i) => i.counters.expired))} />
        <Stat label="Relists" value={fmtCount(sum(infs, (i) => i.counters.relists))} />
        <Stat label="Backoffs" value={fmtCount(sum(infs, (i) => i.counters.backoffs))} />
        <Stat label="Watch errors" value={fmtCount(sum(infs, (i) => i.counters.errors))} />
        <Stat label="Reconcile errors" value={fmtCount(sum(ctrls, (c) => failedReconciles(c.reconciles)))} />
        <Stat label="Retries" value={fmtCount(sum(ctrls, (c) => c.retries))} />
        <Stat label="409 Conflicts" value={fmtCount(sum(ctrls, (c) => c.client.conflicts))} />
        <Stat label="Keys waiting" value={fmtCount(sum(ctrls, (c) => c.depth.waiting))} />
      </Stats>
      <table className="data" style={{ marginTop: 10 }}>
        <thead>
          <tr>
            <th>fault</th>
            <th>what the building blocks do about it</th>
          </tr>
        </thead>
        <tbody>
          {FAULT_KINDS.map((k) => (
            <tr key={k.kind}>
              <td>{k.label}</td>
              <td className="wrap dim">{k.effect}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
