// Pure helpers of the ingest-from-bytes bench: the JSON size of the objects every peer receives, and the
// issue's targets checked against one run's figures (met / not met), so the runner only spawns and prints.
import type { IngestResult } from './ingest-peer-result';
import { realisticPod } from './realistic-objects';

/** Mean bytes of one Pod's JSON as the server sends it, with or without managedFields. */
export function meanPodJsonBytes(n: number, withManagedFields: boolean): number {
  let total = 0;
  for (let i = 0; i < n; i++) total += Buffer.byteLength(JSON.stringify(realisticPod(i, i + 1, withManagedFields)));
  return total / n;
}

export interface Target {
  what: string;
  /** The measured value, in the unit the target is written in (a ratio, or bytes). */
  value: number | undefined;
  goal: string;
  met: boolean | undefined;
}

/** Events per second from first request to the last handler call. */
export const eventsPerSec = (r: IngestResult): number => r.events / (r.ms / 1000);

/** ours' throughput over a peer's (above 1 = we are faster). */
const speedup = (ours: IngestResult | undefined, peer: IngestResult | undefined): number | undefined =>
  ours && peer ? peer.ms / ours.ms : undefined;

function atLeast(what: string, value: number | undefined, goal: number): Target {
  return { what, value, goal: `≥ ${goal}×`, met: value === undefined ? undefined : value >= goal };
}

/**
 * The ingest targets for one shape. `peers` maps peer name to its figure; `jsonBytesNoMF` is the mean
 * JSON size of an object with managedFields dropped, the retained-heap ceiling.
 */
export function ingestTargets(
  peers: ReadonlyMap<string, IngestResult>,
  jsonBytesNoMF: number,
  label: string,
): Target[] {
  const ours = peers.get('ours');
  // The leanest cache we offer: strip managedFields, intern repeated strings, share equal subtrees (opt-in
  // transforms); then the leanest of those that ran.
  const lean = peers.get('ours-lean') ?? peers.get('ours-compact') ?? peers.get('ours-strip') ?? ours;
  const retained = lean?.retainedBytesPerObject;
  const strip = peers.get('ours-strip');
  return [
    atLeast(`${label}: ours vs client-node (events/s)`, speedup(ours, peers.get('client-node')), 1.5),
    // The same target for a user who sets transformStripManagedFields(), which skips parsing managedFields;
    // client-node has no such option and parses every byte. Shown beside the default path, not instead of it.
    ...(strip
      ? [
          atLeast(
            `${label}, strip transform: ours vs client-node (events/s)`,
            speedup(strip, peers.get('client-node')),
            1.5,
          ),
        ]
      : []),
    atLeast(`${label}: ours vs client-go JSON (events/s)`, speedup(ours, peers.get('client-go')), 1.5),
    atLeast(`${label}: ours vs the JSON.parse floor (events/s)`, speedup(ours, peers.get('floor')), 0.5),
    {
      what: `${label}: retained heap per object (${lean?.peer ?? 'ours'})`,
      value: retained,
      goal: `≤ ${Math.round(jsonBytesNoMF)} B (JSON without managedFields)`,
      met: retained === undefined ? undefined : retained <= jsonBytesNoMF,
    },
  ];
}
