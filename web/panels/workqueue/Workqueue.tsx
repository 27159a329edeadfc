// The workqueue: depth split into ready / waiting (delayed or backing off) / processing, and every key
// with its state, requeue count and the countdown to its next retry: "why is this key not moving?".
import { useMemo, useState } from 'react';
import type { CauseType } from '../../../shared/protocol/events';
import { Breakdown } from '../../components/Bars';
import { Card, Empty } from '../../components/Card';
import { VirtualTable } from '../../components/VirtualTable';
import { activateProps } from '../../components/activate';
import { queueCounts } from '../../../shared/protocol/queue-counts';
import { Badge, Stat, Stats } from '../../components/Stat';
import { EmptyPage, PageHead } from '../../components/PageHead';
import { TimeSeriesChart } from '../../components/TimeSeriesChart';
import { C, CAUSE_COLOR, CAUSE_TONE, OUTCOME_TONE, QUEUE_STATE_TONE } from '../../components/colors';
import { fmtClockMs, fmtCount, fmtRate } from '../../components/format';
import { navigate } from '../../client/route';
import { controllerNames, focusController, seriesRate } from '../focus';
import { fmtMs, fmtMsCountdown } from '../trace/format-ms';
import type { PanelProps } from '../types';
import { depthSeries, keyOrder, keyRow, stateCounts } from './workqueue-series';
import type { KeyFilter } from './workqueue-series';

const FILTERS: readonly { id: KeyFilter; label: string }[] = [
  { id: 'queued', label: 'queued' },
  { id: 'processing', label: 'processing' },
  { id: 'ready', label: 'ready' },
  { id: 'waiting', label: 'waiting' },
  { id: 'retrying', label: 'retrying' },
  { id: 'hot', label: 'hot' },
  { id: 'all', label: 'all' },
];

