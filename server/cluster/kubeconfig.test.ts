// connectCluster/checkAccess against small in-test servers: each failure a user can hit gets its own,
// actionable message (no config, malformed file, missing context, unreachable, TLS, 401, 403 on a kind).
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, TestServer } from '../runtime/testing/test-server';
import {
  closedPort,
  configFor,
  selfSignedCert,
  sendJson,
  startTestServer,
  status,
  tmpDir,
  writeKubeconfig,
} from '../runtime/testing/test-server';
import { checkAccess, ClusterConnectError, connectCluster } from './kubeconfig';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments' };

let dir: string;
const servers: TestServer[] = [];
beforeEach(() => {
  dir = tmpDir('kubeconfig-test-');
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

interface FakeCluster {
  token?: string;
  /** "verb resource" pairs the user may do; everything else is denied. */
  allowed?: string[];
  /** Serve SelfSubjectAccessReview (a real server does; the sandbox may not). */
  authorizationApi?: boolean;
  /** Resources whose LIST answers 403 although the review allows it (a webhook authorizer, a policy). */
  listDenied?: string[];
}

function clusterHandler(c: FakeCluster) {
  return (req: RecordedRequest, res: http.ServerResponse): void => {
    if (req.path === '/version') return sendJson(res, 200, { major: '1', minor: '34', gitVersion: 'v1.34.0' });
    if (c.token && req.headers.authorization !== `Bearer ${c.token}`) {
      return sendJson(res, 401, status(401, 'Unauthorized', 'Unauthorized'));
    }
    const allowed = (verb: string, resource: string): boolean => (c.allowed ?? []).includes(`${verb} ${resource}`);
    if (req.path === '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews') {
      if (c.authorizationApi === false)
        return sendJson(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
      const spec = (JSON.parse(req.body) as { spec: { resourceAttributes: { verb: string; resource: string } } }).spec
        .resourceAttributes;
      return sendJson(res, 201, {
        kind: 'SelfSubjectAccessReview',
        status: { allowed: allowed(spec.verb, spec.resource) },
      });
    }
    if (req.path === '/api') return sendJson(res, 200, { versions: ['v1'] });
    const resource = req.path.split('/').pop() ?? '';
    const verb = req.query.get('watch') ? 'watch' : 'list';
    if (!allowed(verb, resource) || (verb === 'list' && (c.listDenied ?? []).includes(resource))) {
      return sendJson(
        res,
        403,
        status(403, 'Forbidden', `${resource} is forbidden: User "u" cannot ${verb} resource "${resource}"`),
      );
    }
    if (verb === 'watch') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return void res.end();
    }
    sendJson(res, 200, { kind: 'List', metadata: {}, items: [] });
  };
}

async function cluster(c: FakeCluster): Promise<TestServer> {
  const s = await startTestServer(clusterHandler(c));
  servers.push(s);
  return s;
}

async function connectError(p: Promise<unknown>): Promise<ClusterConnectError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ClusterConnectError);
  return err as ClusterConnectError;
}

