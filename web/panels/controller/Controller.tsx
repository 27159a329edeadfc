// The controller: reconciles by outcome, the duration histogram in controller-runtime's buckets, the
// worker pool, handlers and predicates, the client calls reconciles make, and step-mode controls.
import { failedReconciles } from '../../../shared/protocol/reconcile-outcomes';
import { Breakdown, HistogramBars } from '../../components/Bars';
import { Card, Empty } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { Badge, Stat, Stats } from '../../components/Stat';
import { EmptyPage, PageHead } from '../../components/PageHead';
import { TimeSeriesChart } from '../../components/TimeSeriesChart';
import { C } from '../../components/colors';
import { fmtClock, fmtCount, fmtDuration, fmtPercent, fmtRate } from '../../components/format';
import { navigate } from '../../client/route';
import { activateProps } from '../../components/activate';
import { useStoreState } from '../../client/hooks';
import { partLiveness } from '../../../shared/protocol/liveness';
import { controllerNames, focusController, focusKey, seriesRate } from '../focus';
import type { PanelProps } from '../types';
import { StepControls } from './StepControls';
import { wiringParts, wiringReported } from './wiring';
import { queueLabel } from '../../components/QueueKind';
import {
  handlerRows,
  histogramBars,
  histogramQuantile,
  outcomeRows,
  throughputSeries,
  workerRows,
} from './controller-series';

/** A reconcile running longer than this is flagged: usually a blocking call without a timeout. */
const LONG_RECONCILE_MS = 10_000;

