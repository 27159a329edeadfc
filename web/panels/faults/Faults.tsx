// Sandbox fault injection and workload controls. Everything goes through validated server commands; on a
// real cluster the server refuses (read-only unless --allow-writes) and its message is shown as given.
import { useState } from 'react';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { PageHead } from '../../components/PageHead';
import { NumberField, TextField } from '../../components/Field';
import { fmtCountdown } from '../../components/format';
import { useNow, useStoreState } from '../../client/hooks';
import { navigate } from '../../client/route';
import type { PanelProps } from '../types';
import { Effects } from './FaultEffects';
import { WorkloadPanel } from './WorkloadPanel';
import { DEFAULT_FAULT_FORM, FAULT_KINDS, buildFault } from './faults-series';
import type { FaultForm, FaultKind } from './faults-series';
import { OutcomeNotice, useRunner } from './runner';

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
        <TextField label="resource" value={f.resource} onChange={(v) => set('resource', v)} placeholder="all" />
        <TextField label="namespace" value={f.namespace} onChange={(v) => set('namespace', v)} placeholder="all" />
        <TextField
          label="verbs"
          value={f.verbs}
          onChange={(v) => set('verbs', v)}
          placeholder="all, or e.g. update,patch"
        />
        {f.kind === 'latency' && <NumberField label="latency (ms)" value={f.ms} onChange={(v) => set('ms', v)} />}
        {(f.kind === 'errors' || f.kind === 'conflicts') && (
          <NumberField label="share of requests (0–1)" step="0.05" value={f.rate} onChange={(v) => set('rate', v)} />
        )}
        {f.kind === 'errors' && <NumberField label="HTTP status" value={f.code} onChange={(v) => set('code', v)} />}
        <NumberField
          label="lift after (s, 0 = until cleared)"
          value={f.durationSec}
          onChange={(v) => set('durationSec', v)}
        />
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
      <DataTable rows={faults ?? []} empty="No fault active: the API server behaves normally.">
        {(x) => (
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
        )}
      </DataTable>
      <div style={{ padding: '0 10px 10px' }}>
        <OutcomeNotice o={r.outcome} />
      </div>
    </Card>
  );
}

export function Faults({ view }: PanelProps) {
  const server = useStoreState((s) => s.server);
  const writable = server?.cluster.writable ?? false;
  const replay = server?.mode === 'replay';
  return (
    <div className="page" data-testid="panel-faults">
      <PageHead
        title="Faults & workload"
        sub="make the API server misbehave on purpose, then watch the building blocks cope"
      />
      {replay ? (
        <div className="notice" data-testid="replay-notice">
          This is a replay of a recording: there is no API server to inject faults into or to run a workload against.
          The effects below are what the recording shows up to the replay&apos;s position.
        </div>
      ) : (
        <>
          {server && !writable && (
            <div className="notice err" data-testid="readonly-notice">
              Connected to a real cluster ({server.cluster.kind}
              {server.cluster.name ? ` “${server.cluster.name}”` : ''}) in read-only mode: the server will refuse faults
              and workload changes unless it was started with --allow-writes.
            </div>
          )}
          {server && !server.capabilities.faults && writable && (
            <div className="notice">This server does not offer fault injection (only the embedded sandbox does).</div>
          )}
          <div className="grid wide-left">
            <FaultPanel />
            <ActiveFaults />
          </div>
          <WorkloadPanel />
        </>
      )}
      <Effects view={view} recorded={replay} />
    </div>
  );
}
