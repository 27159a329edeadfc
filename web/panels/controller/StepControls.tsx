// Step mode: hold a controller's dispatching, release one key at a time, break on a key or on errors.
// A debugger for reconcile loops; the server answers every command, and its refusal is shown verbatim.
import { useState } from 'react';
import type { StepState } from '../../../shared/protocol/commands';
import { Card } from '../../components/Card';
import { Badge } from '../../components/Stat';
import { useCommand } from '../../components/useCommand';
import { useCapability, useStoreState } from '../../client/hooks';

export function StepControls({ controller, focusKey }: { controller: string; focusKey?: string }) {
  const cmd = useCommand<StepState>();
  const { run, busy, error, result } = cmd;
  const offered = useCapability('step');
  const available = cmd.available && offered !== false;
  const [bpKey, setBpKey] = useState('');
  const pushed = useStoreState((s) => s.serverStatus?.steppers[controller]);
  const answered = result && result.controller === controller ? result : undefined;
  // The server pushes stepper changes (a breakpoint firing) in its status; a command's answer may be newer.
  const state = answered ?? pushed;
  return (
    <Card
      title="Step mode"
      right={
        state ? (
          state.holding ? (
            <Badge tone="warn">holding · {state.held} held</Badge>
          ) : (
            <Badge tone="ok">running</Badge>
          )
        ) : (
          <span className="dim">debug one reconcile at a time</span>
        )
      }
      testId="step-controls"
    >
      <div className="toolbar">
        <button
          type="button"
          className="btn"
          disabled={!available || busy}
          onClick={() => run({ type: 'step.hold', controller })}
        >
          ❚❚ Hold
        </button>
        <button
          type="button"
          className="btn primary"
          disabled={!available || busy}
          onClick={() => run({ type: 'step.next', controller })}
        >
          ▶| Next key
        </button>
        <button
          type="button"
          className="btn"
          disabled={!available || busy}
          onClick={() => run({ type: 'step.resume', controller })}
        >
          ▶ Resume
        </button>
        <span className="sep" style={{ width: 1, height: 18, background: 'var(--line)' }} />
        <button
          type="button"
          className="btn"
          disabled={!available || busy}
          onClick={() => run({ type: 'step.breakpoint', controller, onError: true })}
        >
          Break on error
        </button>
        <input
          className="inp"
          placeholder={focusKey ?? 'namespace/name'}
          value={bpKey}
          onChange={(e) => setBpKey(e.target.value)}
          style={{ width: 170 }}
        />
        <button
          type="button"
          className="btn"
          disabled={!available || busy || !(bpKey || focusKey)}
          onClick={() => run({ type: 'step.breakpoint', controller, key: bpKey || focusKey })}
        >
          Break on key
        </button>
        {(focusKey || bpKey) && (
          <button
            type="button"
            className="btn"
            disabled={!available || busy}
            onClick={() => run({ type: 'requeue', controller, key: bpKey || (focusKey as string) })}
          >
            Requeue key
          </button>
        )}
      </div>
      {!cmd.available && (
        <p className="dim" style={{ margin: '8px 0 0', fontSize: 12 }}>
          Not connected to a server: commands are unavailable.
        </p>
      )}
      {cmd.available && offered === false && (
        <p className="dim" style={{ margin: '8px 0 0', fontSize: 12 }}>
          This server offers no step mode (a replay has no live controller to hold).
        </p>
      )}
      {error && (
        <div className="notice err" style={{ marginTop: 8 }} data-testid="command-error">
          {error}
        </div>
      )}
      {state && (
        <div className="dim" style={{ marginTop: 8, fontSize: 12 }}>
          breakpoints: {state.breakpoints.keys.length > 0 ? state.breakpoints.keys.join(', ') : 'no keys'}
          {state.breakpoints.onError ? ' · on error' : ''}
          {state.pausedAt && (
            <>
              {' '}
              ·{' '}
              <span className="warn">
                paused at {state.pausedAt.key} ({state.pausedAt.reason})
              </span>
            </>
          )}
        </div>
      )}
    </Card>
  );
}
