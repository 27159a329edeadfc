// The map a learner sees first: every informer and controller as live boxes, wired left to right in the
// order data flows, with counts in the boxes and rates on the arrows. Every box opens its panel.
import type { ReactNode } from 'react';
import type { NotableEntry } from '../../../shared/protocol/view';
import { Card, Empty } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { PageHead } from '../../components/PageHead';
import { Badge, Stat, Stats } from '../../components/Stat';
import { TimeSeriesChart } from '../../components/TimeSeriesChart';
import { C } from '../../components/colors';
import type { Tone } from '../../components/Stat';
import { fmtClock, fmtCount, fmtDuration, fmtRate } from '../../components/format';
import { navigate } from '../../client/route';
import { activateProps } from '../../components/activate';
import type { PanelId, Route } from '../../client/route';
import type { PanelProps } from '../types';
import { FeedLines } from './FeedLines';
import { activitySeries, buildPipeline, feedEdges } from './overview-series';
import type { ControllerLane, InformerLane } from './overview-series';
import type { Liveness } from '../../../shared/protocol/liveness';
import { ManagersStat, Leases } from './Processes';

function Node({
  title,
  main,
  sub,
  tone,
  to,
  testId,
  badge,
  hint,
}: {
  hint?: string;
  title: string;
  main: ReactNode;
  sub?: ReactNode;
  tone?: 'active' | 'warn' | 'err';
  to: Partial<Route> & { panel: PanelId };
  testId?: string;
  badge?: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`node ${tone ?? ''}`}
      onClick={() => navigate(to)}
      data-testid={testId}
      title={hint ?? (typeof sub === 'string' ? sub : undefined)}
    >
      <span className="n-title">
        {title}
        {badge}
      </span>
      <span className="n-main">{main}</span>
      {sub !== undefined && <span className="n-sub">{sub}</span>}
    </button>
  );
}

function Edge({ rate, label }: { rate: number; label?: string }) {
  return (
    <div className={rate > 0 ? 'edge live' : 'edge'} title={label}>
      <span>{fmtRate(rate)}</span>
      <div className="arrow" />
      <span>{label ?? ''}</span>
    </div>
  );
}

/** Gone or stale with its process; nothing for a live part. */
function LivenessBadge({ liveness }: { liveness: Liveness }) {
  if (liveness.state === 'alive') return null;
  return (
    <Badge tone="err" title={liveness.reason} data-testid="liveness">
      {liveness.state === 'gone' ? 'GONE' : 'STALE'}
    </Badge>
  );
}

const STATE_BADGE: Record<string, Tone> = { watching: 'ok', listing: 'info', relisting: 'warn', backoff: 'warn' };

function InformerRow({ lane, feeds }: { lane: InformerLane; feeds: readonly string[] }) {
  const to = { informer: lane.id };
  return (
    <div className="lane-wrap" data-testid={`lane-informer-${lane.id}`}>
      <div className="lane-head" data-feed-informer={lane.id}>
        <b>{lane.id}</b>
        <LivenessBadge liveness={lane.liveness} />
        <span className="dim">
          {' '}
          · {lane.fifo}
          {feeds.length > 0 ? ` · feeds ${feeds.join(', ')}` : ' · feeds no controller'}
        </span>
      </div>
      <div className="lane">
        <Node
          title="API server"
          main={lane.lastResourceVersion ? `rv ${lane.lastResourceVersion}` : '—'}
          sub={`${lane.id} · list+watch`}
          to={{ panel: 'reflector', ...to }}
        />
        <Edge rate={lane.watchRate} label="events" />
        <Node
          title="Reflector"
          main={lane.liveness.state === 'alive' ? lane.state : `${lane.state} (last reported)`}
          badge={
            lane.liveness.state !== 'alive' ? (
              <Badge tone="err" title={lane.liveness.reason}>
                {lane.liveness.state}
              </Badge>
            ) : lane.blockingError ? (
              <Badge tone="err" title="the cache cannot sync until this is fixed">
                {lane.blockingError}
              </Badge>
            ) : (
              <Badge tone={STATE_BADGE[lane.state] ?? 'muted'}>{lane.synced ? 'synced' : 'syncing'}</Badge>
            )
          }
          sub={`${lane.relists} relists · ${lane.expired} × 410 · ${lane.errors} err`}
          tone={
            lane.state === 'backoff' || lane.state === 'relisting'
              ? 'warn'
              : lane.state === 'watching'
                ? 'active'
                : undefined
          }
          to={{ panel: 'reflector', ...to }}
          testId="node-reflector"
        />
        <Edge rate={lane.deltaRate} label="deltas" />
        <Node
          title={lane.fifo}
          main={fmtCount(lane.fifoLength)}
          sub={`${fmtCount(lane.pendingKeys)} keys pending`}
          tone={lane.fifoLength > 100 ? 'warn' : undefined}
          to={{ panel: 'delta-fifo', ...to }}
          testId="node-fifo"
        />
        <Edge rate={lane.popRate} label="pops" />
        <Node
          title="Indexer"
          main={fmtCount(lane.storeSize)}
          sub="objects cached"
          to={{ panel: 'indexer', ...to }}
          testId="node-indexer"
        />
        <Edge rate={lane.popRate * Math.max(1, lane.handlers.length)} label="notify" />
        <Node
          title="Handlers"
          main={lane.handlers.length}
          sub={lane.handlers.join(', ') || 'none registered'}
          to={{ panel: 'controller' }}
        />
      </div>
    </div>
  );
}

