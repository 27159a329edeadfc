// The step debugger: hold a controller's dispatching, release one key at a time, run to a key, and pause on
// conditional breakpoints (key pattern, result, attempt), listed with their hits, toggled and removed. Every
// command changes the one controller every viewer watches, and the card says so before anything is clicked.
// A hold belongs to the viewer who set it: the card says who holds it, and another viewer's Hold, Next and
// Resume ask it to take over first.
import { useEffect, useState } from 'react';
import type { BreakOutcome, Command, StepState } from '../../../shared/protocol/commands';
import { Card } from '../../components/Card';
import { Badge } from '../../components/Stat';
import { useCommand } from '../../components/useCommand';
import { useCapability, useConnection, useStoreState } from '../../client/hooks';
import {
  breakpointList,
  currentStepState,
  describeBreakpoint,
  describeHolder,
  describeOwners,
  describePause,
  heldByOther,
  heldNow,
  lastStepText,
} from './step-state';

const WHEN: { value: '' | BreakOutcome; label: string }[] = [
  { value: '', label: 'before it reconciles' },
  { value: 'anyError', label: 'after any error' },
  { value: 'error', label: 'after error' },
  { value: 'terminalError', label: 'after terminalError' },
  { value: 'panic', label: 'after panic' },
  { value: 'requeue', label: 'after requeue' },
  { value: 'requeueAfter', label: 'after requeueAfter' },
  { value: 'success', label: 'after success' },
];

