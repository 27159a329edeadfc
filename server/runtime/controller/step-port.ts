// Adapts a controller's Stepper to the dashboard's ControllerStepper port (hold / next / resume /
// setBreakpoint / state over shared/protocol's StepState). No upstream counterpart.
import type { StepState } from '../../../shared/protocol/commands';
import type { Controller } from './controller';
import type { Breakpoint, StepperState } from './stepper';

export interface StepPort {
  hold(): StepState;
  next(): StepState & { released?: string };
  resume(): StepState;
  setBreakpoint(bp: Breakpoint, remove: boolean): StepState;
  state(): StepState;
  onChange(listener: (state: StepState) => void): () => void;
}

export function stepPort(controller: Controller): StepPort {
  const s = controller.stepper;
  const view = (st: StepperState = s.state()): StepState => ({
    controller: controller.name,
    holding: st.stepMode,
    // Ready keys stay in the queue while holding; that is what step mode holds back.
    held: st.stepMode ? (controller.getQueue()?.len() ?? 0) + st.held.length : 0,
    breakpoints: {
      keys: st.breakpoints.filter((b) => b.key !== undefined).map((b) => b.key as string),
      onError: st.breakpoints.some((b) => b.onError),
    },
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
      if (remove) s.removeBreakpoint(bp);
      else s.setBreakpoint(bp);
      return view();
    },
    state: () => view(),
    onChange: (listener) => s.onChange((st) => listener(view(st))),
  };
}
