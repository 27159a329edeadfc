// The runtime implements the dashboard's ports structurally (it may not import server/dashboard); these
// assignments make the type checker hold the two sides together.
import { describe, expect, it } from 'vitest';
import type { StepPort } from '../../runtime/controller/step-port';
import type { ControllerStepper } from './ports';

describe('ports', () => {
  it("the controller's StepPort is a ControllerStepper", () => {
    const fromRuntime = (p: StepPort): ControllerStepper => p;
    expect(typeof fromRuntime).toBe('function');
  });
});
