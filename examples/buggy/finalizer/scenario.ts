// Two widgets, one of them deleted: its finalizer must run and then let it go.
import { Widget, widget, widgetCRD } from '../widget';

export const scenario = {
  prepare: [widgetCRD],
  steps: [
    { create: widget('a', { size: 1 }) },
    { create: widget('b', { size: 2 }) },
    { delete: { ...Widget, namespace: 'default', name: 'a' } },
  ],
};
