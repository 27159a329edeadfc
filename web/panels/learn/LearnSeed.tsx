// The Learn panel's blocks about how a controller is put together, each beside live facts from this
// process: where the config comes from, what NewManager builds, what an informer is made of, the builder's
// For / Owns / Watches on real events, and what each reconcile result does to the key.
import { RECONCILE_OUTCOMES, RESULT_HANDLING } from '../../../shared/protocol/reconcile-outcomes';
import type { ReconcileOutcome } from '../../../shared/protocol/reconcile-outcomes';
import type { ControllerView, InformerView, RuntimeView } from '../../../shared/protocol/view';
import { Badge } from '../../components/Stat';
import { activateProps } from '../../components/activate';
import { fmtCount } from '../../components/format';
import { useStoreState } from '../../client/hooks';
import { navigate } from '../../client/route';
import { Block } from './Block';
import { wiringParts, wiringReported } from '../controller/wiring';
import { builderExample } from './learn-series';
import type { BuilderExample } from './learn-series';

const CONFIG_ORDER: readonly { source: string; how: string }[] = [
  { source: '--kubeconfig', how: 'the flag, when the program was given one' },
  { source: 'KUBECONFIG', how: 'the environment variable (a list of files, merged)' },
  { source: 'in-cluster', how: 'the service account a pod has mounted, and the KUBERNETES_SERVICE_* variables' },
  { source: '~/.kube/config', how: 'the file in your home directory' },
];

export function ConfigBlock({ n }: { n: number }) {
  const cluster = useStoreState((s) => s.server?.cluster);
  return (
    <Block
      n={n}
      title="Config: how the program finds the API server"
      panel="overview"
      missing="not connected"
      live={
        cluster && (
          <>
            <dt>this process talks to</dt>
            <dd>
              {cluster.kind === 'sandbox'
                ? 'the embedded sandbox API server (its config was made in-process)'
                : cluster.kind === 'envtest'
                  ? 'a real kube-apiserver started by envtest'
                  : cluster.kind === 'kubeconfig'
                    ? `a kubeconfig context${cluster.name ? ` “${cluster.name}”` : ''}`
                    : cluster.kind}
            </dd>
            {cluster.server && (
              <>
                <dt>server URL</dt>
                <dd className="mono">{cluster.server}</dd>
              </>
            )}
            <dt>writes</dt>
            <dd>{cluster.writable ? 'allowed' : 'refused (read-only)'}</dd>
          </>
        )
      }
    >
      <p>
        Everything starts from one <code>rest.Config</code>: the server URL, the credentials (a token or client
        certificates), the CA bundle that proves the server is who it says, and client-side limits (QPS, burst).{' '}
        <code>GetConfigOrDie()</code> looks for it in this order and takes the first it finds:
      </p>
      <ol className="learn-list" data-testid="config-order">
        {CONFIG_ORDER.map((c) => (
          <li key={c.source}>
            <code>{c.source}</code> — {c.how}
          </li>
        ))}
      </ol>
      <p>So the same binary runs on a laptop (your kubeconfig) and in a pod (its service account) unchanged.</p>
    </Block>
  );
}

function totalRequests(c: ControllerView): number {
  return Object.values(c.client.requests).reduce((s, n) => s + n, 0);
}

