// The one HTTP transport of the runtime (the role of client-go's rest.RESTClient + rest.Request): JSON
// requests and newline-delimited streams against the server of a RestConfig. Credentials, TLS material and
// proxies come from @kubernetes/client-node's KubeConfig.applyToHTTPSOptions; bytes move over node:http(s).
// Error statuses become ApiError from the metav1.Status body (client-go's transformResponse); transport
// failures become ApiError code 0 with a message that says what to check.
import { X509Certificate } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Clock, TimerHandle } from '../util/clock';
import { realClock } from '../util/clock';
import { ApiError, errorMessage } from '../util/errors';
import { genericMessage, parseStatus, reasonForCode, transportError, TransportReason } from './http-errors';
import type { RestConfig } from './config';
import { mib, ResponseLines, type LineStream } from './http-lines';
import { TokenBucketRateLimiter } from './flowcontrol';
import type { RestClientMetrics } from '../metrics/client-go-adapter';

export { reasonForCode, transportError, TransportReason } from './http-errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined;

export interface HttpRequest {
  method?: HttpMethod;
  /** Absolute API path, e.g. /api/v1/namespaces/default/pods. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Serialized as JSON unless it is already a string. */
  body?: unknown;
  /** Default application/json when a body is sent. */
  contentType?: string;
  /** Default application/json (e.g. a meta.k8s.io conversion such as as=PartialObjectMetadataList). */
  accept?: string;
  signal?: AbortSignal;
  /** Decodes a successful JSON body (default JSON.parse), e.g. parseListWithoutManagedFields; throws on bad JSON. */
  parse?: (text: string) => unknown;
}

export type { LineStream } from './http-lines';

export interface HttpClientOptions {
  config: RestConfig;
  /** For the client-side rate limiter and Retry-After waits; default realClock. */
  clock?: Clock;
  /**
   * How often a 429, or a 5xx carrying Retry-After, is retried after waiting the time the server asked for
   * (client-go's rest.Request default of 10). 0 turns retries off.
   */
  maxRetries?: number;
  /** client-go's tools/metrics hooks (rest_client_* families); default none. */
  metrics?: RestClientMetrics;
  /** Bounds on a server that accepts but does not answer, and on what it may send. */
  limits?: Partial<HttpLimits>;
}

/**
 * client-go bounds dialing (30 s) and TLS handshakes (10 s) in its transport; a server that accepted the
 * connection and then went silent would still hold a request forever. These bound every phase, naming the
 * server and the phase when they fire. Watches get the connect and header bounds only: their body is open by
 * design (the server ends it at timeoutSeconds).
 */
export interface HttpLimits {
  /** TCP connect plus TLS handshake. Default 30 s. */
  connectTimeoutMs: number;
  /** From sending the request to the response headers. Default 60 s. */
  headerTimeoutMs: number;
  /** Longest silence while a non-watch body arrives. Default 60 s. */
  bodyIdleTimeoutMs: number;
  /** Largest non-watch response body. Default 256 MiB. */
  maxBodyBytes: number;
  /** Largest watch line (one event). Default 16 MiB; etcd stores objects up to 1.5 MiB. */
  maxWatchLineBytes: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  connectTimeoutMs: 30_000,
  headerTimeoutMs: 60_000,
  bodyIdleTimeoutMs: 60_000,
  maxBodyBytes: 256 * 1024 * 1024,
  maxWatchLineBytes: 16 * 1024 * 1024,
};

/** Longest Retry-After wait honoured, so a confused server cannot park a request for hours. */
const MAX_RETRY_AFTER_SECONDS = 60;

/** client-node's failure to prepare credentials, as something to act on (a missing exec plugin above all). */
function credentialsMessage(msg: string, host: string): string {
  const spawn = /spawn (\S+) ENOENT/.exec(msg);
  if (spawn) {
    return (
      `the kubeconfig's exec credential plugin "${spawn[1]}" (users[].user.exec.command) was not found: ` +
      `install it or put it on PATH, then retry (needed to authenticate to ${host})`
    );
  }
  return `cannot prepare credentials or TLS settings for ${host}: ${msg}`;
}

