// The reflector: its state machine with the current state lit, and its session history (lists, watches,
// bookmarks, 410s, relists, backoffs) so "did my informer miss something?" has an answer.
import { Fragment } from 'react';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { Badge, Stat, Stats } from '../../components/Stat';
import { EmptyPage, PageHead } from '../../components/PageHead';
import { TimeSeriesChart } from '../../components/TimeSeriesChart';
import { C, REFLECTOR_TONE } from '../../components/colors';
import { fmtAgo, fmtClockMs, fmtCount, fmtCountdown, fmtDuration } from '../../components/format';
import { focusInformer, informerIds } from '../focus';
import { partLiveness } from '../../../shared/protocol/liveness';
import { CacheDrift } from '../indexer/CacheDrift';
import { ListStory, listMethodLabel } from '../../components/ListMethod';
import type { PanelProps } from '../types';
import { StateDiagram } from './StateDiagram';
import { legendRows } from './state-diagram-model';
import { sessionRows, stateMachine, watchSeries } from './reflector-series';

export function Reflector({ view, route, now }: PanelProps) {
  const inf = focusInformer(view, route);
  const live = inf ? partLiveness(view, inf) : { state: 'alive' as const };
  const informers = informerIds(view);
  if (!inf) {
    return (
      <EmptyPage testId="panel-reflector" title="Reflector" card="State">
        No informer has started yet.
      </EmptyPage>
    );
  }
  const sm = stateMachine(inf);
  const rows = sessionRows(inf, now);
  const c = inf.counters;
  return (
    <div className="page" data-testid="panel-reflector">
      <PageHead
        title="Reflector"
        sub={
          <>
            <ListStory method={inf.listMethod} /> On 410 Gone or an error: back off, then get the state again.
          </>
        }
        focus={{ panel: 'reflector', field: 'informer', value: inf.id, options: informers }}
      />
      <Stats>
        {live.state === 'alive' ? (
          <Stat
            label="State"
            value={inf.state}
            tone={REFLECTOR_TONE[inf.state]}
            hint={`for ${fmtDuration(now - inf.stateSince)}`}
          />
        ) : (
          <Stat label="State" value={live.state} tone="err" hint={`${live.reason}; last reported ${inf.state}`} />
        )}
        <Stat label="Last RV" value={inf.lastResourceVersion ?? '–'} />
        {/* A WatchList sync is bracketed like a list but makes no LIST: the label says what the brackets were. */}
        <Stat
          label={inf.listMethod === 'watchList' ? 'Stream syncs / relists' : 'Lists / relists'}
          value={`${c.lists} / ${c.relists}`}
          hint={`${c.listErrors} failed`}
        />
        <Stat label="Watches" value={fmtCount(c.watches)} hint={`${fmtCount(c.watchEvents)} events`} />
        <Stat label="Bookmarks" value={fmtCount(c.bookmarks)} />
        <Stat label="410 Expired" value={c.expired} tone={c.expired > 0 ? 'warn' : undefined} />
        <Stat label="Relist tombstones" value={`${c.relistDeleted}`} hint={`${fmtCount(c.relistReplaced)} replaced`} />
        <Stat
          label="Backoffs"
          value={c.backoffs}
          tone={c.backoffs > 0 ? 'warn' : undefined}
          hint={`${c.errors} errors`}
        />
      </Stats>
      <div className="grid wide-left">
        <Card title="State machine" right={<span className="dim">reason: {sm.reason || '—'}</span>}>
          <StateDiagram current={sm.current} visited={sm.visited} counters={c} />
          <dl className="kv" style={{ marginTop: 8 }} data-testid="reflector-legend">
            {legendRows().map((r) => (
              <Fragment key={r.edge}>
                <dt>{r.edge}</dt>
                <dd>{r.detail}</dd>
              </Fragment>
            ))}
            <dt>watching, no change</dt>
            <dd>
              the watch ended cleanly (server timeout, closed stream) and opens again from the last resourceVersion
            </dd>
            <dt>relist</dt>
            <dd>one bracketed operation: every item as Replaced, missing ones as Deleted tombstones</dd>
          </dl>
        </Card>
        <Card title="Health">
          <dl className="kv">
            <dt>synced</dt>
            <dd>
              {inf.synced ? (
                <Badge tone="ok">
                  yes · {fmtCount(inf.syncedItems)} items in {fmtDuration(inf.syncDurationMs)}
                </Badge>
              ) : (
                <Badge tone="warn">not yet</Badge>
              )}
            </dd>
            <dt>state from</dt>
            <dd data-testid="list-method">{listMethodLabel(inf.listMethod)}</dd>
            <dt>store size</dt>
            <dd>{fmtCount(inf.storeSize)}</dd>
            <dt>queue</dt>
            <dd>{inf.fifo ?? 'DeltaFIFO'}</dd>
            <dt>handlers</dt>
            <dd>{inf.handlers.join(', ') || '—'}</dd>
            <dt>backoff until</dt>
            <dd>{inf.backoffUntil && inf.backoffUntil > now ? fmtCountdown(inf.backoffUntil, now) : '—'}</dd>
            <dt>last error</dt>
            <dd className={inf.lastError ? 'err' : undefined}>
              {inf.lastError
                ? `${inf.lastError.code || ''} ${inf.lastError.reason}: ${inf.lastError.message} (${fmtAgo(inf.lastError.ts, now)})`
                : 'none'}
            </dd>
          </dl>
        </Card>
      </div>
      <Card title="Watch events and deltas per second">
        <TimeSeriesChart
          data={watchSeries(inf)}
          series={[
            { key: 'watchEvents', label: 'watch events', color: C.info, kind: 'bar' },
            { key: 'deltas', label: 'deltas queued', color: C.purple },
          ]}
          height={130}
        />
      </Card>
      <CacheDrift inf={inf} />
      <Card title="Session history" right={<span className="dim">newest first · {rows.length} entries</span>} flush>
        <DataTable
          rows={rows}
          empty="No list or watch yet."
          scroll={380}
          testId="reflector-history"
          head={
            <>
              <th>time</th>
              <th>what</th>
              <th className="r">duration</th>
              <th>details</th>
            </>
          }
        >
          {(r) => (
            <tr key={`${r.kind}-${r.seq}`}>
              <td className="num dim">{fmtClockMs(r.ts)}</td>
              <td>
                <Badge tone={r.tone}>{r.kind}</Badge> {r.open && <span className="ok">●</span>}
              </td>
              <td className="r num">{r.duration ?? ''}</td>
              <td className="wrap mono">{r.summary}</td>
            </tr>
          )}
        </DataTable>
      </Card>
    </div>
  );
}