describe('connectCluster', () => {
  it('loads --kubeconfig with --context, sends the token, reports the version and access', async () => {
    const s = await cluster({ token: 't0k', allowed: ['list pods', 'watch pods'] });
    const f = writeKubeconfig(path.join(dir, 'config'), {
      server: s.url,
      token: 't0k',
      context: 'main',
      extraContexts: ['other'],
    });
    const conn = await connectCluster({
      argv: ['--kubeconfig', f, '--context', 'other'],
      env: {},
      access: [{ gvr: PODS, kind: 'Pod' }],
    });
    expect(conn.config.contextName).toBe('other');
    expect(conn.version.gitVersion).toBe('v1.34.0');
    expect(conn.access[0]).toMatchObject({
      allowed: ['list', 'watch'],
      missing: [],
      method: 'SelfSubjectAccessReview',
    });
  });

  it('no config anywhere → the four places it looked', async () => {
    const err = await connectError(connectCluster({ env: {}, homeDir: dir }));
    expect(err.reason).toBe('NoConfig');
    expect(err.message).toMatch(/--kubeconfig[\s\S]*KUBECONFIG[\s\S]*in-cluster[\s\S]*\.kube/);
  });

  it('malformed file and missing context are reported with the file and the contexts that exist', async () => {
    const bad = path.join(dir, 'bad');
    fs.writeFileSync(bad, 'contexts: : :\n');
    expect((await connectError(connectCluster({ kubeconfig: bad, env: {} }))).reason).toBe('Malformed');
    const f = writeKubeconfig(path.join(dir, 'config'), { server: 'http://127.0.0.1:1', context: 'kind-dev' });
    const err = await connectError(connectCluster({ kubeconfig: f, context: 'prod', env: {} }));
    expect(err.reason).toBe('ContextNotFound');
    expect(err.message).toContain('"kind-dev"');
  });

  it('server unreachable → says which server and which context', async () => {
    const port = await closedPort();
    const f = writeKubeconfig(path.join(dir, 'config'), { server: `http://127.0.0.1:${port}`, context: 'gone' });
    const err = await connectError(connectCluster({ kubeconfig: f, env: {} }));
    expect(err.reason).toBe('Unreachable');
    expect(err.message).toContain(`http://127.0.0.1:${port}`);
    expect(err.message).toContain('context "gone"');
    expect(err.message).toContain('connection refused');
  });

  it('401 → bad credentials, even though /version answered', async () => {
    const s = await cluster({ token: 'right' });
    const f = writeKubeconfig(path.join(dir, 'config'), { server: s.url, token: 'wrong' });
    const err = await connectError(connectCluster({ kubeconfig: f, env: {} }));
    expect(err.reason).toBe('Unauthorized');
    expect(err.message).toContain('rejected the credentials');
  });

  it('403 on a kind → names the kind, the missing verb and the RBAC rule', async () => {
    const s = await cluster({ allowed: ['list deployments'] });
    const f = writeKubeconfig(path.join(dir, 'config'), { server: s.url });
    const err = await connectError(
      connectCluster({ kubeconfig: f, env: {}, access: [{ gvr: DEPLOYMENTS, kind: 'Deployment', namespace: 'shop' }] }),
    );
    expect(err.reason).toBe('Forbidden');
    expect(err.message).toContain('missing RBAC for Deployment (deployments.apps) in namespace "shop"');
    expect(err.message).toContain('cannot watch');
    expect(err.message).toContain('apiGroups ["apps"], resources ["deployments"], verbs ["watch"]');
  });

  it('failOnMissingAccess=false returns the findings instead', async () => {
    const s = await cluster({});
    const f = writeKubeconfig(path.join(dir, 'config'), { server: s.url });
    const conn = await connectCluster({ kubeconfig: f, env: {}, access: [{ gvr: PODS }], failOnMissingAccess: false });
    expect(conn.access[0]!.missing).toEqual(['list', 'watch']);
  });

  it('TLS failure → says to check the CA', async () => {
    const tls = selfSignedCert(dir);
    const s = await startTestServer((_req, res) => sendJson(res, 200, {}), tls);
    servers.push(s);
    const f = writeKubeconfig(path.join(dir, 'config'), { server: s.url });
    const err = await connectError(connectCluster({ kubeconfig: f, env: {} }));
    expect(err.reason).toBe('TLSError');
    expect(err.message).toContain('certificate-authority');
  });
});

describe('checkAccess', () => {
  it('falls back to real list/watch requests when there is no authorization API', async () => {
    const s = await cluster({ authorizationApi: false, allowed: ['list pods'] });
    const r = await checkAccess(configFor(s), PODS, ['list', 'watch', 'create'], { kind: 'Pod' });
    expect(r).toMatchObject({ method: 'request', allowed: ['list'], missing: ['watch'], unknown: ['create'] });
    expect(r.message).toContain('missing RBAC for Pod (pods) cluster-wide');
    expect(r.message).toContain('ClusterRoleBinding');
  });

  it('all verbs allowed → no message', async () => {
    const s = await cluster({ allowed: ['get pods', 'list pods'] });
    const r = await checkAccess(configFor(s), PODS, ['get', 'list']);
    expect(r.missing).toEqual([]);
    expect(r.message).toBeUndefined();
  });
});

describe('an access check the request itself contradicts', () => {
  it('SelfSubjectAccessReview allows list but the LIST answers 403: fails at once, naming the kind', async () => {
    const s = await cluster({
      allowed: ['list pods', 'watch pods', 'list deployments', 'watch deployments'],
      listDenied: ['deployments'],
    });
    const config = configFor(s);
    const pods = await checkAccess(config, PODS, ['list', 'watch'], { kind: 'Pod' });
    expect(pods.missing).toEqual([]);
    const deployments = await checkAccess(config, DEPLOYMENTS, ['list', 'watch'], { kind: 'Deployment' });
    expect(deployments).toMatchObject({ allowed: ['watch'], missing: ['list'] });
    expect(deployments.message).toMatch(/^cannot list Deployment \(deployments\.apps\) cluster-wide: /);
    expect(deployments.message).toContain('the LIST itself answered 403 Forbidden');
    expect(deployments.message).not.toContain('Pod');
  });
});
