// Teaching mode: each building block explained in a few sentences, beside the live numbers of the same
// block in this process, and one object's real journey through all of them.
import { failedReconciles } from '../../../shared/protocol/reconcile-outcomes';
import type { ReactNode } from 'react';
import { Card, Empty } from '../../components/Card';
import { PageHead } from '../../components/PageHead';
import { Badge } from '../../components/Stat';
import { fmtClockMs, fmtCount, fmtDuration, fmtRate } from '../../components/format';
import { navigate } from '../../client/route';
import type { PanelId } from '../../client/route';
import { histogramQuantile } from '../controller/controller-series';
import { focusController, focusInformer, seriesRate } from '../focus';
import type { PanelProps } from '../types';
import { latestJourney } from './learn-series';

function Block({
  n,
  title,
  panel,
  children,
  live,
  missing,
}: {
  n: number;
  title: string;
  panel: PanelId;
  children: ReactNode;
  /** Facts (dt/dd pairs) from this process; undefined while the block has not started. */
  live: ReactNode;
  /** Said instead of the facts while live is undefined. */
  missing?: string;
}) {
  return (
    <Card
      title={`${n}. ${title}`}
      right={
        <a href="#" onClick={(e) => (e.preventDefault(), navigate({ panel }))}>
          open panel →
        </a>
      }
    >
      <div className="learn-block">
        <div className="learn-text">{children}</div>
        <dl className="kv">{live ?? <dd>{missing}</dd>}</dl>
      </div>
    </Card>
  );
}

