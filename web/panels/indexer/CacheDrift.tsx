// "Compare with the API server": a fresh LIST diffed against this informer's cache on the server, with the
// keys that differ and the reflector history that explains them. Reads only; no one else is affected.
import type { DriftReport } from '../../../shared/protocol/drift';
import { inSync } from '../../../shared/protocol/drift';
import type { InformerView } from '../../../shared/protocol/view';
import { Card, Empty } from '../../components/Card';
import { Badge } from '../../components/Stat';
import { VirtualTable } from '../../components/VirtualTable';
import { activateProps } from '../../components/activate';
import { fmtClockMs, fmtCount, fmtDuration } from '../../components/format';
import { useCommand } from '../../components/useCommand';
import { useStoreState } from '../../client/hooks';
import { navigate } from '../../client/route';
import { DRIFT_MEANING, driftRows, explainDrift } from './drift-series';

const KIND_TONE = { missing: 'err', extra: 'warn', stale: 'purple' } as const;

export function DriftResult({ report, inf }: { report: DriftReport; inf: InformerView | undefined }) {
  const rows = driftRows(report);
  const why = explainDrift(report, inf);
  const omitted = report.omitted.missing + report.omitted.extra + report.omitted.stale;
  return (
    <div data-testid="drift-result">
      <div className="toolbar" style={{ gap: 8, flexWrap: 'wrap', marginBottom: 8 }}>
        {inSync(report) ? <Badge tone="ok">in sync</Badge> : <Badge tone="err">drift</Badge>}
        <Badge tone="err">{fmtCount(report.missing.length + report.omitted.missing)} missing</Badge>
        <Badge tone="warn">{fmtCount(report.extra.length + report.omitted.extra)} extra</Badge>
        <Badge tone="purple">{fmtCount(report.stale.length + report.omitted.stale)} stale</Badge>
        <span className="dim">
          {fmtCount(report.matching)} equal · cache {fmtCount(report.cacheCount)} · server{' '}
          {fmtCount(report.serverCount)} at rv {report.listResourceVersion} · {report.pages} page
          {report.pages === 1 ? '' : 's'} of {report.pageSize} · {fmtDuration(report.durationMs)} ·{' '}
          {fmtClockMs(report.comparedAt)}
          {report.newerInCache > 0 ? ` · ${report.newerInCache} changed after the LIST (not drift)` : ''}
        </span>
      </div>
      <div className={`notice ${inSync(report) ? 'ok' : 'warn'}`} data-testid="drift-explanation">
        {why.text}{' '}
        <a
          href="#"
          onClick={(e) => {
            e.preventDefault();
            navigate({ panel: 'reflector', informer: report.informer });
          }}
          data-testid="drift-history-link"
        >
          Open the reflector history
        </a>
        {why.entries.length > 0 && (
          <ul style={{ margin: '6px 0 0', paddingLeft: 18 }}>
            {why.entries.map((h) =>
              h.type === 'list' ? (
                <li key={h.seq}>
                  {h.relist ? 'relist' : 'list'} at {fmtClockMs(h.beginTs)} →{' '}
                  {h.resourceVersion ? `rv ${h.resourceVersion}` : 'initial state streamed by the watch'}
                  {h.items !== undefined ? `, ${h.items} items` : ''}
                </li>
              ) : h.type === 'watch' ? (
                <li key={h.seq}>
                  watch from rv {h.resourceVersion} since {fmtClockMs(h.startTs)}: {h.events} events, {h.bookmarks}{' '}
                  bookmarks{h.endTs !== undefined ? `, ended (${h.reason ?? 'closed'})` : ', still open'}
                </li>
              ) : null,
            )}
          </ul>
        )}
      </div>
      {rows.length > 0 && (
        <VirtualTable
          rows={rows}
          total={rows.length + omitted}
          noun="keys that differ"
          height={260}
          columns={4}
          testId="drift-keys"
          head={
            <>
              <th>key</th>
              <th>drift</th>
              <th>cache rv</th>
              <th>server rv</th>
            </>
          }
        >
          {(r) => (
            <tr
              key={`${r.kind}:${r.key}`}
              {...activateProps(() => navigate({ panel: 'indexer', informer: report.informer, key: r.key }))}
              className="clickable"
              title={DRIFT_MEANING[r.kind]}
            >
              <td className="mono">{r.key}</td>
              <td>
                <Badge tone={KIND_TONE[r.kind]}>{r.kind}</Badge>
              </td>
              <td className="mono dim">{r.cacheResourceVersion ?? '–'}</td>
              <td className="mono">{r.serverResourceVersion ?? '–'}</td>
            </tr>
          )}
        </VirtualTable>
      )}
    </div>
  );
}

export function CacheDrift({ inf }: { inf: InformerView }) {
  const can = useStoreState((s) => s.server?.capabilities.compareCache === true);
  const cmd = useCommand<DriftReport>();
  const report = cmd.result && cmd.result.informer === inf.id ? cmd.result : undefined;
  return (
    <Card
      title="Compare with the API server"
      right={
        <button
          type="button"
          className="btn small primary"
          disabled={!cmd.available || !can || cmd.busy}
          onClick={() => void cmd.run({ type: 'cache.compare', informer: inf.id })}
          data-testid="drift-compare"
        >
          {cmd.busy ? 'listing…' : report ? 'compare again' : 'compare'}
        </button>
      }
      testId="cache-drift"
    >
      {cmd.error ? (
        <div className="notice err">{cmd.error}</div>
      ) : report ? (
        <DriftResult report={report} inf={inf} />
      ) : (
        <Empty>
          {!cmd.available
            ? 'Not connected: the comparison runs on the server.'
            : !can
              ? 'Nothing to compare with here: this dashboard has no API server to list from (a replay of a recording).'
              : 'A fresh LIST from the API server, in pages, diffed against this cache: keys it misses, keys it still holds that were deleted, keys at an older resourceVersion. Reads only.'}
        </Empty>
      )}
    </Card>
  );
}
