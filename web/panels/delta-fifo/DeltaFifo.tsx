// The DeltaFIFO: per key, the deltas the reflector queued that the informer has not popped yet. Keys are
// de-duplicated (one entry per object), their deltas accumulate; a relist shows as Replaced + tombstones.
import { Breakdown } from '../../components/Bars';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { VirtualTable } from '../../components/VirtualTable';
import { Badge, Stat, Stats } from '../../components/Stat';
import { EmptyPage, PageHead } from '../../components/PageHead';
import { TimeSeriesChart } from '../../components/TimeSeriesChart';
import { C, DELTA_TONE } from '../../components/colors';
import { fmtClockMs, fmtCount, fmtDuration } from '../../components/format';
import { focusInformer, informerIds, seriesRate } from '../focus';
import type { PanelProps } from '../types';
import { deltaMix, fifoSeries, pendingRows, recentPops } from './delta-fifo-series';
import { FIFO_SHADOW_NOTE } from '../../../shared/protocol/events-cache';

export function DeltaFifo({ view, route, now }: PanelProps) {
  const inf = focusInformer(view, route);
  if (!inf) {
    return (
      <EmptyPage testId="panel-delta-fifo" title="DeltaFIFO" card="Pending deltas">
        No informer has started yet.
      </EmptyPage>
    );
  }
  const rows = pendingRows(inf, now);
  const pops = recentPops(view.log, inf.id);
  const c = inf.counters;
  const windowMs = view.limits.rateWindowMs;
  // RealFIFO pops one delta at a time; only DeltaFIFO hands a key's accumulated deltas together.
  const realFifo = inf.fifo === 'RealFIFO';
  return (
    <div className="page" data-testid="panel-delta-fifo">
      <PageHead
        title={inf.fifo ?? 'DeltaFIFO'}
        sub={
          inf.fifo === 'RealFIFO'
            ? 'client-go’s RealFIFO: every change queued in arrival order, handed to the informer one by one'
            : 'a queue of keys, each holding the list of changes seen for that object since the last pop'
        }
        focus={{ panel: 'delta-fifo', field: 'informer', value: inf.id, options: informerIds(view) }}
      />
      {inf.fifoShadow && (
        <p className="dim" data-testid="fifo-shadow-note" style={{ fontSize: 12, margin: '0 0 10px' }}>
          {FIFO_SHADOW_NOTE}
        </p>
      )}
      <Stats>
        <Stat label="Queue length" value={fmtCount(inf.fifoLength)} hint="keys waiting to be popped" />
        <Stat
          label="Pending keys shown"
          value={fmtCount(rows.length)}
          hint={inf.pendingOverflow ? `+${fmtCount(inf.pendingOverflow)} over the view's cap` : 'all'}
        />
        <Stat label="Deltas / s" value={seriesRate(inf.series, 'deltas', windowMs, now).toFixed(1)} />
        <Stat
          label="Pops / s"
          value={seriesRate(inf.series, 'pops', windowMs, now).toFixed(1)}
          hint={`${fmtCount(c.pops)} total`}
        />
        <Stat
          label="Pop errors"
          value={c.popErrors}
          tone={c.popErrors > 0 ? 'err' : undefined}
          hint="requeued on error"
        />
        <Stat label="Tombstones" value={c.tombstones} hint="DeletedFinalStateUnknown" />
      </Stats>
      <div className="grid wide-left">
        <Card title="Queue length and throughput">
          <TimeSeriesChart
            data={fifoSeries(inf)}
            series={[
              { key: 'fifoLength', label: 'queue length', color: C.warn, kind: 'area' },
              { key: 'deltas', label: 'deltas in', color: C.purple },
              { key: 'pops', label: 'pops out', color: C.ok },
            ]}
            height={150}
          />
        </Card>
        <Card title="Delta types (total)">
          <Breakdown rows={deltaMix(inf)} />
          <p className="dim" style={{ fontSize: 11.5, margin: '8px 0 0' }}>
            Replaced comes from a list (initial or relist); Sync from a periodic resync; Deleted from a watch event or a
            relist that no longer sees the object.
          </p>
        </Card>
      </div>
      <Card
        title="Recent pops"
        right={
          <span className="dim">
            {realFifo
              ? 'each pop hands the oldest queued delta, one change of one object, to the informer'
              : 'each pop hands one key’s accumulated deltas to the informer'}
          </span>
        }
        flush
      >
        <DataTable
          rows={pops}
          empty="No pop in the recent event log."
          scroll={300}
          testId="fifo-pops"
          head={
            <>
              <th>time</th>
              <th>key</th>
              <th>{realFifo ? 'delta delivered' : 'deltas delivered together'}</th>
              <th className="r">left in queue</th>
              <th className="r">process</th>
            </>
          }
        >
          {(p) => (
            <tr key={p.seq}>
              <td className="num dim">{fmtClockMs(p.ts)}</td>
              <td className="mono">{p.key}</td>
              <td>
                {p.deltas.map((t, i) => (
                  <span key={i} style={{ marginRight: 3 }}>
                    <Badge tone={DELTA_TONE[t]}>{t}</Badge>
                  </span>
                ))}
                {p.requeued && <Badge tone="warn">requeued</Badge>}
                {p.error && <span className="err"> {p.error}</span>}
              </td>
              <td className="r num">{p.queueLength}</td>
              <td className="r num dim">{fmtDuration(p.durationMs)}</td>
            </tr>
          )}
        </DataTable>
      </Card>
      <Card title="Pending deltas per key" right={<span className="dim">head of the queue first</span>} flush>
        <VirtualTable
          rows={rows}
          total={rows.length + inf.pendingOverflow}
          noun="pending keys"
          columns={5}
          height={460}
          empty="The FIFO is empty: every delta has been popped into the indexer and handed to the handlers."
          testId="fifo-pending"
          head={
            <>
              <th>key</th>
              <th className="r">deltas</th>
              <th>types (oldest → newest)</th>
              <th className="r">waiting</th>
              <th>resourceVersion</th>
            </>
          }
        >
          {(r) => (
            <tr key={r.key}>
              <td className="mono">
                {r.key} {r.tombstone && <Badge tone="err">tombstone</Badge>}
              </td>
              <td className="r num">{r.count}</td>
              <td>
                {r.types.map((t, i) => (
                  <span key={i} style={{ marginRight: 3 }}>
                    <Badge tone={DELTA_TONE[t]}>{t}</Badge>
                  </span>
                ))}
              </td>
              <td className="r num">{fmtDuration(r.ageMs)}</td>
              <td className="mono dim">{r.ref.resourceVersion ?? '–'}</td>
            </tr>
          )}
        </VirtualTable>
      </Card>
    </div>
  );
}
