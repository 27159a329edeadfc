// Two widgets, then a change of one's size: enough for the child to be created, recorded and updated.
import { Widget, widget, widgetCRD } from '../widget';

export const scenario = {
  prepare: [widgetCRD],
  steps: [
    { create: widget('a', { size: 1 }) },
    { create: widget('b', { size: 2 }) },
    {
      patch: { ...Widget, namespace: 'default', name: 'a', merge: { spec: { size: 3 } } },
    },
  ],
};
