// What the oracle's controllers do (the TypeScript one under run, the Go one with the module), in one place:
// the names, labels and annotations the workload uses to steer them, the Secret they keep for each
// ConfigMap, and the records they log as ground truth.
import type { KubeObject } from '../../../shared/models/object';

export const BEHAVIOUR = {
  controller: 'mirror',
  /** Every object the workload makes carries this label (value: the seed); the rest is not the oracle's. */
  seedLabel: 'truth.controller-scope.dev/seed',
  /** A ConfigMap labelled so writes a new tick on every pass: a hot loop, up to maxTicks. */
  loopLabel: 'truth.controller-scope.dev/loop',
  tickAnnotation: 'truth.controller-scope.dev/tick',
  maxTicks: 30,
  /** Fail this many passes in a row before succeeding (error backoff). */
  failAnnotation: 'truth.controller-scope.dev/fail',
  /** Return requeueAfter this many ms, at most maxRequeues times per key. */
  requeueAnnotation: 'truth.controller-scope.dev/requeue-after-ms',
  maxRequeues: 2,
} as const;

export function secretName(cm: KubeObject): string {
  return `${cm.metadata.name ?? ''}-mirror`;
}

/** The Secret a ConfigMap should have: its data, base64 (the controller sets the owner reference). */
export function desiredSecret(cm: KubeObject): KubeObject {
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries((cm as { data?: Record<string, string> }).data ?? {}))
    data[k] = Buffer.from(v).toString('base64');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: secretName(cm),
      namespace: cm.metadata.namespace ?? '',
      labels: { [BEHAVIOUR.seedLabel]: cm.metadata.labels?.[BEHAVIOUR.seedLabel] ?? '' },
    },
    data,
  } as KubeObject;
}

/**
 * A line of a controller's truth log. `generation` names one run of the controller: a setup of the
 * TypeScript module (each reload is a new one), a start of the Go process.
 */
export type TruthRecord =
  | { kind: 'setup'; generation: string; ts: number }
  | {
      kind: 'write';
      generation: string;
      controller: string;
      verb: string;
      namespace: string;
      name: string;
      uid: string;
      /** What the server answered; '' for a delete (its version is not returned). */
      resourceVersion: string;
      key: string;
      reconcileId: string;
      ts: number;
    }
  | {
      kind: 'reconcile';
      generation: string;
      controller: string;
      key: string;
      phase: 'start' | 'end';
      outcome?: string;
      reconcileId: string;
      /**
       * On end: the versions of the ConfigMap and its Secret the pass read ('' when missing). A pass that
       * read what the server still holds changed nothing: the controller is done with that key.
       */
      cmRv?: string;
      secretRv?: string;
      ts: number;
    }
  | { kind: 'elected'; generation: string; process: string; ts: number };
