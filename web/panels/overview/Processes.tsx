// Managers and leases, per process: with replicas attached, which one leads, which stand by, which are
// gone — derived from each process's connection (shared/protocol/liveness.ts), never from a lease's last
// report alone, so a killed leader reads "gone" at once instead of "acquired" until another takes over.
import { attachedSummary, replicaRoles } from '../../../shared/protocol/liveness';
import type { ManagerView, RuntimeView } from '../../../shared/protocol/view';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { Badge, Stat } from '../../components/Stat';
import type { Tone } from '../../components/Stat';
import { fmtClock } from '../../components/format';

const ROLE_TONE: Record<string, Tone> = { leader: 'ok', standby: 'muted', gone: 'err' };

/** The manager's phase; with processes attached, how many managers are running and how many are gone. */
export function ManagersStat({ view }: { view: RuntimeView }) {
  const { processes, gone } = attachedSummary(view);
  if (processes.length === 0) {
    if (!view.manager) return null;
    return <Stat label="Manager" value={view.manager.phase} tone={managerTone(view.manager)} hint={leaseHint(view)} />;
  }
  const running = processes.filter((p) => p.state === 'connected' && p.manager?.phase === 'started').length;
  return (
    <Stat
      label={processes.length === 1 ? 'Manager' : 'Managers'}
      value={
        processes.length === 1
          ? gone
            ? 'gone'
            : (processes[0]?.manager?.phase ?? 'unknown')
          : `${running}/${processes.length}`
      }
      tone={gone > 0 ? 'err' : running === processes.length ? 'ok' : undefined}
      hint={processes
        .map((p) => `${p.process}: ${p.state === 'gone' ? 'gone' : (p.manager?.phase ?? 'unknown')}`)
        .join(' · ')}
    />
  );
}

function managerTone(m: ManagerView): Tone | undefined {
  return m.error ? 'err' : m.phase === 'started' ? 'ok' : undefined;
}

function leaseHint(view: RuntimeView): string {
  const leases = Object.values(view.leaders);
  if (leases.length === 0) return 'no leader election';
  return leases
    .map((l) => {
      const leader = replicaRoles(view, l).find((r) => r.role === 'leader');
      return `lease ${l.lease}: ${leader ? `led by ${leader.replica.identity}` : 'no live leader'}`;
    })
    .join(' · ');
}

/** Every lease with each replica's role. */
export function Leases({ view }: { view: RuntimeView }) {
  const leases = Object.values(view.leaders).filter((l) => l.replicas && Object.keys(l.replicas).length > 0);
  if (leases.length === 0) return null;
  return (
    <>
      {leases.map((l) => {
        const roles = replicaRoles(view, l);
        const leader = roles.find((r) => r.role === 'leader');
        return (
          <Card
            key={l.lease}
            title={`Lease ${l.lease}`}
            right={<span className="dim">{leader ? `led by ${leader.replica.identity}` : 'no live leader'}</span>}
            testId="lease"
            flush
          >
            <DataTable
              rows={roles}
              head={
                <>
                  <th>replica</th>
                  <th>role</th>
                  <th>why</th>
                  <th>since</th>
                </>
              }
            >
              {(r) => (
                <tr key={r.replica.identity} data-testid={`replica-${r.replica.identity}`}>
                  <td className="mono">{r.replica.identity}</td>
                  <td>
                    <Badge tone={ROLE_TONE[r.role]}>{r.role}</Badge>
                  </td>
                  <td className="dim">{r.detail}</td>
                  <td className="num dim">{fmtClock(r.replica.since)}</td>
                </tr>
              )}
            </DataTable>
          </Card>
        );
      })}
    </>
  );
}