export function Learn({ view, route }: PanelProps) {
  const inf = focusInformer(view, route);
  const c = focusController(view, route, 'healthy');
  const journey = latestJourney(view.log, c?.name, new Set(c?.hotLoops.map((h) => h.key)));
  const w = view.limits.rateWindowMs;
  const p50 = c ? histogramQuantile(c.histogram, 0.5) : undefined;
  return (
    <div className="page" data-testid="panel-learn">
      <PageHead
        title="Learn: how a controller works"
        sub={
          <>
            each block of client-go and controller-runtime, with the live numbers of{' '}
            {inf ? <b>{inf.id}</b> : 'the informer'} and {c ? <b>{c.name}</b> : 'the controller'} beside it
          </>
        }
      />
      <Card
        title="Follow one object, live"
        right={journey ? <span className="mono">{journey.key}</span> : undefined}
        testId="journey"
      >
        {!journey ? (
          <Empty>Waiting for a reconcile to finish…</Empty>
        ) : (
          <table className="data">
            <tbody>
              {journey.steps.map((s) => (
                <tr key={s.seq}>
                  <td className="num dim" style={{ width: 110 }}>
                    {fmtClockMs(s.ts)}
                  </td>
                  <td style={{ width: 100 }}>
                    <Badge
                      tone={
                        s.block === 'Reconciler'
                          ? 'ok'
                          : s.block === 'Workqueue' || s.block === 'Worker'
                            ? 'info'
                            : s.block === 'Client'
                              ? 'warn'
                              : 'purple'
                      }
                    >
                      {s.block}
                    </Badge>
                  </td>
                  <td className="wrap">{s.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <Block
        n={0}
        title="Manager, cache and client"
        panel="overview"
        live={
          <>
            <dt>manager</dt>
            <dd>
              {view.manager
                ? `${view.manager.phase}${view.manager.error ? ` (${view.manager.error})` : ''}`
                : 'not reported'}
            </dd>
            <dt>informers (one per kind)</dt>
            <dd>{Object.keys(view.informers).join(', ') || '–'}</dd>
            <dt>controllers</dt>
            <dd>{Object.keys(view.controllers).join(', ') || '–'}</dd>
            {c && (
              <>
                <dt>{c.name}: reads from cache</dt>
                <dd>
                  {fmtCount(c.client.cached)} of {fmtCount(Object.values(c.client.requests).reduce((s, n) => s + n, 0))}{' '}
                  calls
                </dd>
              </>
            )}
            {Object.values(view.leaders).map((l) => (
              <span key={l.lease} style={{ display: 'contents' }}>
                <dt>leader lease {l.lease}</dt>
                <dd>
                  {l.phase}
                  {l.holder ? ` (held by ${l.holder})` : ''}
                </dd>
              </span>
            ))}
          </>
        }
      >
        <p>
          <code>NewManager</code> builds everything from one <code>rest.Config</code> (server URL, credentials, QPS): an
          HTTP client, a REST mapper (kind → URL), a <b>cache</b> that starts one shared informer per kind on first use,
          a <b>client</b> that reads from that cache and writes straight to the API server, and an uncached API reader.
        </p>
        <p>
          <code>NewControllerManagedBy(mgr).For(&amp;Pod{'{}'})</code> asks the cache for the Pod informer, registers a
          handler that turns every Pod event into a{' '}
          <code>
            Request{'{'}namespace, name{'}'}
          </code>
          , and gives the controller its own workqueue and workers. <code>mgr.Start</code> starts caches first, waits
          for them to sync, then the controllers.
        </p>
      </Block>
      <Block
        n={1}
        title="Reflector"
        panel="reflector"
        missing="no informer yet"
        live={
          inf && (
            <>
              <dt>state</dt>
              <dd>{inf.state}</dd>
              <dt>last resourceVersion</dt>
              <dd>{inf.lastResourceVersion ?? '–'}</dd>
              <dt>watch events</dt>
              <dd>
                {fmtCount(inf.counters.watchEvents)} ({fmtRate(seriesRate(inf.series, 'watchEvents', w))})
              </dd>
              <dt>relists · 410s</dt>
              <dd>
                {inf.counters.relists} · {inf.counters.expired}
              </dd>
            </>
          )
        }
      >
        <p>
          The reflector is the only part that talks to the API server. It first <code>LIST</code>s every object of one
          kind, then opens a <code>WATCH</code> starting at the list’s <code>resourceVersion</code>, so no change
          between the two is lost.
        </p>
        <p>
          If the server has compacted that version away, the watch ends with <code>410 Gone</code> and the reflector
          lists again (a relist). On errors it backs off before retrying. Bookmarks only move its resourceVersion
          forward.
        </p>
      </Block>
      <Block
        n={2}
        title="DeltaFIFO"
        panel="delta-fifo"
        missing="no informer yet"
        live={
          inf && (
            <>
              <dt>queued keys</dt>
              <dd>{fmtCount(inf.fifoLength)}</dd>
              <dt>deltas · pops</dt>
              <dd>
                {fmtCount(Object.values(inf.counters.deltas).reduce((s, n) => s + n, 0))} ·{' '}
                {fmtCount(inf.counters.pops)}
              </dd>
              <dt>tombstones</dt>
              <dd>{inf.counters.tombstones}</dd>
            </>
          )
        }
      >
        <p>
          Every change becomes a <i>delta</i> (Added, Updated, Deleted, Replaced, Sync) appended to a per-object list.
          The queue holds each key once, so three quick updates to one Pod are processed together, in order.
        </p>
        <p>
          A relist delivers all objects as <code>Replaced</code>, and objects that disappeared while nobody watched as{' '}
          <code>Deleted</code> tombstones (<code>DeletedFinalStateUnknown</code>).
        </p>
        <p>
          Newer client-go can use <code>RealFIFO</code> instead: every change stays a separate entry, in arrival order,
          with no merging per key. {inf ? `This informer uses ${inf.fifo ?? 'DeltaFIFO'}.` : ''}
        </p>
      </Block>
      <Block
        n={3}
        title="Indexer"
        panel="indexer"
        missing="no informer yet"
        live={
          inf && (
            <>
              <dt>objects cached</dt>
              <dd>{fmtCount(inf.storeSize)}</dd>
              <dt>synced</dt>
              <dd>{inf.synced ? `yes, in ${fmtDuration(inf.syncDurationMs)}` : 'not yet'}</dd>
            </>
          )
        }
      >
        <p>
          Popping a key applies its deltas to the indexer: a thread-safe map from <code>namespace/name</code> to the
          latest object, with optional secondary indexes (by namespace, by owner…). This is the controller’s own view of
          the cluster: <code>client.Get</code> and <code>List</code> read from here, not from the API server.
        </p>
        <p>
          “Has synced” means the first list has been fully applied. Controllers wait for it before starting workers.
        </p>
      </Block>
      <Block
        n={4}
        title="Handlers and predicates"
        panel="controller"
        missing="no controller yet"
        live={
          c && (
            <>
              <dt>handler events</dt>
              <dd>{fmtCount(Object.values(c.handlers).reduce((s, h) => s + h.events, 0))}</dd>
              <dt>filtered by predicates</dt>
              <dd>{fmtCount(Object.values(c.handlers).reduce((s, h) => s + h.filtered, 0))}</dd>
            </>
          )
        }
      >
        <p>
          After updating the cache the informer calls each registered handler with <code>OnAdd</code>,{' '}
          <code>OnUpdate</code> or <code>OnDelete</code>. Predicates may drop the event; the handler turns what is left
          into requests: the object’s own key (<code>For</code>), its owner’s key (<code>Owns</code>), or keys computed
          by a map function (<code>Watches</code>).
        </p>
      </Block>
      <Block
        n={5}
        title="Workqueue"
        panel="workqueue"
        missing="no controller yet"
        live={
          c && (
            <>
              <dt>ready · waiting · processing</dt>
              <dd>
                {c.depth.ready} · {c.depth.waiting} · {c.depth.processing}
              </dd>
              <dt>adds · de-duplicated</dt>
              <dd>
                {fmtCount(c.adds)} · {fmtCount(c.dedupedAdds)}
              </dd>
              <dt>retries</dt>
              <dd>{fmtCount(c.retries)}</dd>
            </>
          )
        }
      >
        <p>
          Requests wait here, identified only by <code>namespace/name</code>. A key already waiting is not added twice;
          a key being processed is marked <i>dirty</i> and runs once more afterwards. One key is never given to two
          workers at once.
        </p>
        <p>
          Failed keys come back later through the rate limiter: an exponential per-key backoff (5ms, 10ms, 20ms… up to
          1000s) combined with an overall token bucket.
        </p>
      </Block>
      <Block
        n={6}
        title="Workers and Reconcile"
        panel="controller"
        missing="no controller yet"
        live={
          c && (
            <>
              <dt>workers busy</dt>
              <dd>
                {c.activeWorkers}/{c.workers}
              </dd>
              <dt>reconciles</dt>
              <dd>
                {fmtCount(c.totalReconciles)} ({fmtRate(c.reconcilesPerSecond)})
              </dd>
              <dt>median duration</dt>
              <dd>{fmtDuration(p50 !== undefined ? p50 * 1000 : undefined)}</dd>
              <dt>errors</dt>
              <dd>{fmtCount(failedReconciles(c.reconciles))}</dd>
            </>
          )
        }
      >
        <p>
          Each worker loops: take a key, call <code>Reconcile(ctx, Request)</code>, then report back. The reconciler is
          told only the key, not what changed: it reads the current state from the cache and makes the world match it.
        </p>
        <p>
          Returning an error requeues the key with backoff; <code>RequeueAfter</code> brings it back after a fixed
          delay; success calls <code>Forget</code>, resetting its backoff.
        </p>
      </Block>
      <Block
        n={7}
        title="The loop closes"
        panel="trace"
        missing="no controller yet"
        live={
          c && (
            <>
              <dt>writes by this controller</dt>
              <dd>{fmtCount(Object.values(c.client.requests).reduce((s, n) => s + n, 0) - c.client.cached)}</dd>
              <dt>hot loops now</dt>
              <dd className={c.hotLoops.length ? 'err' : undefined}>{c.hotLoops.length}</dd>
            </>
          )
        }
      >
        <p>
          Writes go straight to the API server, and come back through the watch as new events, which may enqueue the
          same key again. When a reconcile keeps changing the object it watches (for example rewriting status every
          time), that is a <b>hot loop</b>: the trace panel shows the write behind each re-trigger.
        </p>
      </Block>
    </div>
  );
}
