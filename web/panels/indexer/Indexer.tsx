// The controller's own cache: what the indexer holds (not what the API server holds), an object as the
// informer cached it, and how it changed version by version. Objects are pulled on demand with `inspect`.
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { CACHE_KEYS_MAX, type InspectResult } from '../../../shared/protocol/socket';
import { Card, Empty } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { VirtualTable } from '../../components/VirtualTable';
import { JsonView } from '../../components/JsonView';
import { Badge, Stat, Stats } from '../../components/Stat';
import { EmptyPage, PageHead } from '../../components/PageHead';
import { fmtAgo, fmtClockMs, fmtCount } from '../../components/format';
import { useInspect } from '../../components/useInspect';
import { useStable } from '../../client/hooks';
import { navigate } from '../../client/route';
import { activateProps } from '../../components/activate';
import { focusInformer, informerIds, seriesRate } from '../focus';
import type { PanelProps } from '../types';
import { CacheDrift } from './CacheDrift';
import {
  diffLines,
  filterKeys,
  knownKeys,
  lowerKeys,
  recentOps,
  sameKeys,
  splitKey,
  versionsNewestFirst,
} from './indexer-series';

type CacheResult = Extract<InspectResult, { target: 'cache' }>;
type ObjectResult = Extract<InspectResult, { target: 'object' }>;

/** How often the key list is asked again: every few seconds, less often when the cache is large. */
const refreshMs = (keys: number): number => Math.min(15_000, Math.max(3000, keys / 10));

/**
 * The key list is a snapshot while the count beside it is live, so after a create or a delete they disagree
 * until the next refresh. A cache of up to this many keys is asked again CATCH_UP_MS after an answer that
 * disagrees with the count; a larger list is costly to resend and keeps its slower refresh.
 */
const CATCH_UP_MAX_KEYS = 5_000;
const CATCH_UP_MS = 1000;

const OP_TONE = { add: 'ok', update: 'info', delete: 'err', replace: 'purple' } as const;

function ObjectView({ gvk, objectKey, now }: { gvk: string; objectKey: string; now: number }) {
  const [bump, setBump] = useState(0);
  const { namespace, name } = splitKey(objectKey);
  const res = useInspect<ObjectResult>(
    { target: 'object', object: { gvk, name, ...(namespace !== undefined ? { namespace } : {}) } },
    0,
    bump,
  );
  const versions = res.data ? versionsNewestFirst(res.data.versions) : [];
  return (
    <>
      <Card
        title={<span className="mono">{objectKey}</span>}
        right={
          <>
            {res.loading && <span className="dim">loading…</span>}
            <button type="button" className="btn small" onClick={() => setBump((b) => b + 1)}>
              refresh
            </button>
          </>
        }
        testId="cache-object"
      >
        {!res.available ? (
          <Empty>Not connected: objects are fetched from the server on demand.</Empty>
        ) : res.error ? (
          <div className="notice err">{res.error}</div>
        ) : !res.data ? (
          <Empty>Fetching the cached object…</Empty>
        ) : res.data.object === null ? (
          <Empty>Not in the cache now (deleted, or not yet synced).</Empty>
        ) : (
          <JsonView value={res.data.object} />
        )}
      </Card>
      <Card title="Recent versions" right={<span className="dim">as the informer received them</span>} flush>
        <DataTable rows={versions} empty="No versions recorded for this object." scroll={420}>
          {(v) => (
            <tr key={`${v.resourceVersion}-${v.ts}`}>
              <td className="num dim" style={{ width: 150 }}>
                rv {v.resourceVersion}
                <div className="faint">{fmtAgo(v.ts, now)}</div>
              </td>
              <td className="wrap mono" style={{ fontSize: 11.5 }}>
                {v.deleted && <Badge tone="err">deleted</Badge>}
                {diffLines(v.diff).map((l, i) => (
                  <div key={i} className={l.sign === '+' ? 'diff-add' : l.sign === '-' ? 'diff-del' : ''}>
                    {l.sign} <span className="dim">{l.path}</span> {l.text}
                  </div>
                ))}
                {v.diff.length === 0 && <span className="faint">no field changed (resync or metadata only)</span>}
              </td>
            </tr>
          )}
        </DataTable>
      </Card>
    </>
  );
}