export function ManagerBuildsBlock({ n, view }: { n: number; view: RuntimeView }) {
  const informers = Object.values(view.informers);
  const controllers = Object.values(view.controllers);
  const cached = controllers.reduce((s, c) => s + c.client.cached, 0);
  const all = controllers.reduce((s, c) => s + totalRequests(c), 0);
  // A WatchList sync is one request that stays open as the watch: its list bracket and its watch are one.
  const listsWatches = informers.reduce(
    (s, i) => s + (i.listMethod === 'watchList' ? 0 : i.counters.lists) + i.counters.watches,
    0,
  );
  return (
    <Block
      n={n}
      title="What NewManager builds"
      panel="overview"
      live={
        <>
          <dt>manager</dt>
          <dd>{view.manager ? `${view.manager.phase}${view.manager.error ? ` (${view.manager.error})` : ''}` : '–'}</dd>
          <dt>HTTP client: lists + watches opened (a WatchList stream is one)</dt>
          <dd>{fmtCount(listsWatches)}</dd>
          <dt>REST mapper: kinds resolved to URLs</dt>
          <dd>{informers.map((i) => i.id).join(', ') || '–'}</dd>
          <dt>cache: informers (synced)</dt>
          <dd>
            {informers.length} ({informers.filter((i) => i.synced).length} synced)
          </dd>
          <dt>client: reads from cache · sent to the API server</dt>
          <dd>
            {fmtCount(cached)} · {fmtCount(all - cached)}
          </dd>
          <dt>API reader</dt>
          <dd>uncached: the Indexer’s “compare with the API server” lists through it</dd>
        </>
      }
    >
      <p>
        <code>NewManager(cfg, opts)</code> turns that config into a cluster object with five parts, which every
        controller of the manager shares:
      </p>
      <ul className="learn-list" data-testid="manager-builds">
        <li>
          an <b>HTTP client</b>, which owns the connections to the API server;
        </li>
        <li>
          a <b>REST mapper</b>, which turns a kind (group, version, kind) into the URL path of its resource;
        </li>
        <li>
          a <b>cache</b>: a registry of informers, one per kind, started the first time someone needs that kind;
        </li>
        <li>
          a <b>client</b> that <i>reads from the cache</i> and <i>writes through REST</i> (straight to the API server):{' '}
          <code>Get</code> and <code>List</code> never leave the process, <code>Create</code>, <code>Update</code>,{' '}
          <code>Patch</code> and <code>Delete</code> always do;
        </li>
        <li>
          an <b>API reader</b>: a client with no cache, for the rare read that must be fresh.
        </li>
      </ul>
      <p>
        <code>mgr.Start</code> starts the cache first, waits until every informer has synced, then starts the
        controllers.
      </p>
    </Block>
  );
}

export function InformerIsBlock({ n, inf }: { n: number; inf: InformerView | undefined }) {
  const fifo = inf?.fifo ?? 'DeltaFIFO';
  return (
    <Block
      n={n}
      title="So, an informer"
      panel="overview"
      missing="no informer yet"
      live={
        inf && (
          <>
            <dt>informer</dt>
            <dd className="mono">{inf.id}</dd>
            <dt>reflector</dt>
            <dd>
              {inf.state} at rv {inf.lastResourceVersion ?? '–'}
            </dd>
            <dt>{fifo}</dt>
            <dd>{fmtCount(inf.fifoLength)} queued</dd>
            <dt>indexer</dt>
            <dd>{fmtCount(inf.storeSize)} objects</dd>
            <dt>handlers</dt>
            <dd>{inf.handlers.join(', ') || 'none yet'}</dd>
          </>
        )
      }
    >
      <p data-testid="informer-is">
        An informer <b>is a reflector + DeltaFIFO + indexer + handlers</b>: the reflector lists and watches, the
        DeltaFIFO queues what changed, the indexer keeps the latest copy of every object, and the handlers are told
        about each change. Together: a local cache kept in sync with the API server, with notifications on top.
      </p>
      {inf && (
        <p>
          Here is one, live: <code>{inf.id}</code>, its four parts on the right.
          {fifo === 'RealFIFO'
            ? ' It uses RealFIFO, the newer FIFO that takes the DeltaFIFO’s place: one entry per change, in order, none merged.'
            : ''}
        </p>
      )}
    </Block>
  );
}

function Example({ ex, none }: { ex: BuilderExample | undefined; none: string }) {
  if (!ex) return <span className="dim">{none}</span>;
  return (
    <span
      {...activateProps(() => navigate({ panel: 'trace', controller: ex.controller, key: ex.request }))}
      className="clickable learn-example"
    >
      {ex.source ? (
        <>
          {ex.source.eventType ?? 'event'} of {ex.source.gvk} <code>{ex.source.key}</code>
        </>
      ) : (
        'an event'
      )}{' '}
      → request <code>{ex.request}</code> on <b>{ex.controller}</b>
    </span>
  );
}

/** Each controller's builder calls, as its runtime reported them: the wiring behind the examples above. */
function WiringList({ view }: { view: RuntimeView }) {
  const rows = Object.values(view.controllers).map((c) => ({
    name: c.name,
    parts: wiringParts(c),
    all: wiringReported(c),
  }));
  if (rows.length === 0) return null;
  return (
    <ul className="learn-list dim" data-testid="builder-wiring">
      {rows.map((r) => (
        <li key={r.name}>
          <b>{r.name}</b>: <code>{r.parts.map((p) => p.call).join('.') || 'no source reported'}</code>
          {!r.all && ' (Owns / Watches not reported)'}
        </li>
      ))}
    </ul>
  );
}

