// events.k8s.io/v1 Events are a second view of the core Events storage (kubernetes
// pkg/apis/events/v1/conversion.go): the same objects under renamed fields, so an Event recorded
// through either API is listed and watched through both.
import type { KubeObject } from '../../../shared/models/object';

/** [core v1 field, events.k8s.io/v1 field] */
const RENAMES: [string, string][] = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['reportingComponent', 'reportingController'],
];

function rename(obj: KubeObject, pairs: [string, string][]): KubeObject {
  const out: KubeObject = { ...obj };
  for (const [from, to] of pairs) {
    if (from in out) {
      if (!(to in out)) out[to] = out[from];
      delete out[from];
    }
  }
  return out;
}

/** Stored (core) form → events.k8s.io/v1 form. Leaves already-converted fields alone. */
export function coreEventToEventsV1(obj: KubeObject): KubeObject {
  return rename(obj, RENAMES);
}

/** events.k8s.io/v1 form → stored (core) form. */
export function eventsV1ToCoreEvent(obj: KubeObject): KubeObject {
  return rename(
    obj,
    RENAMES.map(([a, b]) => [b, a]),
  );
}
