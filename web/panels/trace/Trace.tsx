// One key's story: "why did this reconcile run?" (every cause it absorbed, not only the first), what each
// reconcile returned and wrote, and, for a hot loop, the write of its own that re-triggered it each time.
import type { HotLoop, KeyView } from '../../../shared/protocol/view';
import { Card, Empty } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { Badge, Dot, Stat, Stats } from '../../components/Stat';
import { EmptyPage, PageHead } from '../../components/PageHead';
import { TimeSeriesChart } from '../../components/TimeSeriesChart';
import { C, CAUSE_TONE, OUTCOME_TONE, QUEUE_STATE_TONE } from '../../components/colors';
import { fmtClock, fmtClockMs, fmtDuration, fmtPercent } from '../../components/format';
import { navigate } from '../../client/route';
import { controllerNames, focusController, focusKey } from '../focus';
import type { PanelProps } from '../types';
import { fmtMs, fmtMsCountdown } from './format-ms';
import { BackoffHistory } from './BackoffHistory';
import { rateLimiterOf } from '../../../shared/protocol/rate-limits';
import { KeyActions } from './KeyActions';
import { RawEvents } from './RawEvents';
import {
  cadenceSeries,
  describeCause,
  describeWrite,
  groupCauses,
  interestingKeys,
  traceEntries,
  writesForKey,
} from './trace-series';

function HotLoopCard({ h }: { h: HotLoop }) {
  return (
    <Card title={<span className="err">Hot loop detected</span>} testId="hotloop-evidence">
      <p style={{ margin: '0 0 8px' }}>
        The last <b>{h.reconcilesInWindow}</b> reconciles came within {fmtDuration(h.spanMs ?? h.windowMs)} (
        <b>{h.rate.toFixed(1)}/s</b>); <b>{h.selfCount ?? Math.round(h.selfRatio * h.reconcilesInWindow)}</b> of them (
        {fmtPercent(h.selfRatio)}) were re-triggered by this controller's own write, matched exactly by resourceVersion.
        Detected at {fmtClock(h.detectedAt)}.
      </p>
      <DataTable
        rows={h.evidence.slice().reverse()}
        empty="No write could be matched to the triggering events."
        head={
          <>
            <th>reconcile at</th>
            <th>own write</th>
            <th>came back as</th>
            <th className="r">round trip</th>
          </>
        }
      >
        {(e) => (
          <tr key={e.seq}>
            <td className="num dim">{fmtClockMs(e.ts)}</td>
            <td className="mono">{e.write ? describeWrite(e.write) : '–'}</td>
            <td className="mono">{describeCause(e.cause)}</td>
            <td className="r num">{e.write ? fmtMs(e.ts - e.write.ts) : '–'}</td>
          </tr>
        )}
      </DataTable>
      <p className="dim" style={{ margin: '8px 0 0', fontSize: 12 }}>
        Usual fixes: skip the write when nothing changed, add a GenerationChangedPredicate, or compare before updating
        status.
      </p>
    </Card>
  );
}

function PendingCard({ k, now }: { k: KeyView; now: number }) {
  const groups = groupCauses(k.pendingCauses);
  return (
    <Card title="Now" right={<Badge tone={QUEUE_STATE_TONE[k.state]}>{k.state}</Badge>}>
      <dl className="kv">
        <dt>state</dt>
        <dd>
          {k.state} for {fmtMs(now - k.stateSince)}
          {k.dirty ? ' · dirty (will run again after this reconcile)' : ''}
        </dd>
        <dt>next retry</dt>
        <dd className={k.nextRetryAt && k.nextRetryAt > now ? 'warn' : undefined}>
          {k.nextRetryAt ? `${fmtMsCountdown(k.nextRetryAt, now)} (at ${fmtClockMs(k.nextRetryAt)})` : '—'}
          {k.nextRetryAt && k.requeues > 0 ? (
            <span className="dim">
              {' '}
              · backoff: attempt {k.requeues + 1} after {k.requeues} rate-limited{' '}
              {k.requeues === 1 ? 'requeue' : 'requeues'}
            </span>
          ) : null}
        </dd>
        <dt>pending causes</dt>
        <dd>
          {groups.length === 0 ? (
            <span className="faint">none: nothing will trigger the next reconcile yet</span>
          ) : (
            <span className="toolbar">
              {groups.map((g) => (
                <Badge key={g.label} tone={CAUSE_TONE[g.type]}>
                  {g.label}
                  {g.count > 1 ? ` ×${g.count}` : ''}
                </Badge>
              ))}
              {k.pendingCausesDropped > 0 && <span className="dim">+{k.pendingCausesDropped} more</span>}
            </span>
          )}
        </dd>
      </dl>
    </Card>
  );
}