export function StepControls({ controller, focusKey }: { controller: string; focusKey?: string }) {
  const step = useCommand<StepState>();
  // A requeue answers {controller, key}: it has its own handle so its answer is never read as a StepState.
  const requeue = useCommand<{ controller: string; key: string }>();
  const offered = useCapability('step');
  const available = step.available && offered !== false;
  // The box is the one source of the key: a focused key is put in it (visible, editable), never used from
  // behind an empty box's placeholder, so an empty box means "any key" and says so.
  const [key, setKey] = useState(focusKey ?? '');
  useEffect(() => setKey(focusKey ?? ''), [focusKey]);
  const [when, setWhen] = useState<'' | BreakOutcome>('');
  const [minAttempt, setMinAttempt] = useState('');
  const [pin, setPin] = useState(false);
  const me = useConnection()?.viewerId();
  const pushed = useStoreState((s) => s.serverStatus?.steppers[controller]);
  const view = useStoreState((s) => s.view.controllers[controller]);
  const state = currentStepState(controller, pushed, step.result);
  const target = key.trim() || undefined;
  const disabled = !available || step.busy;
  const run = (cmd: Command) => void step.run(cmd);
  const attempt = minAttempt === '' ? undefined : Number(minAttempt);
  const attemptOk = attempt === undefined || (Number.isInteger(attempt) && attempt >= 1);
  const canAdd = attemptOk && (target !== undefined || when !== '' || attempt !== undefined);
  const list = state ? breakpointList(state) : [];
  const pause = state ? describePause(state) : undefined;
  const last = state ? lastStepText(state, view) : undefined;
  const holder = state ? describeHolder(state, me) : undefined;
  const other = heldByOther(state, me);
  const pinned = pin ? { pin: true } : {};
  return (
    <Card
      title="Step debugger"
      right={
        <span data-testid="step-badge">
          {state ? (
            state.holding ? (
              <Badge tone="warn">holding · {heldNow(state, view)} held</Badge>
            ) : (
              <Badge tone="ok">dispatching</Badge>
            )
          ) : (
            <span className="dim">debug one reconcile at a time</span>
          )}
        </span>
      }
      testId="step-controls"
    >
      <div className="notice warn" style={{ marginTop: 0, marginBottom: 8, fontSize: 12 }} data-testid="step-everyone">
        <b>You are changing the controller for everyone.</b> Hold, Next, Run to and breakpoints act on the running
        controller “{controller}” itself: every viewer sees it held, and keys wait in its queue until released.
      </div>
      <div className="toolbar">
        <button
          type="button"
          className="btn"
          disabled={disabled}
          onClick={() => run({ type: 'step.hold', controller, ...pinned })}
          title={pin ? 'Hold, and keep holding if you leave' : 'Hold; released when you leave'}
        >
          ❚❚ Hold
        </button>
        <button
          type="button"
          className="btn primary"
          disabled={disabled}
          onClick={() => run({ type: 'step.next', controller })}
          title="Let exactly one key through to a worker"
        >
          ▶| Next key
        </button>
        <button
          type="button"
          className="btn"
          disabled={disabled}
          onClick={() => run({ type: 'step.resume', controller })}
          title="Dispatch freely again; breakpoints stay armed"
        >
          ▶ Resume
        </button>
        {other && (
          <button
            type="button"
            className="btn danger"
            disabled={disabled}
            data-testid="step-take-over"
            onClick={() => run({ type: 'step.hold', controller, takeOver: true, ...pinned })}
            title="Become this controller's holder: then Next and Resume are yours"
          >
            ⇄ Take over
          </button>
        )}
        <label className="dim" style={{ fontSize: 12 }} title="Holds and breakpoints you set stay when you leave">
          <input type="checkbox" checked={pin} onChange={(e) => setPin(e.target.checked)} data-testid="step-pin" /> keep
          after I leave
        </label>
        <span className="sep" style={{ width: 1, height: 18, background: 'var(--line)' }} />
        <input
          className="inp"
          placeholder="namespace/name or ns/web-*"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          style={{ width: 190 }}
          aria-label="key or key pattern"
          data-testid="step-key"
        />
        <button
          type="button"
          className="btn"
          disabled={disabled || !target || target.includes('*')}
          onClick={() => target && run({ type: 'step.runTo', controller, key: target })}
          title="Resume, and hold this key when it is next about to reconcile"
        >
          ⇥ Run to key
        </button>
        <button
          type="button"
          className="btn"
          disabled={!requeue.available || requeue.busy || !target || target.includes('*')}
          onClick={() => target && void requeue.run({ type: 'requeue', controller, key: target })}
          title="Add this key to the queue now (cause: manual)"
        >
          Requeue key
        </button>
      </div>
      <div className="toolbar" style={{ marginTop: 8 }}>
        <span className="dim">Break</span>
        <select
          className="inp"
          value={when}
          onChange={(e) => setWhen(e.target.value as '' | BreakOutcome)}
          aria-label="when to break"
          data-testid="bp-when"
        >
          {WHEN.map((w) => (
            <option key={w.value} value={w.value}>
              {w.label}
            </option>
          ))}
        </select>
        <span className="dim">for {target ? <span className="mono">{target}</span> : 'any key'}, attempt ≥</span>
        <input
          className="inp"
          inputMode="numeric"
          placeholder="1"
          value={minAttempt}
          onChange={(e) => setMinAttempt(e.target.value.trim())}
          style={{ width: 48 }}
          aria-label="minimum attempt"
          aria-invalid={!attemptOk}
          data-testid="bp-attempt"
        />
        <button
          type="button"
          className="btn"
          disabled={disabled || !canAdd}
          data-testid="bp-add"
          onClick={() =>
            run({
              type: 'step.breakpoint',
              controller,
              ...(target ? { key: target } : {}),
              ...(when ? { outcome: when } : {}),
              ...(attempt !== undefined ? { minAttempt: attempt } : {}),
              ...pinned,
            })
          }
        >
          + Add breakpoint
        </button>
        <button
          type="button"
          className="btn"
          disabled={disabled}
          onClick={() => run({ type: 'step.breakpoint', controller, outcome: 'anyError', ...pinned })}
        >
          Break on error
        </button>
      </div>
      {!step.available && (
        <p className="dim" style={{ margin: '8px 0 0', fontSize: 12 }}>
          Not connected to a server: commands are unavailable.
        </p>
      )}
      {step.available && offered === false && (
        <p className="dim" style={{ margin: '8px 0 0', fontSize: 12 }}>
          This server offers no step mode (a replay has no live controller to hold).
        </p>
      )}
      {(step.error ?? requeue.error) && (
        <div className="notice err" style={{ marginTop: 8 }} data-testid="command-error">
          {step.error ?? requeue.error}
        </div>
      )}
      {requeue.result && !requeue.error && (
        <div className="dim" style={{ marginTop: 8, fontSize: 12 }}>
          Requeued {requeue.result.key} (cause manual).
        </div>
      )}
      {holder && (
        <div className={other ? 'notice warn' : 'dim'} style={{ marginTop: 8, fontSize: 12 }} data-testid="step-holder">
          {holder}
        </div>
      )}
      {pause && (
        <div className="warn" style={{ marginTop: 8, fontSize: 12 }} data-testid="step-paused">
          {pause}
        </div>
      )}
      {last && (
        <div style={{ marginTop: 6, fontSize: 12 }} data-testid="step-last">
          {last}
        </div>
      )}
      {state && (
        <table className="data" style={{ marginTop: 8 }} data-testid="breakpoints">
          <thead>
            <tr>
              <th>on</th>
              <th>breakpoint</th>
              <th>set by</th>
              <th className="r">hits</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.length === 0 && (
              <tr>
                <td colSpan={5} className="dim">
                  No breakpoint. Add one above: a key or pattern, a result, an attempt.
                </td>
              </tr>
            )}
            {list.map((bp, i) => (
              <tr key={bp.id || i} className={bp.enabled ? undefined : 'faint'}>
                <td>
                  <input
                    type="checkbox"
                    checked={bp.enabled}
                    disabled={disabled || !bp.id}
                    aria-label={`enable ${describeBreakpoint(bp)}`}
                    onChange={(e) => run({ type: 'step.breakpoint', controller, id: bp.id, enabled: e.target.checked })}
                  />
                </td>
                <td className="mono">
                  {bp.id && <span className="dim">{bp.id} </span>}
                  {describeBreakpoint(bp)}
                </td>
                <td className="dim">{describeOwners(bp.owners, me)}</td>
                <td className="r num">{bp.hits}</td>
                <td className="r">
                  <button
                    type="button"
                    className="btn small"
                    disabled={disabled || !bp.id}
                    aria-label={`remove ${describeBreakpoint(bp)}`}
                    onClick={() => run({ type: 'step.breakpoint', controller, id: bp.id, remove: true })}
                  >
                    ✕ Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
