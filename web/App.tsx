// The shell: top bar (connection, server, stream rate), the navigation in pipeline order, banners for the
// states a user must not miss (no connection, version mismatch, replay, lagging), and the focused panel.
import { failedReconciles } from '../shared/protocol/reconcile-outcomes';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { RuntimeView } from '../shared/protocol/view';
import { totalQueued } from '../shared/protocol/queue-counts';
import { PROTOCOL_VERSION } from '../shared/protocol/version';
import { useNow, useStore, useStoreState } from './client/hooks';
import { formatRoute, navigate, parseRoute, useRoute } from './client/route';
import { shortcutTable, useShortcuts } from './client/shortcuts';
import type { ShortcutAction } from './client/shortcuts';
import { useTheme } from './client/theme';
import type { Theme } from './client/theme';
import { ShortcutSheet } from './components/ShortcutSheet';
import type { PanelId, Route } from './client/route';
import type { StoreState } from './client/runtime-store';
import { Banner, DroppedEventsBanner, GoneProcessesBanner, statusPill } from './components/Banner';
import { HeldBanner, HeldPill, heldControllers } from './components/HeldBanner';
import { ModulesBanner } from './components/ModulesBanner';
import { ProcessLimitsBanner } from './components/ProcessLimitsBanner';
import { moduleReloadMarkers, TimelineMarkersContext } from './components/timeline-markers';
import { ServerRecording, ViewerRecording } from './components/RecordingControls';
import { ScopeFilter } from './components/ScopeFilter';
import { Badge, Dot } from './components/Stat';
import { fmtCount, fmtDuration } from './components/format';
import { Controller } from './panels/controller/Controller';
import { DeltaFifo } from './panels/delta-fifo/DeltaFifo';
import { Faults } from './panels/faults/Faults';
import { Indexer } from './panels/indexer/Indexer';
import { KeptPanels } from './panels/KeptPanels';
import { Learn } from './panels/learn/Learn';
import { Overview } from './panels/overview/Overview';
import { Reflector } from './panels/reflector/Reflector';
import { Trace } from './panels/trace/Trace';
import type { PanelProps } from './panels/types';
import { PANEL_GROUPS, PANELS } from './panels/registry';
import { Workqueue } from './panels/workqueue/Workqueue';

/** What each panel draws; keyed by the registry's ids, so a panel cannot be listed without a component. */
const RENDER: Record<PanelId, (p: PanelProps) => ReactNode> = {
  overview: (p) => <Overview {...p} />,
  reflector: (p) => <Reflector {...p} />,
  'delta-fifo': (p) => <DeltaFifo {...p} />,
  indexer: (p) => <Indexer {...p} />,
  workqueue: (p) => <Workqueue {...p} />,
  controller: (p) => <Controller {...p} />,
  trace: (p) => <Trace {...p} />,
  faults: (p) => <Faults {...p} />,
  learn: (p) => <Learn {...p} />,
};

function navBadge(id: PanelId, view: RuntimeView): ReactNode {
  const controllers = Object.values(view.controllers);
  const informers = Object.values(view.informers);
  switch (id) {
    case 'reflector': {
      const bad = informers.filter((i) => i.state === 'backoff' || i.state === 'relisting').length;
      return bad > 0 ? <Badge tone="warn">{bad}</Badge> : null;
    }
    case 'delta-fifo': {
      const n = informers.reduce((s, i) => s + i.fifoLength, 0);
      return n > 0 ? <Badge tone="muted">{fmtCount(n)}</Badge> : null;
    }
    case 'workqueue': {
      const n = totalQueued(controllers);
      return n > 0 ? <Badge tone="info">{fmtCount(n)}</Badge> : null;
    }
    case 'controller': {
      const n = controllers.reduce((s, c) => s + failedReconciles(c.reconciles), 0);
      return n > 0 ? <Badge tone="err">{fmtCount(n)}</Badge> : null;
    }
    case 'trace': {
      const n = controllers.reduce((s, c) => s + c.hotLoops.length, 0);
      return n > 0 ? <Badge tone="err">{n} hot</Badge> : null;
    }
    default:
      return null;
  }
}