function ControllerRow({ lane }: { lane: ControllerLane }) {
  const to = { controller: lane.name };
  const queued = lane.ready + lane.waiting;
  return (
    <div className="lane-wrap" data-testid={`lane-controller-${lane.name}`}>
      <div className="lane-head" data-feed-controller={lane.name}>
        <b>{lane.name}</b>
        <LivenessBadge liveness={lane.liveness} />
        <span className="dim"> · fed by {lane.sources.length > 0 ? lane.sources.join(', ') : 'no informer yet'}</span>
      </div>
      <div className="lane">
        <Node
          title="Sources"
          main={
            lane.sources.length > 0 ? (
              <span title={lane.sources.join(', ')}>
                {lane.sources.map((g) => g.slice(g.lastIndexOf('/') + 1)).join(', ')}
              </span>
            ) : (
              '—'
            )
          }
          sub={`${fmtCount(lane.handlerEvents)} events · ${fmtCount(lane.filtered)} filtered`}
          to={{ panel: 'controller', ...to }}
        />
        <Edge rate={lane.addRate} label="adds" />
        <Node
          title="Workqueue"
          main={
            <>
              {fmtCount(queued)}
              <span className="dim" style={{ fontSize: 11 }}>
                {' '}
                ready {lane.ready} · wait {lane.waiting}
              </span>
            </>
          }
          sub={`${fmtCount(lane.dedupedAdds)} adds de-duplicated`}
          tone={lane.waiting > 0 ? 'warn' : undefined}
          to={{ panel: 'workqueue', ...to }}
          testId="node-workqueue"
        />
        <Edge rate={lane.reconcileRate} label="gets" />
        <Node
          title="Workers"
          main={`${lane.activeWorkers}/${lane.workers}`}
          sub={`${lane.processing} processing`}
          tone={lane.activeWorkers > 0 ? 'active' : undefined}
          to={{ panel: 'controller', ...to }}
        />
        <Edge rate={lane.reconcileRate} label="reconciles" />
        <Node
          title="Reconciler"
          main={fmtRate(lane.reconcileRate)}
          badge={
            lane.liveness.state !== 'alive' ? (
              <Badge tone="err" title={lane.liveness.reason}>
                {lane.liveness.state}
              </Badge>
            ) : lane.hotLoops > 0 ? (
              <Badge tone="err">hot loop</Badge>
            ) : lane.errors > 0 ? (
              <Badge tone="warn">{fmtCount(lane.errors)} err</Badge>
            ) : (
              <Badge tone="muted">{lane.phase}</Badge>
            )
          }
          sub={`p50 ${fmtDuration(lane.p50Ms)} · p99 ${fmtDuration(lane.p99Ms)}`}
          tone={lane.hotLoops > 0 ? 'err' : lane.errors > 0 ? 'warn' : undefined}
          to={lane.hotLoops > 0 ? { panel: 'trace', ...to } : { panel: 'controller', ...to }}
          testId="node-reconciler"
        />
      </div>
    </div>
  );
}

