// Ports client-go tools/events (the events.k8s.io/v1 recorder) as controller-runtime's manager hands it
// out (pkg/internal/recorder, GetEventRecorder / GetEventRecorderFor): Eventf builds an events.k8s.io/v1
// Event about `regarding` and creates it through the manager's API client without blocking the caller.
// Created inside a reconcile, the write is reported as that controller's client.request, so the dashboard
// shows the event with the reconcile's other writes.
import os from 'node:os';
import { format } from 'node:util';
import type { KubeObject } from '../../../shared/models/object';
import type { Writer } from '../client/interfaces';
import type { Logger } from '../reconcile/logger';
import type { Clock } from '../util/clock';

/** events.EventRecorder */
export interface EventRecorder {
  /** eventtype is "Normal" or "Warning"; note is a printf-style format for args. */
  eventf(
    regarding: KubeObject,
    related: KubeObject | undefined,
    eventtype: 'Normal' | 'Warning',
    reason: string,
    action: string,
    note: string,
    ...args: unknown[]
  ): void;
}

export interface EventRecorderOptions {
  /** The reportingController; reportingInstance is name + "-" + hostname. */
  name: string;
  client: Pick<Writer, 'create'>;
  clock: Clock;
  log: Logger;
  hostname?: string;
}

interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

const refOf = (o: KubeObject): ObjectReference => ({
  ...(o.apiVersion ? { apiVersion: o.apiVersion } : {}),
  ...(o.kind ? { kind: o.kind } : {}),
  ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
  ...(o.metadata.name ? { name: o.metadata.name } : {}),
  ...(o.metadata.uid ? { uid: o.metadata.uid } : {}),
  ...(o.metadata.resourceVersion ? { resourceVersion: o.metadata.resourceVersion } : {}),
});

/** metav1.MicroTime: RFC 3339 with six fractional digits. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function newEventRecorder(o: EventRecorderOptions): EventRecorder {
  const instance = `${o.name}-${o.hostname ?? os.hostname()}`;
  return {
    eventf(regarding, related, eventtype, reason, action, note, ...args) {
      const message = args.length > 0 ? format(note, ...args) : note;
      if (eventtype !== 'Normal' && eventtype !== 'Warning') {
        o.log.error(new Error(`unsupported event type ${String(eventtype)}`), 'Unsupported event type', { reason });
        return;
      }
      if (!regarding?.metadata?.name) {
        o.log.error(new Error('object has no name'), 'Could not construct reference, will not report event', {
          reason,
          message,
        });
        return;
      }
      const now = o.clock.now();
      const event: KubeObject = {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: {
          // util.GenerateEventName: "<name>.<unix nanoseconds in hex>"
          name: `${regarding.metadata.name}.${(BigInt(Math.floor(now)) * 1_000_000n).toString(16)}`,
          namespace: regarding.metadata.namespace || 'default',
        },
        eventTime: microTime(now),
        reportingController: o.name,
        reportingInstance: instance,
        action,
        reason,
        regarding: refOf(regarding),
        ...(related ? { related: refOf(related) } : {}),
        note: message,
        type: eventtype,
      };
      // The broadcaster sends asynchronously and never retries; a failure is only logged.
      void o.client.create(event).catch((err: unknown) => o.log.error(err, 'Unable to record event (will not retry!)'));
    },
  };
}
