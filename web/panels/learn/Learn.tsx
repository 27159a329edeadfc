// Teaching mode: each building block explained in a few sentences, beside the live numbers of the same
// block in this process, and one object's real journey through all of them.
import { failedReconciles } from '../../../shared/protocol/reconcile-outcomes';
import { rateLimiterOf } from '../../../shared/protocol/rate-limits';
import { writeCount } from '../../../shared/protocol/reduce-writes';
import { LimiterSentence, queueLabel } from '../../components/QueueKind';
import { ListStory, listMethodLabel } from '../../components/ListMethod';
import { Card, Empty } from '../../components/Card';
import { PageHead } from '../../components/PageHead';
import { Badge } from '../../components/Stat';
import { fmtClockMs, fmtCount, fmtDuration, fmtRate } from '../../components/format';
import { histogramQuantile } from '../controller/controller-series';
import { focusController, focusInformer, seriesRate } from '../focus';
import type { PanelProps } from '../types';
import { Block } from './Block';
import { latestJourney } from './learn-series';
import { BuilderBlock, ConfigBlock, InformerIsBlock, ManagerBuildsBlock, ResultsBlock } from './LearnSeed';

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
          <>
            <p className="dim" style={{ margin: '0 0 8px', fontSize: 12 }}>
              One reconcile, walked back to the change that started it: the API server’s watch event (or the list that
              delivered it), the FIFO, the indexer, the handler, the queue, the worker, then the reconciler’s reads
              (answered by the cache) and its writes (sent to the API server). Every step is an event that happened to
              that object at that resourceVersion; a step the log no longer holds is left out.
            </p>
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
          </>
        )}
      </Card>
      <ConfigBlock n={1} />
      <ManagerBuildsBlock n={2} view={view} />
      <Block
        n={3}
        title="Reflector"
        panel="reflector"
        missing="no informer yet"
        live={
          inf && (
            <>
              <dt>state</dt>
              <dd>{inf.state}</dd>
              <dt>initial state from</dt>
              <dd>{listMethodLabel(inf.listMethod)}</dd>
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
          The reflector is the only part that talks to the API server, for one kind of object.{' '}
          <ListStory method={inf?.listMethod} />
        </p>
        <p>
          If the server has compacted the version it watches from, the watch ends with <code>410 Gone</code> and the
          reflector gets the whole state again (a relist, the same way). On errors it backs off before retrying.
          Bookmarks only move its resourceVersion forward.
        </p>
      </Block>
      <Block
        n={4}
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
        n={5}
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
        n={6}
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
      <InformerIsBlock n={7} inf={inf} />
      <BuilderBlock n={8} view={view} />
      <Block
        n={9}
        title="Workqueue"
        panel="workqueue"
        missing="no controller yet"
        live={
          c && (
            <>
              <dt>queue</dt>
              <dd>{queueLabel(c.queueKind)}</dd>
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
          Failed keys come back later through the rate limiter.{' '}
          {c ? (
            <LimiterSentence limiter={rateLimiterOf(c)} />
          ) : (
            'Which one depends on the queue the controller runs on.'
          )}
        </p>
      </Block>
      <Block
        n={10}
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
      <ResultsBlock n={11} view={view} />
      <Block
        n={12}
        title="The loop closes"
        panel="trace"
        missing="no controller yet"
        live={
          c && (
            <>
              <dt>writes by this controller</dt>
              <dd>{fmtCount(writeCount(c))}</dd>
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
