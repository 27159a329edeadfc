// Each widget gets a claim right after it is created; deleting a widget must take its claim with it.
import { ConfigMap, WIDGET_LABEL, Widget, widget, widgetCRD } from '../widget';

const claim = (name: string, owner: string) => ({
  ...ConfigMap,
  metadata: { name, namespace: 'default', labels: { [WIDGET_LABEL]: owner } },
  data: { want: owner },
});

export const scenario = {
  prepare: [widgetCRD],
  steps: [
    { create: widget('a') },
    { create: claim('a-1', 'a') },
    { create: widget('b') },
    { create: claim('b-1', 'b') },
    { delete: { ...Widget, namespace: 'default', name: 'b' } },
  ],
};
