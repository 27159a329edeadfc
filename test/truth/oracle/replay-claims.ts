// Replay tells the same story: the span a viewer downloads (Rec, GET /api/recording), started at an
// arbitrary point, replayed through the reducer to the seq of the live view, must show what the live view
// shows for the run's keys and informers. A recording that began with the state it needed passes; one that
// began at the oldest event the ring still held (what wrapped buffers gave) shows keys idle, counts short.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reduce } from '../../../shared/protocol/reduce';
import type { RuntimeView } from '../../../shared/protocol/view';
import { readRecording } from '../../../server/dashboard/replay/recording-reader';
import type { FalseClaim } from './claims';

/** How far back the downloaded span starts: far enough to cross restarts, short enough to stay cheap. */
const SPAN_EVENTS = 500;

export async function checkReplay(
  dashboardUrl: string,
  live: RuntimeView,
  namespace: string,
  dir: string,
): Promise<FalseClaim[]> {
  const toSeq = live.lastSeq;
  const fromSeq = Math.max(1, toSeq - SPAN_EVENTS);
  const res = await fetch(new URL(`api/recording?fromSeq=${fromSeq}&toSeq=${toSeq}`, dashboardUrl));
  if (!res.ok)
    return [{ claim: 'a recording of the span', truth: `GET /api/recording answered ${res.status}`, where: 'replay' }];
  const file = join(dir, `replay-${toSeq}.csrec`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  const rec = await readRecording(file);
  const start = rec.states[0];
  if (!start) return [{ claim: 'a recording that starts with its state', truth: 'no snapshot in it', where: 'replay' }];
  const replayed = reduce(
    start.view,
    rec.events.filter((e) => e.seq > start.seq && e.seq <= toSeq),
  );
  return compare(live, replayed, namespace, `replay of seq ${fromSeq}..${toSeq}`);
}

function compare(live: RuntimeView, replayed: RuntimeView, namespace: string, where: string): FalseClaim[] {
  const out: FalseClaim[] = [];
  for (const [name, c] of Object.entries(live.controllers)) {
    const r = replayed.controllers[name];
    if (!r) {
      out.push({ claim: `replay has no controller ${name}`, truth: 'the live view has it', where });
      continue;
    }
    for (const [key, k] of Object.entries(c.keys)) {
      if (!key.startsWith(`${namespace}/`)) continue;
      const rk = r.keys[key];
      const said = rk ? `${rk.state}, ${rk.reconciles} reconciles, last #${rk.lastReconcile?.seq ?? '-'}` : 'absent';
      const was = `${k.state}, ${k.reconciles} reconciles, last #${k.lastReconcile?.seq ?? '-'}`;
      if (said !== was) out.push({ claim: `replayed ${name} ${key}: ${said}`, truth: `live: ${was}`, where });
    }
  }
  for (const [id, inf] of Object.entries(live.informers)) {
    const r = replayed.informers[id];
    if (r?.synced !== inf.synced || r?.storeSize !== inf.storeSize)
      out.push({
        claim: `replayed informer ${id}: synced ${r?.synced}, ${r?.storeSize} cached`,
        truth: `live: synced ${inf.synced}, ${inf.storeSize} cached`,
        where,
      });
  }
  return out;
}
