// Sandbox fault injection and workload controls. Everything goes through validated server commands; on a
// real cluster the server refuses (read-only unless --allow-writes) and its message is shown as given.
import { useState } from 'react';
import type { Command } from '../../../shared/protocol/commands';
import { Card, Empty } from '../../components/Card';
import type { RuntimeView } from '../../../shared/protocol/view';
import { Badge, Stat, Stats } from '../../components/Stat';
import { fmtCount, fmtCountdown } from '../../components/format';
import type { PanelProps } from '../types';
import { useConnection, useNow, useStoreState } from '../../client/hooks';
import { navigate } from '../../client/route';
import { DEFAULT_FAULT_FORM, FAULT_KINDS, buildFault } from './faults-series';
import type { FaultForm, FaultKind } from './faults-series';

type Outcome = { ok: true; text: string } | { ok: false; text: string };

function useRunner(): {
  run: (cmd: Command, ok: (r: unknown) => string) => Promise<void>;
  outcome?: Outcome;
  busy: boolean;
  can: boolean;
} {
  const conn = useConnection();
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [busy, setBusy] = useState(false);
  const run = async (cmd: Command, ok: (r: unknown) => string) => {
    if (!conn) return;
    setBusy(true);
    const ack = await conn.command(cmd);
    setBusy(false);
    setOutcome(ack.ok ? { ok: true, text: ok(ack.result) } : { ok: false, text: ack.error });
  };
  const r: { run: typeof run; outcome?: Outcome; busy: boolean; can: boolean } = {
    run,
    busy,
    can: conn !== null && conn.canSend(),
  };
  if (outcome) r.outcome = outcome;
  return r;
}

function OutcomeNotice({ o }: { o?: Outcome }) {
  if (!o) return null;
  return (
    <div
      className={`notice ${o.ok ? 'ok' : 'err'}`}
      style={{ marginTop: 10 }}
      data-testid={o.ok ? 'command-ok' : 'command-error'}
    >
      {o.ok ? o.text : <>Refused by the server: {o.text}</>}
    </div>
  );
}

