// The dashboard's HTTP side: the built web app, health and readiness, Prometheus metrics, and two read APIs
// (the current view, one object with its recent versions). Socket.io attaches to the same server.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import type { Registry } from 'prom-client';
import type { Recorder } from '../recorder/recorder';
import { exportRecording, type RecordingSource } from '../replay/recording-export';
import { RECORDING_FROM_SEQ_HEADER, RECORDING_TO_SEQ_HEADER } from '../../../shared/protocol/recording';
import { realClock, type Clock } from '../../runtime/util/clock';
import type { AuthPolicy } from './auth';
import { hostAllowed, hostRefusal } from '../../net/host-check';
import { originAllowed, tokenFromRequest, tokenMatches } from './auth';

export interface HttpAppOptions {
  recorder: Recorder;
  auth: AuthPolicy;
  /** Served at /metrics. Default: no /metrics route. */
  registry?: Registry;
  /** The built web app. Default this package's dist/web (wherever it is installed), when it exists. */
  staticDir?: string;
  /** Readiness: undefined when ready, else the reason (503). Default always ready. */
  notReadyReason?: () => string | undefined;
  /** What a viewer's recording (GET /api/recording) says it recorded. Default: no cluster, no controllers. */
  recordingSource?: () => RecordingSource;
  /** Default realClock. */
  clock?: Clock;
}

const CORE = '_';
/** `npm run build` writes the web app here; a packed tarball ships it. Found from this file, not the cwd. */
const BUILT_WEB_APP = fileURLToPath(new URL('../../../dist/web', import.meta.url));

export function createHttpApp(opts: HttpAppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Before every route, health checks and the web app included: a rebound page must not even read those.
  app.use((req, res, next) => {
    // No framing (its buttons could be clickjacked) and no Referer carrying a ?token= URL to anyone.
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (hostAllowed(opts.auth.hosts, req.headers.host)) return next();
    res
      .status(403)
      .type('text/plain')
      .send(hostRefusal(opts.auth.hosts, req.headers.host, 'the dashboard'));
  });

  app.get('/healthz', (_req, res) => {
    res.type('text/plain').send('ok');
  });
  app.get('/readyz', (_req, res) => {
    const reason = opts.notReadyReason?.();
    if (reason) res.status(503).type('text/plain').send(reason);
    else res.type('text/plain').send('ok');
  });

  const guard = (req: Request, res: Response, next: NextFunction): void => {
    if (!originAllowed(opts.auth, req.headers.origin, req.headers.host)) {
      res.status(403).json({ error: 'cross-origin request refused' });
      return;
    }
    if (!tokenMatches(opts.auth, tokenFromRequest(req.headers, req.url))) {
      res.status(401).json({ error: 'missing or wrong token: pass "Authorization: Bearer <token>" or ?token=' });
      return;
    }
    next();
  };

  if (opts.registry) {
    const registry = opts.registry;
    app.get('/metrics', guard, async (_req, res) => {
      res.set('Content-Type', registry.contentType).send(await registry.metrics());
    });
  }

  app.get('/api/view', guard, (_req, res) => {
    res.json(opts.recorder.view);
  });

  // One viewer's recording: a file --replay opens, made from what the recorder holds. It changes nothing for
  // anyone (the live stream and the --record file go on).
  app.get('/api/recording', guard, (req, res) => {
    const range: { fromSeq?: number; toSeq?: number } = {};
    for (const name of ['fromSeq', 'toSeq'] as const) {
      const raw = req.query[name];
      if (raw === undefined) continue;
      const n = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(n)) {
        res.status(400).json({ error: `${name} must be a whole number (a seq), got ${JSON.stringify(raw)}` });
        return;
      }
      range[name] = n;
    }
    const source = opts.recordingSource?.() ?? { cluster: { kind: 'none', writable: false }, controllers: [] };
    const createdAt = (opts.clock ?? realClock).now();
    const stamp = new Date(createdAt).toISOString().replace(/[:.]/g, '-');
    // gzip is the file's own format (gunzip -c reads it), not a transfer encoding a browser would undo.
    exportRecording(opts.recorder, source, range, createdAt).then(
      ({ body, range: held }) =>
        res
          .type('application/gzip')
          .set('Content-Disposition', `attachment; filename="controller-scope-${stamp}.csrec"`)
          // What the file holds, for the viewer to say when it starts later than asked (the header says it too).
          .set(RECORDING_FROM_SEQ_HEADER, String(held.fromSeq))
          .set(RECORDING_TO_SEQ_HEADER, String(held.toSeq))
          .send(body),
      (err: unknown) => res.status(500).json({ error: `could not make the recording: ${(err as Error).message}` }),
    );
  });

  app.get('/api/objects/:group/:version/:kind/:namespace/:name', guard, (req, res) => {
    const { group, version, kind, namespace, name } = req.params as {
      group: string;
      version: string;
      kind: string;
      namespace: string;
      name: string;
    };
    const gvk = group === CORE ? `${version}/${kind}` : `${group}/${version}/${kind}`;
    const ns = namespace === CORE ? undefined : namespace;
    const found = opts.recorder.inspectObject({ gvk, name, ...(ns !== undefined ? { namespace: ns } : {}) });
    if (!found.object && found.versions.length === 0) {
      res.status(404).json({ error: `${gvk} ${ns ? `${ns}/` : ''}${name} is not in the informer cache` });
      return;
    }
    res.json(found);
  });

  app.use('/api', guard, (_req, res) => {
    res.status(404).json({ error: 'no such API' });
  });

  const dir = resolve(opts.staticDir ?? BUILT_WEB_APP);
  if (existsSync(join(dir, 'index.html'))) {
    app.use(express.static(dir, { index: 'index.html' }));
    // Client-side routes fall back to the app shell.
    app.get('/{*path}', (_req, res) => {
      res.sendFile(join(dir, 'index.html'));
    });
  }

  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    res.status(500).json({ error: err instanceof Error ? err.message : 'internal error' });
  });
  return app;
}
