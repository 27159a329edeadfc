// Two widgets walk through their phases one step at a time.
import { Widget, widget, widgetCRD } from '../widget';

const phase = (name: string, p: string) => ({
  patch: { ...Widget, namespace: 'default', name, merge: { spec: { phase: p } } },
});

export const scenario = {
  prepare: [widgetCRD],
  steps: [
    { create: widget('a') },
    phase('a', 'Pending'),
    phase('a', 'Ready'),
    { create: widget('b') },
    phase('b', 'Pending'),
    phase('b', 'Ready'),
  ],
};
