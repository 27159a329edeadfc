// Adapts a runtime controller's step gate (its Stepper: hold, release one, breakpoints) to the dashboard's
// ControllerStepper port, whose answers are shared/protocol's StepState. The runtime keeps its own shape;
// this is the one place that translates it for the wire.
import type { StepState } from '../../shared/protocol/commands';
import type { Controller, StepperState } from '../runtime';
import type { ControllerStepper } from './transport/ports';

export function stepPort(controller: Controller): Required<ControllerStepper> {
  const s = controller.stepper;
  const view = (st: StepperState = s.state()): StepState => ({
    controller: controller.name,
    holding: st.stepMode,
    // Ready keys stay in the queue while holding; that is what step mode holds back.
    held: st.stepMode ? (controller.getQueue()?.len() ?? 0) + st.held.length : 0,
    breakpoints: {
      keys: st.breakpoints.filter((b) => b.key !== undefined && b.outcome === undefined).map((b) => b.key as string),
      onError: st.breakpoints.some((b) => b.outcome === 'anyError'),
    },
    list: st.breakpoints,
    holders: st.holders,
    ...(st.lastReleased ? { lastReleased: st.lastReleased } : {}),
    ...(st.pausedAt ? { pausedAt: st.pausedAt } : {}),
  });
  return {
    hold: () => (s.enableStepMode(), view()),
    next: () => {
      const released = s.stepOne();
      return { ...view(), ...(released !== undefined ? { released } : {}) };
    },
    resume: () => (s.disableStepMode(), view()),
    setBreakpoint: (bp, remove) => {
      const { id, enabled, ...spec } = bp;
      if (id !== undefined) {
        const found = remove ? s.removeBreakpointById(id) : enabled !== undefined && s.enableBreakpoint(id, enabled);
        if (!found) {
          throw new Error(
            remove || enabled !== undefined
              ? `controller ${controller.name} has no breakpoint "${id}" (it may have fired once and gone)`
              : 'a breakpoint id needs remove or enabled',
          );
        }
      } else if (remove) s.removeBreakpoint(spec);
      else s.setBreakpoint(spec);
      return view();
    },
    runTo: (key) => (s.runTo(key), view()),
    state: () => view(),
    onChange: (listener) => s.onChange((st) => listener(view(st))),
  };
}