/**
 * Refuses certificate-authority data that is not a PEM certificate. Node would otherwise drop it silently and
 * verify against its own roots, so a garbled CA surfaced as "self-signed certificate".
 */
function checkCertificateAuthority(ca: unknown, host: string): void {
  const list = Array.isArray(ca) ? ca : [ca];
  for (const item of list) {
    const pem = typeof item === 'string' ? item : Buffer.isBuffer(item) ? item.toString('utf8') : '';
    const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    let problem = blocks.length === 0 ? 'it holds no PEM certificate (-----BEGIN CERTIFICATE-----)' : undefined;
    for (const block of blocks) {
      if (problem) break;
      try {
        new X509Certificate(block);
      } catch (err) {
        problem = `a certificate in it does not parse (${errorMessage(err)})`;
      }
    }
    if (problem) {
      throw new ApiError(
        0,
        TransportReason.ConfigError,
        `the certificate authority for ${host} (certificate-authority or certificate-authority-data in the ` +
          `kubeconfig) is unusable: ${problem}`,
      );
    }
  }
}

export class HttpClient {
  readonly config: RestConfig;
  private readonly limiter?: TokenBucketRateLimiter;
  private readonly clock: Clock;
  private readonly maxRetries: number;
  private readonly metrics?: RestClientMetrics;
  private readonly limits: HttpLimits;
  private agent?: http.Agent;
  private agentKey = '';

  constructor(opts: HttpClientOptions) {
    this.config = opts.config;
    this.clock = opts.clock ?? realClock;
    this.maxRetries = opts.maxRetries ?? 10;
    this.metrics = opts.metrics;
    this.limits = { ...DEFAULT_HTTP_LIMITS, ...opts.limits };
    if (this.config.qps > 0) {
      this.limiter = new TokenBucketRateLimiter({ qps: this.config.qps, burst: this.config.burst, clock: opts.clock });
    }
  }

  /** Sends a request and decodes the JSON answer; rejects with ApiError on an error status or transport failure. */
  async request<T>(req: HttpRequest): Promise<T> {
    let res: http.IncomingMessage;
    let text: string;
    for (let attempt = 0; ; attempt++) {
      ({ res } = await this.send(req, req.accept ?? 'application/json'));
      text = await this.readBody(res, req);
      if (res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode <= 299) break;
      const wait = this.retryAfter(res, attempt);
      if (wait === undefined) throw this.errorFromResponse(res, text, req);
      await this.clock.sleep(wait, req.signal);
    }
    if (text.trim() === '') return undefined as T;
    try {
      return (req.parse ? req.parse(text) : JSON.parse(text)) as T;
    } catch {
      // Not quoted: the body may be a truncated object, a Secret's data included.
      const type = res.headers['content-type'] ?? 'no content type';
      throw new ApiError(
        500,
        'InternalError',
        `the server answered ${req.method ?? 'GET'} ${req.path} with a body that is not JSON ` +
          `(${Buffer.byteLength(text)} bytes, ${type})`,
      );
    }
  }

  /** Opens a streaming GET (a watch). Resolves once a 200 arrives; rejects with ApiError otherwise. */
  async stream(req: HttpRequest): Promise<LineStream> {
    for (let attempt = 0; ; attempt++) {
      const { res, clientReq } = await this.send(req, req.accept ?? 'application/json');
      if (res.statusCode === 200) {
        return new ResponseLines(res, clientReq, this.config.host, this.limits.maxWatchLineBytes, req.signal);
      }
      const text = await this.readBody(res, req);
      const wait = this.retryAfter(res, attempt);
      if (wait === undefined) throw this.errorFromResponse(res, text, req);
      await this.clock.sleep(wait, req.signal);
    }
  }

  /** ms to wait before retrying (client-go checkWait: 429 or 5xx with a Retry-After), or undefined to give up. */
  private retryAfter(res: http.IncomingMessage, attempt: number): number | undefined {
    const code = res.statusCode ?? 0;
    if (attempt >= this.maxRetries || (code !== 429 && code < 500)) return undefined;
    const header = res.headers['retry-after'];
    if (header === undefined) return undefined;
    const seconds = Number(header);
    if (!Number.isFinite(seconds) || seconds < 0) return undefined;
    return Math.min(seconds, MAX_RETRY_AFTER_SECONDS) * 1000;
  }

