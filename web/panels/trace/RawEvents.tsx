// Every probe event the server still holds for one key (pulled on demand with inspect), in words: the
// ground truth behind the summaries above, for when a summary is not enough.
import { useState } from 'react';
import type { InspectResult } from '../../../shared/protocol/socket';
import { Card, Empty } from '../../components/Card';
import { Badge } from '../../components/Stat';
import { describeEvent } from '../../components/describe-event';
import { fmtClockMs } from '../../components/format';
import { useInspect } from '../../components/useInspect';
import { VirtualTable } from '../../components/VirtualTable';

type KeyResult = Extract<InspectResult, { target: 'key' }>;

/** The most events one answer carries (the server's bound on an inspect). */
const RAW_EVENTS_LIMIT = 10_000;

export function RawEvents({ controller, objectKey }: { controller: string; objectKey: string }) {
  const [open, setOpen] = useState(false);
  const [bump, setBump] = useState(0);
  const res = useInspect<KeyResult>(
    open ? { target: 'key', controller, key: objectKey, limit: RAW_EVENTS_LIMIT } : undefined,
    0,
    bump,
  );
  const events = res.data?.events.slice().reverse() ?? [];
  return (
    <Card
      title="Raw events for this key"
      right={
        <button
          type="button"
          className="btn small"
          disabled={!res.available}
          onClick={() => (open ? setBump((b) => b + 1) : setOpen(true))}
        >
          {open ? 'refresh' : 'load from server'}
        </button>
      }
      flush
    >
      {!res.available ? (
        <Empty>Not connected: the server holds the raw events.</Empty>
      ) : !open ? (
        <Empty>The probe events the server still holds for {objectKey}, newest first.</Empty>
      ) : res.error ? (
        <div className="notice err">{res.error}</div>
      ) : events.length === 0 ? (
        <Empty>{res.loading ? 'Loading…' : 'No event for this key is left in the server’s ring.'}</Empty>
      ) : (
        <VirtualTable rows={events} noun="events" height={360} columns={4} testId="raw-events">
          {(ev) => {
            const d = describeEvent(ev);
            return (
              <tr key={ev.seq}>
                <td className="num dim">{ev.seq}</td>
                <td className="num dim">{fmtClockMs(ev.ts)}</td>
                <td>
                  <Badge tone="muted">{ev.kind}</Badge>
                </td>
                <td className="wrap">{d ? d.text : ''}</td>
              </tr>
            );
          }}
        </VirtualTable>
      )}
    </Card>
  );
}
