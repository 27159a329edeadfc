// A controller held in step mode is held for every viewer: say so above every panel and in the top bar, so
// nobody reads a quiet queue as a healthy one. The counts come from the live view, which moves on between
// status pushes.
import type { StepState } from '../../shared/protocol/commands';
import type { RuntimeView } from '../../shared/protocol/view';
import type { StoreState } from '../client/runtime-store';
import { navigate } from '../client/route';
import { describePause, heldNow } from '../panels/controller/step-state';

export function heldControllers(state: StoreState): StepState[] {
  const steppers = state.serverStatus?.steppers;
  if (!steppers) return [];
  return Object.values(steppers).filter((s) => s.holding);
}

export function HeldPill({ held, view }: { held: StepState[]; view: RuntimeView }) {
  if (held.length === 0) return null;
  const first = held[0] as StepState;
  return (
    <button
      type="button"
      className="btn small held-pill"
      data-testid="held-pill"
      title="Step mode holds these controllers for every viewer. Click to open the step debugger."
      onClick={() => navigate({ panel: 'controller', controller: first.controller })}
    >
      <span className="warn">❚❚ HELD</span>{' '}
      {held.map((s) => `${s.controller} (${heldNow(s, view.controllers[s.controller])})`).join(', ')}
    </button>
  );
}

export function HeldBanner({ held, view }: { held: StepState[]; view: RuntimeView }) {
  if (held.length === 0) return null;
  return (
    <div className="banner warn" role="status" data-testid="held-banner">
      <span>
        {held.map((s, i) => (
          <span key={s.controller}>
            {i > 0 && ' · '}
            Controller <b>“{s.controller}”</b> is held in step mode for everyone ({describePause(s)}):{' '}
            {heldNow(s, view.controllers[s.controller])} keys wait for Next or Resume.
          </span>
        ))}
      </span>
      <button
        type="button"
        className="btn small"
        onClick={() => navigate({ panel: 'controller', controller: (held[0] as StepState).controller })}
      >
        Open the step debugger
      </button>
    </div>
  );
}