export function Indexer({ view, route, now }: PanelProps) {
  const [search, setSearch] = useState('');
  // The list filters in the background while the input stays responsive to typing.
  const query = useDeferredValue(search);
  const inf = focusInformer(view, route);
  // The whole key list comes in one answer and is filtered here, so a keystroke costs no round trip; only a
  // cache cut at the server's bound is searched by the server (`capped`, learnt from an unfiltered answer).
  const [capped, setCapped] = useState(false);
  const [listed, setListed] = useState(0);
  const asked = capped ? query : '';
  const [catchUp, setCatchUp] = useState(0);
  const cache = useInspect<CacheResult>(
    inf ? { target: 'cache', informer: inf.id, limit: CACHE_KEYS_MAX, ...(asked ? { search: asked } : {}) } : undefined,
    refreshMs(listed),
    catchUp,
  );
  const fromServer = inf && cache.data && cache.data.informer === inf.id ? cache.data : undefined;
  const behind =
    fromServer !== undefined && !asked && fromServer.total <= CATCH_UP_MAX_KEYS && inf?.storeSize !== fromServer.total;
  // Armed again by each answer (cache.data) while the list and the count disagree.
  useEffect(() => {
    if (!behind) return;
    const timer = setTimeout(() => setCatchUp((n) => n + 1), CATCH_UP_MS);
    return () => clearTimeout(timer);
  }, [behind, cache.data]);
  if (fromServer && !asked) {
    const cut = fromServer.total > fromServer.keys.length;
    if (cut !== capped) setCapped(cut);
    if (fromServer.total !== listed) setListed(fromServer.total);
  }
  // A refresh of an unchanged cache keeps the list it had, and with it the lowercased keys and the filter.
  const serverKeys = useStable(fromServer?.keys, sameKeys);
  const lower = useMemo(() => (serverKeys ? lowerKeys(serverKeys) : undefined), [serverKeys]);
  const filtered = useMemo(
    () => (serverKeys && lower ? filterKeys(serverKeys, lower, query) : undefined),
    [serverKeys, lower, query],
  );
  if (!inf) {
    return (
      <EmptyPage testId="panel-indexer" title="Indexer" card="Cache">
        No informer has started yet.
      </EmptyPage>
    );
  }
  const keys = filtered ?? knownKeys(view, inf.id, query);
  // Filtered here, every match is listed; filtered by the server (or not at all), its count is the total.
  const total = fromServer && (asked || !query) ? fromServer.total : keys.length;
  // A routed key is shown even when not listed (beyond the limit, filtered out): the object view says if it is gone.
  const selected = route.key;
  const ops = recentOps(view.log, inf.id);
  return (
    <div className="page" data-testid="panel-indexer">
      <PageHead
        title="Indexer"
        sub="the informer’s local cache: what listers and the cached client read, keyed namespace/name"
        focus={{ panel: 'indexer', field: 'informer', value: inf.id, options: informerIds(view) }}
      />
      <Stats>
        <Stat label="Objects cached" value={fmtCount(inf.storeSize)} />
        <Stat
          label="Indexer writes"
          value={fmtCount(inf.counters.indexerOps)}
          hint={`${seriesRate(inf.series, 'pops', view.limits.rateWindowMs, now).toFixed(1)}/s`}
        />
        <Stat label="Synced" value={inf.synced ? 'yes' : 'no'} tone={inf.synced ? 'ok' : 'warn'} />
        <Stat
          label="Indexes"
          value={fromServer?.indexes ? Object.keys(fromServer.indexes).length : '–'}
          hint={fromServer?.indexes ? Object.keys(fromServer.indexes).join(', ') : 'namespace index by default'}
        />
      </Stats>
      <div className="grid" style={{ gridTemplateColumns: 'minmax(260px, 1fr) minmax(0, 2.2fr)' }}>
        <Card
          title="Keys"
          right={<span className="dim">{fromServer ? `${fmtCount(total)} in store` : 'seen in events'}</span>}
          flush
          testId="cache-keys"
        >
          <div style={{ padding: 8, borderBottom: '1px solid var(--line)' }}>
            <input
              className="inp"
              placeholder="search keys…"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              style={{ width: '100%' }}
            />
            {!fromServer && cache.error && (
              <div className="dim" style={{ fontSize: 11, marginTop: 6 }}>
                Server did not list the cache ({cache.error}); showing keys seen in events.
              </div>
            )}
          </div>
          <VirtualTable
            rows={keys}
            total={total}
            noun={query ? 'matching keys' : 'keys'}
            empty={<>No key{query ? ` matches “${query}”` : ''}.</>}
            height={560}
            testId="cache-key-list"
          >
            {(k) => (
              <tr
                key={k}
                {...activateProps(() => navigate({ panel: 'indexer', informer: inf.id, key: k }))}
                className={`clickable ${k === selected ? 'selected' : ''}`}
              >
                <td className="mono">{k}</td>
              </tr>
            )}
          </VirtualTable>
        </Card>
        <div className="grid">
          {selected ? (
            <ObjectView gvk={inf.id} objectKey={selected} now={now} />
          ) : (
            <Card title="Object">
              <Empty>
                Pick a key to see the object exactly as this informer cached it, and its recent versions as diffs.
              </Empty>
            </Card>
          )}
          <CacheDrift inf={inf} />
          <Card
            title="Recent cache writes"
            right={<span className="dim">indexer add / update / delete / replace</span>}
            flush
          >
            <DataTable
              rows={ops}
              empty="No indexer write in the recent event log."
              scroll={300}
              head={
                <>
                  <th>time</th>
                  <th>op</th>
                  <th>key</th>
                  <th>rv</th>
                  <th className="r">size after</th>
                </>
              }
            >
              {(o) => (
                <tr
                  key={o.seq}
                  {...activateProps(() => navigate({ panel: 'indexer', informer: inf.id, key: o.key }))}
                  className="clickable"
                >
                  <td className="num dim">{fmtClockMs(o.ts)}</td>
                  <td>
                    <Badge tone={OP_TONE[o.op]}>{o.op}</Badge>
                  </td>
                  <td className="mono">{o.key}</td>
                  <td className="mono dim">{o.resourceVersion ?? '–'}</td>
                  <td className="r num">{fmtCount(o.size)}</td>
                </tr>
              )}
            </DataTable>
          </Card>
        </div>
      </div>
    </div>
  );
}