export function Workqueue({ view, route, now }: PanelProps) {
  const [filter, setFilter] = useState<KeyFilter>('all');
  const [search, setSearch] = useState('');
  const c = focusController(view, route);
  // Sorting every key is the panel's biggest cost: redo it when the keys change, not on every clock tick.
  const keys = c?.keys;
  const hotLoops = c?.hotLoops;
  const order = useMemo(
    () => (keys && hotLoops ? keyOrder({ keys, hotLoops }, filter, search) : undefined),
    [keys, hotLoops, filter, search],
  );
  // Counting walks every key too: once per change of the keys, not on every clock tick.
  const counts = useMemo(() => (keys && hotLoops ? stateCounts({ keys, hotLoops }) : undefined), [keys, hotLoops]);
  if (!c || !order || !counts) {
    return (
      <EmptyPage testId="panel-workqueue" title="Workqueue" card="Keys">
        No controller has created its workqueue yet.
      </EmptyPage>
    );
  }
  const depth = queueCounts(c);
  const causeRows = (Object.entries(c.causes) as [CauseType, number][])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([t, n]) => ({ label: t, value: n, color: CAUSE_COLOR[t] }));
  return (
    <div className="page" data-testid="panel-workqueue">
      <PageHead
        title="Workqueue"
        sub={<>workqueue “{c.name}”: de-duplicates keys, never hands one key to two workers, retries with backoff</>}
        focus={{ panel: 'workqueue', field: 'controller', value: c.name, options: controllerNames(view) }}
      />
      <Stats>
        <Stat
          label="Depth (ready)"
          value={depth.ready}
          tone="info"
          hint={depth.ready > 0 ? 'workqueue_depth · incl. keys re-added while processing' : 'workqueue_depth'}
        />
        <Stat
          label="Waiting"
          value={depth.waiting}
          tone={depth.waiting > 0 ? 'warn' : undefined}
          hint="delayed / backing off"
        />
        <Stat
          label="Processing"
          value={depth.processing}
          tone="ok"
          hint={`${c.activeWorkers}/${c.workers} workers busy`}
        />
        <Stat
          label="Adds / s"
          value={fmtRate(seriesRate(c.series, 'adds', view.limits.rateWindowMs, now)).replace('/s', '')}
          hint={`${fmtCount(c.adds)} total`}
        />
        <Stat
          label="De-duplicated"
          value={fmtCount(c.dedupedAdds)}
          hint={c.adds > 0 ? `${Math.round((c.dedupedAdds / c.adds) * 100)}% of adds absorbed` : 'adds absorbed'}
        />
        <Stat
          label="Retries"
          value={fmtCount(c.retries)}
          tone={c.retries > 0 ? 'warn' : undefined}
          hint="rate-limited re-adds"
        />
        <Stat label="Keys retrying" value={counts.retrying} tone={counts.retrying > 0 ? 'warn' : undefined} />
        <Stat
          label="Keys tracked"
          value={fmtCount(c.keyCount)}
          hint={c.evictedKeys ? `${c.evictedKeys} idle evicted` : undefined}
        />
      </Stats>
      <div className="grid wide-left">
        <Card title="Depth over time">
          <TimeSeriesChart
            data={depthSeries(c)}
            series={[
              { key: 'processing', label: 'processing', color: C.ok, kind: 'area', stack: 'd' },
              { key: 'ready', label: 'ready', color: C.info, kind: 'area', stack: 'd' },
              { key: 'waiting', label: 'waiting', color: C.warn, kind: 'area', stack: 'd' },
              { key: 'adds', label: 'adds', color: C.purple },
            ]}
            height={170}
            reference={c.workers > 0 ? { y: c.workers, label: `${c.workers} workers` } : undefined}
          />
        </Card>
        <Card title="Why keys were enqueued">
          {causeRows.length === 0 ? <Empty>No enqueue yet.</Empty> : <Breakdown rows={causeRows} />}
        </Card>
      </div>
      <Card
        title="Keys"
        right={
          <>
            <span className="seg">
              {FILTERS.map((f) => (
                <button
                  type="button"
                  key={f.id}
                  className={f.id === filter ? 'on' : ''}
                  onClick={() => setFilter(f.id)}
                  data-testid={`filter-${f.id}`}
                >
                  {f.label} <span className="dim num">{fmtCount(counts[f.id])}</span>
                </button>
              ))}
            </span>
            <input
              className="inp"
              placeholder="filter keys…"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              style={{ width: 180 }}
            />
          </>
        }
        flush
      >
        <VirtualTable
          rows={order.keys}
          total={counts.all}
          noun={filter === 'all' && !search ? 'keys' : 'keys match'}
          columns={9}
          empty={
            <>
              No key matches “{filter}”{search ? ` and “${search}”` : ''}.
            </>
          }
          height={520}
          testId="queue-keys"
          head={
            <>
              <th>key</th>
              <th>state</th>
              <th className="r">for</th>
              <th className="r">requeues</th>
              <th>next retry</th>
              <th>pending causes</th>
              <th className="r">adds</th>
              <th className="r">reconciles</th>
              <th>last result</th>
            </>
          }
        >
          {(k) => {
            const r = keyRow(k, now, order.hot.has(k.key));
            return (
              <tr
                key={r.key}
                {...activateProps(() => navigate({ panel: 'trace', controller: c.name, key: r.key }))}
                className={`clickable ${route.key === r.key ? 'selected' : ''}`}
              >
                <td className="mono">
                  {r.key} {r.hot && <Badge tone="err">hot loop</Badge>}
                </td>
                <td>
                  <Badge tone={QUEUE_STATE_TONE[r.state]}>{r.state}</Badge>
                  {r.dirty && (
                    <Badge tone="purple" title="re-added while processing: runs again when done">
                      dirty
                    </Badge>
                  )}
                </td>
                <td className="r num dim">{fmtMs(r.stateForMs)}</td>
                <td className={`r num ${r.requeues > 0 ? 'warn' : ''}`}>{r.requeues}</td>
                <td className="num">
                  {r.retryAt !== undefined ? (
                    <span
                      title={`ready at ${fmtClockMs(r.retryAt)}`}
                      className={r.retryInMs && r.retryInMs > 0 ? 'warn' : 'dim'}
                    >
                      {r.retryInMs !== undefined && r.retryInMs <= 0
                        ? `due ${fmtMs(-r.retryInMs)} ago`
                        : fmtMsCountdown(r.retryAt, now)}{' '}
                      <span className="dim">({fmtClockMs(r.retryAt)})</span>
                    </span>
                  ) : r.lastBackoff ? (
                    <span
                      className="dim"
                      title="the last rate-limited requeue of this key; its history is in the trace"
                    >
                      last backoff {fmtMs(r.lastBackoff.delayMs)} (#{r.lastBackoff.requeues})
                    </span>
                  ) : (
                    <span className="faint">–</span>
                  )}
                </td>
                <td>
                  {(Object.entries(r.pending) as [CauseType, number][]).map(([t, n]) => (
                    <span key={t} style={{ marginRight: 3 }}>
                      <Badge tone={CAUSE_TONE[t]}>
                        {t}
                        {n > 1 ? ` ×${n}` : ''}
                      </Badge>
                    </span>
                  ))}
                </td>
                <td className="r num">{r.adds}</td>
                <td className="r num">{r.reconciles}</td>
                <td>
                  {r.lastOutcome ? (
                    <span title={r.lastError}>
                      <Badge tone={OUTCOME_TONE[r.lastOutcome as keyof typeof OUTCOME_TONE]}>{r.lastOutcome}</Badge>{' '}
                      <span className="dim num">{fmtMs(r.lastDurationMs)}</span>
                    </span>
                  ) : (
                    <span className="faint">never</span>
                  )}
                </td>
              </tr>
            );
          }}
        </VirtualTable>
      </Card>
    </div>
  );
}
