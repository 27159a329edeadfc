// The workload generator's controls: start a named churn profile at a rate, or stop it. The server answers;
// a refusal (read-only cluster, no generator) is shown as given.
import { useState } from 'react';
import { Card } from '../../components/Card';
import { NumberField, TextField } from '../../components/Field';
import { Badge } from '../../components/Stat';
import { useStoreState } from '../../client/hooks';
import { OutcomeNotice, useRunner } from './runner';

export function WorkloadPanel() {
  const profiles = useStoreState((s) => s.server?.capabilities.workloadProfiles);
  const current = useStoreState((s) => s.serverStatus?.workload);
  const [profile, setProfile] = useState('');
  const [rate, setRate] = useState(5);
  const [namespace, setNamespace] = useState('');
  const r = useRunner();
  const chosen = profile || profiles?.[0] || current?.profile || '';
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
              placeholder={current?.profile ?? 'profile name'}
            />
          )}
        </label>
        <NumberField label="objects / s" value={rate} onChange={setRate} width={90} />
        <TextField label="namespace" value={namespace} onChange={setNamespace} placeholder="default" width={120} />
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