export function BuilderBlock({ n, view }: { n: number; view: RuntimeView }) {
  const forEx = builderExample(view, 'event', 'pod-counter');
  const ownsEx = builderExample(view, 'owner', 'replicaset-owner');
  const mapEx = builderExample(view, 'mapped', 'replicaset-owner');
  const rows = [
    {
      call: 'For(&Pod{})',
      what: 'the primary kind: every event on a Pod becomes a request for that same Pod (EnqueueRequestForObject).',
      ex: forEx,
      testId: 'builder-for',
    },
    {
      call: 'Owns(&Pod{})',
      what: 'objects the controller creates and owns: an event on an owned Pod becomes a request for its owner, found in its ownerReferences (EnqueueRequestForOwner).',
      ex: ownsEx,
      testId: 'builder-owns',
    },
    {
      call: 'Watches(&Deployment{}, EnqueueRequestsFromMapFunc(f))',
      what: 'anything else: your function maps the changed object to the requests it should cause.',
      ex: mapEx,
      testId: 'builder-watches',
    },
  ];
  return (
    <Block n={n} title="The builder: For, Owns, Watches" panel="controller" live={null}>
      <p>
        <code>NewControllerManagedBy(mgr)</code> takes the manager because it holds the cache, the client and the
        queues. <code>For</code> names the kind the controller reconciles (a type marker; the builder looks it up),
        which creates that kind’s informer and a handler that turns each event into{' '}
        <code>
          Request{'{'}namespace, name{'}'}
        </code>
        . <code>Complete(r)</code> builds the controller with its workqueue, remembers <code>r</code> as what to call
        for each request, and registers the controller with the manager.
      </p>
      <p>
        <b>How can we watch multiple things?</b> Add more sources to the same builder. Each one is an informer of its
        own kind with a handler that decides which request an event becomes; the reconciler still only sees the key it
        is asked about. Live, from this process:
      </p>
      <table className="data" data-testid="builder-examples">
        <tbody>
          {rows.map((r) => (
            <tr key={r.call} data-testid={r.testId}>
              <td className="mono" style={{ width: 230 }}>
                {r.call}
              </td>
              <td className="wrap">
                {r.what}
                <div style={{ marginTop: 3 }}>
                  <Example ex={r.ex} none="no such event seen yet" />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <WiringList view={view} />
    </Block>
  );
}

const RETURNS: Record<ReconcileOutcome, string> = {
  success: 'return Result{}, nil',
  requeue: 'return Result{Requeue: true}, nil',
  requeueAfter: 'return Result{RequeueAfter: 30 * time.Second}, nil',
  error: 'return Result{}, err',
  terminalError: 'return Result{}, reconcile.TerminalError(err)',
  panic: 'panic(…) (recovered by the controller)',
};

/** The controller whose reconciles show the most different outcomes: the best live example. */
function richest(view: RuntimeView): ControllerView | undefined {
  let best: ControllerView | undefined;
  let bestN = -1;
  for (const c of Object.values(view.controllers)) {
    const n = RECONCILE_OUTCOMES.filter((o) => c.reconciles[o] > 0).length;
    if (n > bestN) {
      best = c;
      bestN = n;
    }
  }
  return best;
}

export function ResultsBlock({ n, view }: { n: number; view: RuntimeView }) {
  const c = richest(view);
  return (
    <Block n={n} title="What Reconcile returns" panel="controller" live={null}>
      <p>
        Reconcile answers with a <code>Result</code> and an error, and that answer decides when the key comes back. An
        error wins over the result; then <code>RequeueAfter</code>; then <code>Requeue</code>.
        {c ? (
          <>
            {' '}
            Counts from <b>{c.name}</b>:
          </>
        ) : null}
      </p>
      <table className="data" data-testid="reconcile-results">
        <thead>
          <tr>
            <th>outcome</th>
            <th>Reconcile returned</th>
            <th>then</th>
            <th className="r">seen</th>
          </tr>
        </thead>
        <tbody>
          {RECONCILE_OUTCOMES.map((o) => (
            <tr key={o}>
              <td>
                <Badge tone={RESULT_HANDLING[o].failed ? 'err' : 'ok'}>{o}</Badge>
              </td>
              <td className="mono">{RETURNS[o]}</td>
              <td className="wrap">{RESULT_HANDLING[o].detail}</td>
              <td className="r num">{c ? fmtCount(c.reconciles[o]) : '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Block>
  );
}