  /** Closes idle keep-alive sockets. */
  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }

  private async send(
    req: HttpRequest,
    accept: string,
  ): Promise<{ res: http.IncomingMessage; clientReq: http.ClientRequest }> {
    req.signal?.throwIfAborted();
    const started = this.clock.now();
    await this.limiter?.wait(req.signal);
    const host = this.config.host;
    const opts: https.RequestOptions = {};
    try {
      await this.config.kubeConfig.applyToHTTPSOptions(opts);
    } catch (err) {
      const msg = errorMessage(err);
      // client-node refuses plain http unless insecure-skip-tls-verify is set, but only when building its
      // agent, after headers and auth are applied. There is no TLS to verify on http (kubectl and client-go
      // accept such kubeconfigs, e.g. the sandbox's), and this transport brings its own agent, so go on.
      const plainHttpRule = /HTTP protocol is not allowed/.test(msg) && host.startsWith('http:');
      if (!plainHttpRule) throw new ApiError(0, TransportReason.ConfigError, credentialsMessage(msg, host));
    }
    const url = new URL(host + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { Accept: accept, 'User-Agent': this.config.userAgent };
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k] = String(v);
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
      headers['Content-Type'] = req.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    const isHttps = url.protocol === 'https:';
    const cluster = this.config.kubeConfig.getCurrentCluster();
    // A proxy needs client-node's proxy agent; otherwise keep one keep-alive agent per TLS identity.
    const agent = cluster?.proxyUrl ? (opts.agent as http.Agent) : this.agentFor(opts, isHttps);
    const requestOptions: https.RequestOptions = {
      method: req.method ?? 'GET',
      headers,
      agent,
      auth: opts.auth,
    };
    const what = `${requestOptions.method ?? 'GET'} ${req.path}`;
    return new Promise((resolve, reject) => {
      const clientReq = (isHttps ? https : http).request(url, requestOptions);
      const onAbort = (): void => {
        clientReq.destroy();
        reject(req.signal?.reason);
      };
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const method = requestOptions.method ?? 'GET';
      const fail = (message: string): void => {
        clientReq.destroy(new ApiError(0, TransportReason.Timeout, message));
      };
      const { connectTimeoutMs, headerTimeoutMs } = this.limits;
      let connectTimer: TimerHandle | undefined;
      clientReq.on('socket', (socket) => {
        // A reused keep-alive socket is connected already.
        const pending = (socket as { connecting?: boolean }).connecting === true;
        if (!pending) return;
        connectTimer = this.clock.setTimer(
          () =>
            fail(
              `could not connect to the API server at ${host} within ${connectTimeoutMs / 1000} s (${what}). ` +
                'Is the address in the kubeconfig reachable from here (VPN, firewall)?',
            ),
          connectTimeoutMs,
        );
        socket.once(isHttps ? 'secureConnect' : 'connect', () => connectTimer?.cancel());
      });
      const headerTimer = this.clock.setTimer(
        () =>
          fail(
            `the API server at ${host} did not answer ${what} within ${headerTimeoutMs / 1000} s; it may be ` +
              'overloaded or stuck, or the address may point at something that is not an API server',
          ),
        headerTimeoutMs,
      );
      const clearTimers = (): void => {
        connectTimer?.cancel();
        headerTimer.cancel();
      };
      clientReq.on('response', (res) => {
        clearTimers();
        req.signal?.removeEventListener('abort', onAbort);
        // As client-go's updateRequestResultMetric (per attempt) and RequestLatency (host with port).
        this.metrics?.requestResult(String(res.statusCode ?? 0), method, url.host);
        this.metrics?.requestLatency(method, url.host, (this.clock.now() - started) / 1000);
        resolve({ res, clientReq });
      });
      clientReq.on('error', (err) => {
        clearTimers();
        req.signal?.removeEventListener('abort', onAbort);
        if (!req.signal?.aborted) this.metrics?.requestResult('<error>', method, url.host);
        if (req.signal?.aborted) reject(req.signal.reason);
        else reject(err instanceof ApiError ? err : transportError(err, host));
      });
      clientReq.end(payload);
    });
  }

  private agentFor(opts: https.RequestOptions, isHttps: boolean): http.Agent {
    const tls = {
      ca: opts.ca,
      cert: opts.cert,
      key: opts.key,
      rejectUnauthorized: opts.rejectUnauthorized,
      servername: opts.servername,
    };
    const key = `${isHttps}|${String(tls.ca)}|${String(tls.cert)}|${String(tls.key)}|${tls.rejectUnauthorized}|${tls.servername}`;
    if (!this.agent || key !== this.agentKey) {
      if (isHttps && tls.ca !== undefined) checkCertificateAuthority(tls.ca, this.config.host);
      // An exec plugin may rotate the client certificate; a new identity needs a new agent. Streams still
      // open on the old agent keep their sockets.
      this.agent = isHttps ? new https.Agent({ ...tls, keepAlive: true }) : new http.Agent({ keepAlive: true });
      this.agentKey = key;
    }
    return this.agent;
  }

  /** The whole body, within the idle timeout and the size cap. */
  private readBody(res: http.IncomingMessage, req: HttpRequest): Promise<string> {
    const { signal } = req;
    const host = this.config.host;
    const { bodyIdleTimeoutMs, maxBodyBytes } = this.limits;
    const what = `${req.method ?? 'GET'} ${req.path}`;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        res.destroy();
        reject(signal.reason);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let idle: TimerHandle | undefined;
      const finish = (): void => {
        idle?.cancel();
        signal?.removeEventListener('abort', onAbort);
      };
      const failWith = (err: unknown): void => {
        finish();
        res.destroy();
        reject(err);
      };
      const arm = (): void => {
        idle?.cancel();
        idle = this.clock.setTimer(
          () =>
            failWith(
              new ApiError(
                0,
                TransportReason.Timeout,
                `the API server at ${host} stopped sending its answer to ${what}: no data for ` +
                  `${bodyIdleTimeoutMs / 1000} s after ${size} bytes`,
              ),
            ),
          bodyIdleTimeoutMs,
        );
      };
      const onAbort = (): void => failWith(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      arm();
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBodyBytes) {
          failWith(
            new ApiError(
              0,
              TransportReason.TooLarge,
              `the answer of the API server at ${host} to ${what} is over ${mib(maxBodyBytes)}; refused ` +
                '(list with a smaller limit, or raise the client limit)',
            ),
          );
          return;
        }
        chunks.push(c);
        arm();
      });
      res.on('end', () => {
        finish();
        resolve(Buffer.concat(chunks).toString('utf-8'));
      });
      res.on('error', (err) => {
        finish();
        reject(signal?.aborted ? signal.reason : transportError(err, host));
      });
    });
  }

  private errorFromResponse(res: http.IncomingMessage, text: string, req: HttpRequest): ApiError {
    const code = res.statusCode ?? 0;
    const retryAfter = Number(res.headers['retry-after']);
    let status = parseStatus(text);
    if (!status) {
      status = {
        apiVersion: 'v1',
        kind: 'Status',
        metadata: {},
        status: 'Failure',
        code,
        reason: reasonForCode(code),
        message: genericMessage(code, text),
      };
      if (retryAfter > 0) status.details = { retryAfterSeconds: retryAfter };
    }
    // What a Go TLS server (kube-apiserver) answers a plain-http request with.
    if (code === 400 && /client sent an HTTP request to an HTTPS server/i.test(text)) {
      const https = this.config.host.replace(/^http:/, 'https:');
      return new ApiError(
        400,
        'BadRequest',
        `the API server at ${this.config.host} speaks HTTPS, not plain HTTP: use ${https} as the server ` +
          'address in the kubeconfig',
        status,
      );
    }
    if (code === 401) {
      const ctx = this.config.contextName;
      return new ApiError(
        401,
        'Unauthorized',
        `Unauthorized: the API server at ${this.config.host} rejected the credentials of context "${ctx}" ` +
          `(${req.method ?? 'GET'} ${req.path}). The token or client certificate is missing, wrong or expired; ` +
          'refresh your credentials (e.g. log in again) or pick another context.',
        status,
      );
    }
    return new ApiError(status.code || code, status.reason ?? '', status.message ?? `status ${code}`, status);
  }
}