export function Controller({ view, route, now }: PanelProps) {
  const c = focusController(view, route);
  const holders = useStoreState((s) => (c ? s.serverStatus?.steppers[c.name]?.holders : undefined));
  if (!c) {
    return (
      <EmptyPage testId="panel-controller" title="Controller" card="Reconciles">
        No controller registered yet.
      </EmptyPage>
    );
  }
  const errors = failedReconciles(c.reconciles);
  const live = partLiveness(view, c);
  const q = (p: number) => {
    const s = histogramQuantile(c.histogram, p);
    return s === undefined ? undefined : s * 1000;
  };
  const workers = workerRows(c, now);
  const handlers = handlerRows(c);
  const requests = Object.entries(c.client.requests).sort((a, b) => b[1] - a[1]);
  const key = focusKey(c, route);
  const wiring = wiringParts(c);
  return (
    <div className="page" data-testid="panel-controller">
      <PageHead
        title={<>Controller “{c.name}”</>}
        sub={
          <>
            <span data-testid="controller-wiring">
              {wiring.map((w, i) => (
                <span key={i} className="mono" title={w.handler}>
                  {i > 0 ? ' · ' : ''}
                  {w.call}
                </span>
              ))}
              {wiring.length === 0 && <span className="mono">For(?)</span>}
              {!wiringReported(c) && <span className="dim"> (Owns / Watches not reported by this producer)</span>}
            </span>{' '}
            · {queueLabel(c.queueKind)} · {c.workers} workers ·{' '}
            {live.state === 'alive' ? (
              <>
                phase <b>{c.phase}</b> since {fmtClock(c.phaseSince)}
              </>
            ) : (
              <>
                <b className="err" title={live.reason}>
                  {live.state}: {live.reason}
                </b>
                {live.caveat && <span className="dim"> ({live.caveat})</span>}
              </>
            )}
          </>
        }
        focus={{ panel: 'controller', field: 'controller', value: c.name, options: controllerNames(view) }}
      />
      <Stats>
        <Stat
          label="Reconciles / s"
          value={fmtRate(seriesRate(c.series, 'reconciles', view.limits.rateWindowMs, now)).replace('/s', '')}
          hint={`${fmtCount(c.totalReconciles)} ${live.state === 'gone' ? 'seen before it went' : 'total'}`}
        />
        <Stat
          label="Errors"
          value={fmtCount(errors)}
          tone={errors > 0 ? 'err' : undefined}
          hint={`${fmtPercent(c.totalReconciles ? errors / c.totalReconciles : 0)} of reconciles`}
        />
        <Stat
          label="Active workers"
          value={`${c.activeWorkers}/${c.workers}`}
          tone={c.activeWorkers > 0 ? 'ok' : undefined}
          hint="active_workers"
        />
        <Stat label="p50" value={fmtDuration(q(0.5))} />
        <Stat label="p90" value={fmtDuration(q(0.9))} />
        <Stat label="p99" value={fmtDuration(q(0.99))} />
        <Stat
          label="Mean"
          value={fmtDuration(c.histogram.count ? (c.histogram.sum / c.histogram.count) * 1000 : undefined)}
        />
        <Stat label="Hot loops" value={c.hotLoops.length} tone={c.hotLoops.length > 0 ? 'err' : undefined} />
      </Stats>
      {c.hotLoops.length > 0 && (
        <div className="notice err" data-testid="hotloop-banner">
          Hot loop:{' '}
          {c.hotLoops
            .map((h) => `${h.key} (${h.rate.toFixed(1)}/s, ${fmtPercent(h.selfRatio)} self-caused)`)
            .join(', ')}
          .{' '}
          <a
            href="#"
            onClick={(e) => {
              e.preventDefault();
              navigate({ panel: 'trace', controller: c.name, key: c.hotLoops[0]?.key });
            }}
          >
            Open the trace
          </a>
        </div>
      )}
      {c.lastError && (
        <div className="notice" style={{ fontSize: 12 }}>
          <span className="dim">last error:</span> <span className="err mono">{c.lastError}</span>
        </div>
      )}
      <div className="grid c2">
        <Card title="Reconciles by outcome" right={<span className="dim">controller_runtime_reconcile_total</span>}>
          <Breakdown rows={outcomeRows(c)} />
        </Card>
        <Card
          title="Reconcile duration"
          right={
            <span className="dim">controller_runtime_reconcile_time_seconds · {fmtCount(c.histogram.count)} obs</span>
          }
        >
          <HistogramBars bars={histogramBars(c.histogram)} />
        </Card>
      </div>
      <Card title="Throughput">
        <TimeSeriesChart
          data={throughputSeries(c)}
          series={[
            // Stepped areas, not bars: one path per series instead of one element per second per series.
            { key: 'reconciles', label: 'reconciles', color: C.ok, kind: 'area', stack: 'r' },
            { key: 'errors', label: 'errors', color: C.err, kind: 'area', stack: 'e' },
            { key: 'retries', label: 'retries', color: C.warn },
            { key: 'activeWorkers', label: 'active workers', color: C.teal },
          ]}
          height={150}
          reference={c.workers > 0 ? { y: c.workers, label: 'workers' } : undefined}
        />
      </Card>
      <div className="grid c3">
        <Card title="Workers" flush>
          <table className="data" data-testid="workers">
            <thead>
              <tr>
                <th>#</th>
                <th>reconciling</th>
                <th className="r">for</th>
              </tr>
            </thead>
            <tbody>
              {workers.map((w) => {
                const heldKey = holders?.find((h) => h.worker === w.worker)?.key;
                const shown = w.key ?? heldKey;
                return (
                  <tr
                    key={w.worker}
                    {...(shown
                      ? activateProps(() => navigate({ panel: 'trace', controller: c.name, key: shown }))
                      : {})}
                    className={shown ? 'clickable' : undefined}
                  >
                    <td className="num">{w.worker}</td>
                    <td className="mono">
                      {w.key ??
                        (heldKey ? (
                          <>
                            {heldKey} <Badge tone="warn">held at breakpoint</Badge>
                          </>
                        ) : (
                          <span className="faint">idle</span>
                        ))}
                      {w.busyMs !== undefined && w.busyMs > LONG_RECONCILE_MS && (
                        <>
                          {' '}
                          <Badge tone="warn" title="this reconcile has been running for a long time">
                            long-running
                          </Badge>
                        </>
                      )}
                    </td>
                    <td className="r num dim">
                      {w.busyMs !== undefined
                        ? fmtDuration(w.busyMs)
                        : heldKey
                          ? 'waiting for Next'
                          : w.idleMs !== undefined
                            ? `idle ${fmtDuration(w.idleMs)}`
                            : ''}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Card>
        <Card title="Handlers & predicates" flush>
          <DataTable
            rows={handlers}
            empty="No handler event yet."
            head={
              <>
                <th>handler</th>
                <th className="r">events</th>
                <th className="r">filtered</th>
                <th className="r">enqueued</th>
              </>
            }
          >
            {(h) => (
              <tr key={h.handler}>
                <td className="mono">
                  <span className="trunc" style={{ maxWidth: 150 }} title={h.handler}>
                    {h.handler}
                  </span>
                </td>
                <td className="r num">{fmtCount(h.events)}</td>
                <td className="r num" title={h.lastFilteredBy ? `last by ${h.lastFilteredBy}` : undefined}>
                  {fmtCount(h.filtered)}
                </td>
                <td className="r num">{fmtCount(h.enqueued)}</td>
              </tr>
            )}
          </DataTable>
        </Card>
        <Card title="Client calls" right={<span className="dim">{fmtCount(c.client.cached)} from cache</span>} flush>
          {requests.length === 0 ? (
            <Empty>No client call yet.</Empty>
          ) : (
            <table className="data">
              <thead>
                <tr>
                  <th>verb</th>
                  <th className="r">calls</th>
                </tr>
              </thead>
              <tbody>
                {requests.map(([verb, n]) => (
                  <tr key={verb}>
                    <td className="mono">{verb}</td>
                    <td className="r num">{fmtCount(n)}</td>
                  </tr>
                ))}
                <tr>
                  <td className="dim">errors / conflicts</td>
                  <td className="r num" data-testid="client-errors">
                    <span className={c.client.errors ? 'err' : ''}>{fmtCount(c.client.errors)}</span> /{' '}
                    {fmtCount(c.client.conflicts)}
                  </td>
                </tr>
                {/* Reads that found nothing: an answer the reconciler handles (IgnoreNotFound), so not red. */}
                <tr>
                  <td className="dim" title="gets and lists answered 404 NotFound: not errors">
                    reads not found
                  </td>
                  <td className="r num" data-testid="client-not-found">
                    {fmtCount(c.client.notFound ?? 0)}
                  </td>
                </tr>
              </tbody>
            </table>
          )}
        </Card>
      </div>
      <StepControls controller={c.name} focusKey={key?.key} />
      {c.shutDown && <Badge tone="muted">queue shut down</Badge>}
    </div>
  );
}
