// A widget, two changes of its size, and a second widget.
import { Widget, widget, widgetCRD } from '../widget';

const resize = (name: string, size: number) => ({
  patch: { ...Widget, namespace: 'default', name, merge: { spec: { size } } },
});

export const scenario = {
  prepare: [widgetCRD],
  steps: [{ create: widget('a', { size: 1 }) }, resize('a', 2), { create: widget('b', { size: 5 }) }, resize('a', 3)],
};
