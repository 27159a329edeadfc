// What is waiting to be written to a client: packets socket.io has queued in engine.io (not yet handed to the
// transport while it is busy writing) and bytes the websocket holds unsent. Both count towards a client's own
// limits and towards the process-wide undelivered-bytes budget: queued packets are strings already encoded,
// so they are memory this process holds for that client.
import type { Socket } from 'socket.io';

export interface Pressure {
  bufferedPackets: number;
  bufferedBytes: number;
}

interface EngineConn {
  writeBuffer?: { data?: unknown }[];
  transport?: { writable?: boolean; socket?: { bufferedAmount?: number } };
}

export function pressure(socket: Socket): Pressure {
  const conn = socket.conn as unknown as EngineConn;
  const queue = conn.writeBuffer ?? [];
  let queuedBytes = 0;
  for (const p of queue) {
    const d = p.data;
    if (typeof d === 'string') queuedBytes += d.length;
    else if (d instanceof ArrayBuffer || ArrayBuffer.isView(d)) queuedBytes += d.byteLength;
  }
  const inFlight = conn.transport?.writable === false ? 1 : 0;
  return {
    bufferedPackets: queue.length + inFlight,
    bufferedBytes: queuedBytes + (conn.transport?.socket?.bufferedAmount ?? 0),
  };
}