export function Shell({
  state,
  route,
  now,
  children,
  theme,
  onHelp,
}: {
  state: StoreState;
  route: Route;
  now: number;
  children: ReactNode;
  theme?: { theme: Theme; toggle: () => void };
  onHelp?: () => void;
}) {
  const store = useStore();
  const pill = statusPill(state.status, state.view);
  // Without a stream the numbers on screen are the last ones received: show them, but visibly as history.
  const stale = state.status.state === 'disconnected' || state.status.state === 'incompatible';
  const view = state.view;
  const server = state.server;
  const held = heldControllers(state);
  const modules = view.modules;
  const markers = useMemo(() => moduleReloadMarkers(modules), [modules]);
  const main = useRef<HTMLElement>(null);
  // A new page starts at its top: the scroll box is shared, so without this a panel opens where the last
  // one was scrolled to.
  useEffect(() => {
    main.current?.scrollTo?.({ top: 0 });
  }, [route.panel]);
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">
          <span className="brand-mark" />
          controller-scope
        </span>
        <span className="sep" />
        <span className="toolbar" data-testid="link-status">
          <Dot tone={pill.tone} />
          <b className={pill.tone} style={{ fontSize: 11.5, letterSpacing: '0.05em' }}>
            {pill.text}
          </b>
        </span>
        <HeldPill held={held} view={view} />
        <span className="meta">
          {server && server.mode === 'replay' ? (
            // The banner below names the file and its controls; the bar keeps to what fits.
            <span className="trunc" style={{ maxWidth: 220 }} title={server.cluster.name}>
              recording <b>{server.cluster.name ?? ''}</b>
            </span>
          ) : (
            server && (
              <span>
                cluster <b>{server.cluster.kind}</b>
                {server.cluster.name ? <b> · {server.cluster.name}</b> : null}
                {!server.cluster.writable && <Badge tone="warn">read-only</Badge>}
              </span>
            )
          )}
          <span>
            seq <b className="num">{view.lastSeq}</b>
          </span>
          {server?.mode !== 'replay' && (
            <span>
              stream <b className="num">{stale ? '–' : state.eventsPerSecond.toFixed(0)}</b> ev/s
            </span>
          )}
          {server && server.mode === 'live' && (
            <span>
              up <b className="num">{fmtDuration(now - server.startedAt)}</b>
            </span>
          )}
          {server && server.mode === 'replay' && view.firstTs > 0 && (
            <span>
              recorded <b className="num">{fmtDuration(view.lastTs - view.firstTs)}</b>
            </span>
          )}
          <span>
            protocol <b>v{server?.protocolVersion ?? PROTOCOL_VERSION}</b>
          </span>
        </span>
        <span className="spacer" />
        <ScopeFilter view={store.liveView} sub={state.subscription} serverControllers={server?.controllers} />
        {server?.mode === 'live' && <ViewerRecording now={now} />}
        {state.serverStatus && <ServerRecording recording={state.serverStatus.recording} />}
        <button
          type="button"
          className="btn small"
          onClick={() => store.setFrozen(!state.frozen)}
          title="Freeze the display to read it; data keeps arriving (key .)"
          data-testid="freeze"
        >
          {state.frozen ? '▶ Unfreeze' : '❚❚ Freeze'}
        </button>
        {theme && (
          <button
            type="button"
            className="btn small"
            onClick={theme.toggle}
            title="Light or dark theme; follows the system until you pick one (key t)"
            aria-label={`switch to the ${theme.theme === 'dark' ? 'light' : 'dark'} theme`}
            data-testid="theme-toggle"
          >
            {theme.theme === 'dark' ? '☀' : '☾'}
          </button>
        )}
        {onHelp && (
          <button
            type="button"
            className="btn small"
            onClick={onHelp}
            title="Keyboard shortcuts (key ?)"
            aria-label="keyboard shortcuts"
            data-testid="shortcuts"
          >
            ?
          </button>
        )}
      </header>
      <nav className="sidebar">
        {PANEL_GROUPS.map((g) => (
          <div key={g.id}>
            <div className="nav-group">{g.label}</div>
            {PANELS.filter((n) => n.group === g.id).map((n) => (
              <button
                type="button"
                key={n.id}
                className={`nav-item ${route.panel === n.id ? 'active' : ''}`}
                onClick={() => navigate({ panel: n.id })}
                data-testid={`nav-${n.id}`}
                title={n.step ? `${n.label} (key ${n.step})` : n.id === 'overview' ? 'Overview (key 0)' : n.label}
              >
                <span className="step">{n.step ?? ''}</span>
                {n.label}
                <span className="badge-slot" style={{ marginLeft: 'auto' }}>
                  {navBadge(n.id, view)}
                </span>
              </button>
            ))}
          </div>
        ))}
      </nav>
      <main ref={main} className={stale ? 'main stale' : 'main'}>
        <Banner state={state} now={now} />
        <HeldBanner held={held} view={view} />
        <DroppedEventsBanner view={state.view} />
        <GoneProcessesBanner view={view} now={now} />
        <ProcessLimitsBanner view={view} />
        <ModulesBanner view={view} now={now} />
        <TimelineMarkersContext.Provider value={markers}>{children}</TimelineMarkersContext.Provider>
      </main>
    </div>
  );
}

const SHORTCUTS = shortcutTable(PANELS);

export function App({ serverHash }: { serverHash?: string }) {
  const state = useStoreState((s) => s);
  const store = useStore();
  const route = useRoute(serverHash);
  const theme = useTheme();
  const [help, setHelp] = useState(false);
  const toggleTheme = theme.toggle;
  useShortcuts(
    SHORTCUTS,
    useCallback(
      (a: ShortcutAction) => {
        if (a.type === 'panel') navigate({ panel: a.panel });
        else if (a.type === 'freeze') store.setFrozen(!store.getState().frozen);
        else if (a.type === 'theme') toggleTheme();
        else if (a.type === 'help') setHelp((h) => !h);
        else setHelp(false);
      },
      [store, toggleTheme],
    ),
  );
  const wall = useNow(250);
  // A frozen or replayed view is read in its own time; a live one in wall time (for countdowns).
  const now =
    state.frozen || state.status.state === 'replaying' ? state.view.lastTs : Math.max(wall, state.view.lastTs);
  // The panel renders from deferred copies of the view and the clock: React draws it in the background, in
  // slices it can interrupt, so a busy stream never holds the page in one long task; the shell stays current.
  const view = useDeferredValue(state.view);
  const panelNow = useDeferredValue(now);
  const at = formatRoute(route);
  const panel = useMemo(() => {
    const r = parseRoute(at);
    return RENDER[r.panel]({ view, route: r, now: panelNow });
  }, [at, view, panelNow]);
  return (
    <Shell state={state} route={route} now={now} theme={theme} onHelp={() => setHelp(true)}>
      <KeptPanels id={route.panel} panel={panel} />
      {help && <ShortcutSheet table={SHORTCUTS} onClose={() => setHelp(false)} />}
    </Shell>
  );
}
