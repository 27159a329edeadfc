// Actions on the traced key: enqueue it now (cause "manual") or break before its next reconcile. The server
// answers each one; a refusal (e.g. no step mode on this server) is shown as given.
import type { StepState } from '../../../shared/protocol/commands';
import { useCommand } from '../../components/useCommand';
import { useCapability } from '../../client/hooks';

export function KeyActions({ controller, objectKey }: { controller: string; objectKey: string }) {
  const { run, busy, error, result, available } = useCommand<StepState | { key: string }>();
  const canRequeue = useCapability('requeue') !== false;
  const canStep = useCapability('step') !== false;
  if (!canRequeue && !canStep) return null;
  return (
    <span className="toolbar" data-testid="key-actions">
      <button
        type="button"
        className="btn small"
        disabled={!available || busy || !canRequeue}
        onClick={() => void run({ type: 'requeue', controller, key: objectKey })}
        title="Add this key to the queue now, with cause “manual”"
      >
        Requeue now
      </button>
      <button
        type="button"
        className="btn small"
        disabled={!available || busy || !canStep}
        onClick={() => void run({ type: 'step.breakpoint', controller, key: objectKey })}
        title="Hold the controller before this key is next dispatched to a worker"
      >
        Break before next reconcile
      </button>
      {error && (
        <span className="err" style={{ fontSize: 12 }}>
          {error}
        </span>
      )}
      {!error && result && (
        <span className="ok" style={{ fontSize: 12 }}>
          done
        </span>
      )}
    </span>
  );
}
