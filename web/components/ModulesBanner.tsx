// The user's own controller modules (`controller-scope run FILE…`), above every panel: a module that failed to
// load or set up says so with its file, line and what it must export; running ones show their generation and
// how often they were reloaded.
import type { ModuleView, RuntimeView } from '../../shared/protocol/view';
import { fmtDuration } from './format';

const base = (file: string): string => file.split('/').pop() ?? file;

function Failed({ m }: { m: ModuleView }) {
  const at = m.error?.at;
  return (
    <div className="banner err" role="alert" data-testid={`module-failed-${base(m.file)}`}>
      <span>
        <b>Your controller did not start{m.generation > 1 ? ` (reload ${m.generation})` : ''}:</b>{' '}
        {m.error?.message ?? `${m.file} failed`}
        {at && (
          <>
            {' '}
            at{' '}
            <code>
              {at.file}:{at.line}
              {at.column !== undefined ? `:${at.column}` : ''}
            </code>
          </>
        )}
        .{m.error?.expected && <span className="dim"> Expected {m.error.expected}.</span>}
        {m.running !== undefined && (
          <span className="dim"> Generation {m.running} keeps running until the file loads again.</span>
        )}
      </span>
    </div>
  );
}

export function ModulesBanner({ view, now }: { view: RuntimeView; now: number }) {
  if (view.modules.length === 0) return null;
  const failed = view.modules.filter((m) => m.phase === 'failed');
  const others = view.modules.filter((m) => m.phase !== 'failed');
  return (
    <>
      {failed.map((m) => (
        <Failed key={m.file} m={m} />
      ))}
      {others.length > 0 && (
        <div className="banner info modules" data-testid="modules">
          <span>
            <b>Your controllers</b>
            {others.map((m) => {
              const last = m.reloads.findLast((r) => r.outcome === 'loaded');
              return (
                <span key={m.file} className="module-chip" title={m.file}>
                  {' · '}
                  <b>{base(m.file)}</b> {m.controllers.join(', ') || 'no controllers'}{' '}
                  <span className="dim">
                    {m.phase === 'loaded' ? `generation ${m.generation}` : m.phase}
                    {last ? `, reloaded ${fmtDuration(Math.max(0, now - last.ts))} ago` : ''}
                  </span>
                </span>
              );
            })}
          </span>
        </div>
      )}
    </>
  );
}