function FaultPanel() {
  const [f, setF] = useState<FaultForm>(DEFAULT_FAULT_FORM);
  const [formError, setFormError] = useState<string | undefined>();
  const r = useRunner();
  const spec = FAULT_KINDS.find((k) => k.kind === f.kind);
  const set = <K extends keyof FaultForm>(k: K, v: FaultForm[K]) => setF((x) => ({ ...x, [k]: v }));
  const inject = () => {
    const built = buildFault(f);
    if ('error' in built) {
      setFormError(built.error);
      return;
    }
    setFormError(undefined);
    void r.run(
      { type: 'fault.inject', fault: built.fault, ...(built.durationMs ? { durationMs: built.durationMs } : {}) },
      (res) => {
        const id = (res as { id?: string }).id;
        return `Injected ${spec?.label ?? f.kind}${id ? ` (id ${id})` : ''}. Watch the ${spec?.watch ?? 'overview'} panel.`;
      },
    );
  };
  return (
    <Card title="Inject a fault" testId="fault-form">
      <div className="grid" style={{ gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))' }}>
        <label className="field">
          fault
          <select
            className="sel"
            value={f.kind}
            onChange={(e) => set('kind', e.target.value as FaultKind)}
            data-testid="fault-kind"
          >
            {FAULT_KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          resource
          <input
            className="inp"
            value={f.resource}
            onChange={(e) => set('resource', e.target.value)}
            placeholder="all"
          />
        </label>
        <label className="field">
          namespace
          <input
            className="inp"
            value={f.namespace}
            onChange={(e) => set('namespace', e.target.value)}
            placeholder="all"
          />
        </label>
        <label className="field">
          verbs
          <input
            className="inp"
            value={f.verbs}
            onChange={(e) => set('verbs', e.target.value)}
            placeholder="all, or e.g. update,patch"
          />
        </label>
        {f.kind === 'latency' && (
          <label className="field">
            latency (ms)
            <input className="inp" type="number" value={f.ms} onChange={(e) => set('ms', Number(e.target.value))} />
          </label>
        )}
        {(f.kind === 'errors' || f.kind === 'conflicts') && (
          <label className="field">
            share of requests (0–1)
            <input
              className="inp"
              type="number"
              step="0.05"
              value={f.rate}
              onChange={(e) => set('rate', Number(e.target.value))}
            />
          </label>
        )}
        {f.kind === 'errors' && (
          <label className="field">
            HTTP status
            <input className="inp" type="number" value={f.code} onChange={(e) => set('code', Number(e.target.value))} />
          </label>
        )}
        <label className="field">
          lift after (s, 0 = until cleared)
          <input
            className="inp"
            type="number"
            value={f.durationSec}
            onChange={(e) => set('durationSec', Number(e.target.value))}
          />
        </label>
      </div>
      {spec && (
        <p className="dim" style={{ margin: '10px 0', fontSize: 12 }}>
          {spec.effect}{' '}
          <a href="#" onClick={(e) => (e.preventDefault(), navigate({ panel: spec.watch as 'reflector' }))}>
            Open {spec.watch}
          </a>
        </p>
      )}
      <div className="toolbar">
        <button
          type="button"
          className="btn danger"
          disabled={!r.can || r.busy}
          onClick={inject}
          data-testid="fault-inject"
        >
          Inject
        </button>
        {!r.can && <span className="dim">Not connected: commands are unavailable.</span>}
      </div>
      {formError && (
        <div className="notice err" style={{ marginTop: 10 }}>
          {formError}
        </div>
      )}
      <OutcomeNotice o={r.outcome} />
    </Card>
  );
}

function ActiveFaults() {
  const faults = useStoreState((s) => s.serverStatus?.faults);
  const now = useNow(500);
  const r = useRunner();
  return (
    <Card
      title="Active faults"
      right={
        <button
          type="button"
          className="btn small"
          disabled={!r.can || r.busy || !faults?.length}
          onClick={() =>
            void r.run({ type: 'fault.clear' }, (x) => `Cleared ${(x as { cleared?: number }).cleared ?? 0} fault(s).`)
          }
        >
          clear all
        </button>
      }
      flush
    >
      {!faults || faults.length === 0 ? (
        <Empty>No fault active: the API server behaves normally.</Empty>
      ) : (
        <table className="data">
          <tbody>
            {faults.map((x) => (
              <tr key={x.id}>
                <td className="mono dim">{x.id}</td>
                <td className="wrap">{x.description}</td>
                <td className="num">{x.until ? `lifts ${fmtCountdown(x.until, now)}` : 'until cleared'}</td>
                <td className="r">
                  <button
                    type="button"
                    className="btn small"
                    disabled={!r.can || r.busy}
                    onClick={() => void r.run({ type: 'fault.clear', id: x.id }, () => `Cleared ${x.id}.`)}
                  >
                    clear
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div style={{ padding: '0 10px 10px' }}>
        <OutcomeNotice o={r.outcome} />
      </div>
    </Card>
  );
}

function WorkloadPanel() {
  const profiles = useStoreState((s) => s.server?.capabilities.workloadProfiles);
  const current = useStoreState((s) => s.serverStatus?.workload);
  const [profile, setProfile] = useState('');
  const [rate, setRate] = useState(5);
  const [namespace, setNamespace] = useState('');
  const r = useRunner();
  const chosen = profile || profiles?.[0] || '';
  return (
    <Card
      title="Workload"
      right={
        current ? (
          <Badge tone="ok">
            {current.profile}
            {current.ratePerSecond ? ` · ${current.ratePerSecond}/s` : ''}
          </Badge>
        ) : (
          <Badge tone="muted">idle</Badge>
        )
      }
      testId="workload"
    >
      <div className="toolbar">
        <label className="field">
          profile
          {profiles && profiles.length > 0 ? (
            <select className="sel" value={chosen} onChange={(e) => setProfile(e.target.value)}>
              {profiles.map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
          ) : (
            <input
              className="inp"
              value={profile}
              onChange={(e) => setProfile(e.target.value)}
              placeholder="profile name"
            />
          )}
        </label>
        <label className="field">
          objects / s
          <input
            className="inp"
            type="number"
            value={rate}
            onChange={(e) => setRate(Number(e.target.value))}
            style={{ width: 90 }}
          />
        </label>
        <label className="field">
          namespace
          <input
            className="inp"
            value={namespace}
            onChange={(e) => setNamespace(e.target.value)}
            placeholder="default"
            style={{ width: 120 }}
          />
        </label>
        <button
          type="button"
          className="btn primary"
          style={{ alignSelf: 'flex-end' }}
          disabled={!r.can || r.busy || !chosen}
          onClick={() =>
            void r.run(
              {
                type: 'workload.set',
                profile: chosen,
                ...(rate > 0 ? { ratePerSecond: rate } : {}),
                ...(namespace ? { namespace } : {}),
              },
              () => `Workload “${chosen}” running.`,
            )
          }
          data-testid="workload-start"
        >
          Start
        </button>
        <button
          type="button"
          className="btn"
          style={{ alignSelf: 'flex-end' }}
          disabled={!r.can || r.busy}
          onClick={() => void r.run({ type: 'workload.stop' }, () => 'Workload stopped.')}
        >
          Stop
        </button>
      </div>
      <p className="dim" style={{ margin: '10px 0 0', fontSize: 12 }}>
        Creates, updates and deletes objects at the given rate so the informers, queues and reconcilers have something
        to do.
      </p>
      <OutcomeNotice o={r.outcome} />
    </Card>
  );
}

/** The counters a fault moves, summed over every informer and controller, so its effect shows right here. */
function Effects({ view }: { view: RuntimeView }) {
  const infs = Object.values(view.informers);
  const ctrls = Object.values(view.controllers);
  const sum = <T,>(xs: T[], f: (x: T) => number) => xs.reduce((s, x) => s + f(x), 0);
  return (
    <Card
      title="Effects, live"
      right={<span className="dim">all informers and controllers</span>}
      testId="fault-effects"
    >
      <Stats>
        <Stat label="410 Expired" value={fmtCount(sum(infs, (i) => i.counters.expired))} />
        <Stat label="Relists" value={fmtCount(sum(infs, (i) => i.counters.relists))} />
        <Stat label="Backoffs" value={fmtCount(sum(infs, (i) => i.counters.backoffs))} />
        <Stat label="Watch errors" value={fmtCount(sum(infs, (i) => i.counters.errors))} />
        <Stat label="Reconcile errors" value={fmtCount(sum(ctrls, (c) => c.reconciles.error + c.reconciles.panic))} />
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

export function Faults({ view }: PanelProps) {
  const server = useStoreState((s) => s.server);
  const writable = server?.cluster.writable ?? false;
  return (
    <div className="page" data-testid="panel-faults">
      <div className="page-head">
        <h1>Faults & workload</h1>
        <span className="sub">make the API server misbehave on purpose, then watch the building blocks cope</span>
      </div>
      {server && !writable && (
        <div className="notice err" data-testid="readonly-notice">
          Connected to a real cluster ({server.cluster.kind}
          {server.cluster.name ? ` “${server.cluster.name}”` : ''}) in read-only mode: the server will refuse faults and
          workload changes unless it was started with --allow-writes.
        </div>
      )}
      {server && !server.capabilities.faults && (
        <div className="notice">This server does not offer fault injection (only the embedded sandbox does).</div>
      )}
      <div className="grid wide-left">
        <FaultPanel />
        <ActiveFaults />
      </div>
      <WorkloadPanel />
      <Effects view={view} />
    </div>
  );
}