export function Trace({ view, route, now }: PanelProps) {
  const c = focusController(view, route, 'trouble');
  const k = focusKey(c, route);
  if (!c || !k) {
    return (
      <EmptyPage testId="panel-trace" title="Trace" card="Key">
        No key has been enqueued yet. Pick one in the workqueue once the controller receives events.
      </EmptyPage>
    );
  }
  const entries = traceEntries(k);
  const writes = writesForKey(c, k.key);
  const keys = interestingKeys(c);
  if (!keys.includes(k.key)) keys.unshift(k.key);
  return (
    <div className="page" data-testid="panel-trace">
      <PageHead
        title={k.key}
        titleClassName="mono"
        sub="every cause each reconcile absorbed, its result and its writes"
        actions={<KeyActions controller={c.name} objectKey={k.key} />}
        focus={{ panel: 'trace', field: 'controller', value: c.name, options: controllerNames(view) }}
      >
        <label className="toolbar dim" style={{ fontSize: 12 }}>
          key
          <select
            className="sel"
            value={k.key}
            data-testid="select-key"
            onChange={(e) => navigate({ panel: 'trace', controller: c.name, key: e.target.value })}
          >
            {keys.map((x) => (
              <option key={x} value={x}>
                {x}
                {c.keys[x]?.hotLoop ? ' (hot loop)' : ''}
              </option>
            ))}
          </select>
        </label>
      </PageHead>
      <Stats>
        <Stat label="Reconciles" value={k.reconciles} hint={`${k.history.length} kept below`} />
        <Stat label="Adds" value={k.adds} hint="incl. de-duplicated" />
        <Stat
          label="Requeues"
          value={k.requeues}
          tone={k.requeues > 0 ? 'warn' : undefined}
          hint={k.requeues > 0 && k.state === 'idle' ? 'numRequeues · no retry pending' : 'numRequeues'}
        />
        <Stat
          label="Last result"
          value={k.lastReconcile?.outcome ?? (k.lastReconcile ? 'running' : '–')}
          tone={k.lastReconcile?.outcome ? OUTCOME_TONE[k.lastReconcile.outcome] : undefined}
          hint={k.lastReconcile?.durationMs !== undefined ? fmtMs(k.lastReconcile.durationMs) : undefined}
        />
        <Stat
          label="Self-caused"
          value={k.history.filter((r) => r.selfCaused).length}
          hint="of the kept reconciles"
          tone={k.hotLoop ? 'err' : undefined}
        />
      </Stats>
      {k.hotLoop && <HotLoopCard h={k.hotLoop} />}
      <div className="grid wide-left">
        <PendingCard k={k} now={now} />
        <Card title="Reconcile cadence">
          <TimeSeriesChart
            data={cadenceSeries(k)}
            series={[
              { key: 'reconciles', label: 'reconciles', color: C.ok, kind: 'bar', stack: 'a' },
              { key: 'selfCaused', label: 'self-caused', color: C.err, kind: 'bar', stack: 'b' },
              { key: 'failed', label: 'failed', color: C.warn, kind: 'bar', stack: 'b' },
            ]}
            height={110}
            legendValues={false}
          />
        </Card>
      </div>
      <BackoffHistory k={k} now={now} limiter={rateLimiterOf(c)} />
      <Card title="Reconciles" right={<span className="dim">newest first</span>} testId="trace-timeline">
        {entries.length === 0 ? (
          <Empty>This key has not been reconciled yet.</Empty>
        ) : (
          <div className="timeline">
            {entries.map(({ rec, causes, sincePrevMs }) => (
              <div className="tl-item" key={rec.seq}>
                <div className="tl-time">
                  {fmtClockMs(rec.startTs)}
                  {sincePrevMs !== undefined && <div className="faint">+{fmtMs(sincePrevMs)}</div>}
                </div>
                <div className="tl-rail">
                  <Dot
                    tone={
                      rec.outcome
                        ? OUTCOME_TONE[rec.outcome] === 'ok'
                          ? 'ok'
                          : OUTCOME_TONE[rec.outcome] === 'err'
                            ? 'err'
                            : 'info'
                        : 'warn'
                    }
                  />
                </div>
                <div className="tl-body">
                  <div className="toolbar">
                    {rec.outcome ? (
                      <Badge tone={OUTCOME_TONE[rec.outcome]}>{rec.outcome}</Badge>
                    ) : rec.interrupted ? (
                      <Badge tone="warn" title="its process ended before it did: it never finished">
                        interrupted
                      </Badge>
                    ) : (
                      <Badge tone="warn">running</Badge>
                    )}
                    {rec.durationMs !== undefined && <span className="num">{fmtMs(rec.durationMs)}</span>}
                    <span className="dim">
                      attempt {rec.attempt} · worker {rec.worker} · {rec.writes} write{rec.writes === 1 ? '' : 's'}
                    </span>
                    {rec.selfCaused && <Badge tone="err">self-caused</Badge>}
                    {rec.requeueAfterMs !== undefined && (
                      <span className="dim">requeueAfter {fmtMs(rec.requeueAfterMs)}</span>
                    )}
                  </div>
                  {rec.error && (
                    <div className="err mono" style={{ marginTop: 3 }}>
                      {rec.error}
                    </div>
                  )}
                  <div className="causes">
                    <span className="dim" style={{ fontSize: 11 }}>
                      {rec.causes.length + rec.causesDropped} cause
                      {rec.causes.length + rec.causesDropped === 1 ? '' : 's'}:
                    </span>
                    {causes.length === 0 && <span className="faint">unknown (enqueued before the probe saw it)</span>}
                    {causes.map((g) => (
                      <span key={`${g.label}|${g.writer?.text ?? ''}|${g.writer?.how ?? ''}`} className="cause">
                        <Badge tone={g.self ? 'err' : CAUSE_TONE[g.type]}>
                          {g.label}
                          {g.count > 1 ? ` ×${g.count}` : ''}
                        </Badge>
                        {g.writer && (
                          <span
                            className={`writer writer-${g.writer.how}`}
                            title={g.writer.why}
                            data-testid="cause-writer"
                          >
                            {g.writer.text} · {g.writer.how}
                          </span>
                        )}
                      </span>
                    ))}
                    {rec.causesDropped > 0 && <span className="dim">+{rec.causesDropped} more</span>}
                  </div>
                  {rec.selfCause && (
                    <div className="dim" style={{ marginTop: 3, fontSize: 11.5 }}>
                      ↳ triggered by its own write at {fmtClockMs(rec.selfCause.write.ts)}:{' '}
                      {describeWrite(rec.selfCause.write)}
                    </div>
                  )}
                </div>
              </div>
            ))}
          </div>
        )}
      </Card>
      <RawEvents controller={c.name} objectKey={k.key} />
      <Card title="Writes to this object" flush>
        <DataTable
          rows={writes}
          empty="No write by this controller to this object is remembered."
          head={
            <>
              <th>time</th>
              <th>write</th>
              <th>while reconciling</th>
            </>
          }
        >
          {(w) => (
            <tr key={w.seq}>
              <td className="num dim">{fmtClockMs(w.ts)}</td>
              <td className={`mono ${w.error ? 'err' : ''}`}>{describeWrite(w)}</td>
              <td className="mono dim">{w.key ?? '–'}</td>
            </tr>
          )}
        </DataTable>
      </Card>
    </div>
  );
}