const PALETTE = [C.ok, C.info, C.purple, C.teal, C.orange, C.pink, C.warn];

const LEVEL_TONE: Record<NotableEntry['level'], Tone> = { info: 'info', warn: 'warn', error: 'err' };

export function NotableList({ entries, limit = 14 }: { entries: readonly NotableEntry[]; limit?: number }) {
  const shown = entries.slice(-limit).reverse();
  return (
    <DataTable rows={shown} empty="Nothing notable yet: no errors, 410s, relists or hot loops." scroll={330}>
      {(n) => (
        <tr
          key={n.seq}
          {...(n.key && n.controller
            ? activateProps(() => navigate({ panel: 'trace', controller: n.controller, key: n.key }))
            : n.informer
              ? activateProps(() => navigate({ panel: 'reflector', informer: n.informer }))
              : {})}
          className={n.informer || (n.key && n.controller) ? 'clickable' : undefined}
        >
          <td className="num dim">{fmtClock(n.ts)}</td>
          <td>
            <Badge tone={LEVEL_TONE[n.level]}>{n.kind}</Badge>
          </td>
          <td className="wrap">{n.text}</td>
        </tr>
      )}
    </DataTable>
  );
}

export function Overview({ view, now }: PanelProps) {
  const p = buildPipeline(view, now);
  const t = p.totals;
  const edges = feedEdges(p);
  return (
    <div className="page" data-testid="panel-overview">
      <PageHead
        title="Pipeline"
        sub="API server → reflector → FIFO (DeltaFIFO or RealFIFO) → indexer → handlers → workqueue → workers → reconciler"
      />
      <Stats>
        <Stat
          label="Informers synced"
          value={`${t.synced}/${t.informers}`}
          tone={t.synced < t.informers ? 'warn' : 'ok'}
        />
        <Stat label="Controllers" value={t.controllers} />
        <Stat label="Reconciles / s" value={fmtRate(t.reconcileRate).replace('/s', '')} />
        <Stat label="Queued keys" value={fmtCount(t.queued)} hint={`${fmtCount(t.keys)} keys tracked`} />
        <Stat label="Reconcile errors" value={fmtCount(t.errors)} tone={t.errors > 0 ? 'warn' : undefined} />
        <Stat label="Hot loops" value={t.hotLoops} tone={t.hotLoops > 0 ? 'err' : undefined} />
        <Stat label="Events seen" value={fmtCount(view.eventCount)} hint={`seq ${view.lastSeq}`} />
        <ManagersStat view={view} />
      </Stats>
      <Leases view={view} />
      <FeedLines edges={edges}>
        <Card title="Informers" right={<span className="dim">one shared informer per GVK</span>}>
          {p.informers.length === 0 ? (
            <Empty>No informer has started yet. They appear as soon as the manager starts its caches.</Empty>
          ) : (
            <div className="pipeline">
              {p.informers.map((l) => (
                <InformerRow
                  key={l.id}
                  lane={l}
                  feeds={edges.filter((e) => e.informer === l.id).map((e) => e.controller)}
                />
              ))}
            </div>
          )}
        </Card>
        <Card title="Controllers" right={<span className="dim">events → requests → reconciles</span>}>
          {p.controllers.length === 0 ? (
            <Empty>No controller registered yet.</Empty>
          ) : (
            <div className="pipeline">
              {p.controllers.map((l) => (
                <ControllerRow key={l.name} lane={l} />
              ))}
            </div>
          )}
        </Card>
      </FeedLines>
      <Card title="Activity" right={<span className="dim">reconciles per second by controller · watch events</span>}>
        <TimeSeriesChart
          data={activitySeries(view)}
          series={[
            ...p.controllers.map((c, i) => ({
              key: c.name,
              label: c.name,
              color: PALETTE[i % PALETTE.length] as string,
            })),
            { key: 'watchEvents', label: 'watch events', color: C.grey },
          ]}
          height={120}
        />
      </Card>
      <Card title="Notable" right={<span className="dim">errors · 410s · relists · hot loops · lifecycle</span>} flush>
        <NotableList entries={view.notable} />
      </Card>
    </div>
  );
}
