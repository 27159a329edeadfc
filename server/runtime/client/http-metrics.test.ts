// controller-runtime's client-go adapter: every response (and transport failure) of the manager's HTTP
// client counts in rest_client_requests_total{code, method, host}; rest_client_request_duration_seconds
// {verb, host} exists only once registerRESTClientMetrics('requestLatency') asked for it.
import { afterEach, describe, expect, it } from 'vitest';
import { newRegistry } from '../metrics/registry';
import { registerRESTClientMetrics, restClientMetrics } from '../metrics/client-go-adapter';
import { RestConfig } from './config';
import { HttpClient } from './http';
import { closedPort, configFor, sendJson, startTestServer, status, type TestServer } from '../testing/test-server';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function values(reg: ReturnType<typeof newRegistry>, name: string) {
  return (await reg.getSingleMetric(name)?.get())?.values ?? [];
}

describe('rest_client_* metrics', () => {
  it('counts each request by code, method and host:port', async () => {
    const s = await startTestServer((req, res) => {
      if (req.path === '/api/v1/namespaces/x/configmaps/a') sendJson(res, 200, { kind: 'ConfigMap' });
      else sendJson(res, 404, status(404, 'NotFound', 'not found'));
    });
    servers.push(s);
    const reg = newRegistry(false);
    const c = new HttpClient({ config: configFor(s), metrics: restClientMetrics(reg) });
    await c.request({ path: '/api/v1/namespaces/x/configmaps/a' });
    await c.request({ path: '/api/v1/namespaces/x/configmaps/a' });
    await c.request({ path: '/api/v1/nope' }).catch(() => undefined);
    await c.request({ method: 'POST', path: '/api/v1/nope', body: {} }).catch(() => undefined);
    const host = new URL(s.url).host;
    const got = (await values(reg, 'rest_client_requests_total')).map((v) => [v.labels, v.value]);
    expect(got).toEqual(
      expect.arrayContaining([
        [{ code: '200', method: 'GET', host }, 2],
        [{ code: '404', method: 'GET', host }, 1],
        [{ code: '404', method: 'POST', host }, 1],
      ]),
    );
    expect(got).toHaveLength(3);
    // Not asked for: no latency family (upstream's opt-in).
    expect(reg.getSingleMetric('rest_client_request_duration_seconds')).toBeUndefined();
    c.close();
  });

  it('counts a transport failure as code "<error>"', async () => {
    const port = await closedPort();
    const reg = newRegistry(false);
    const c = new HttpClient({
      config: RestConfig.forServer(`http://127.0.0.1:${port}`),
      metrics: restClientMetrics(reg),
    });
    await c.request({ path: '/api' }).catch(() => undefined);
    const got = (await values(reg, 'rest_client_requests_total')).map((v) => [v.labels, v.value]);
    expect(got).toEqual([[{ code: '<error>', method: 'GET', host: `127.0.0.1:${port}` }, 1]]);
  });

  it('observes request latency by verb and host once registerRESTClientMetrics asked for it', async () => {
    const s = await startTestServer((_req, res) => sendJson(res, 200, {}));
    servers.push(s);
    const reg = newRegistry(false);
    registerRESTClientMetrics(reg, 'requestLatency');
    const c = new HttpClient({ config: configFor(s), metrics: restClientMetrics(reg) });
    await c.request({ path: '/api' });
    const host = new URL(s.url).host;
    const count = (await values(reg, 'rest_client_request_duration_seconds')).find(
      (v) => (v as { metricName?: string }).metricName === 'rest_client_request_duration_seconds_count',
    );
    expect(count).toMatchObject({ labels: { verb: 'GET', host }, value: 1 });
    c.close();
  });
});
