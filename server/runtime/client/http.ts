// The one HTTP transport of the runtime (the role of client-go's rest.RESTClient + rest.Request): JSON
// requests and newline-delimited streams against the server of a RestConfig. Credentials, TLS material and
// proxies come from @kubernetes/client-node's KubeConfig.applyToHTTPSOptions; bytes move over node:http(s).
// Error statuses become ApiError from the metav1.Status body (client-go's transformResponse); transport
// failures become ApiError code 0 with a message that says what to check.
import http from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import type { Clock } from '../util/clock';
import { realClock } from '../util/clock';
import { ApiError } from '../util/errors';
import { genericMessage, parseStatus, reasonForCode, snippet, transportError, TransportReason } from './http-errors';
import type { RestConfig } from './config';
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
  signal?: AbortSignal;
}

/** A streaming response: its lines (without the newline, blank lines skipped) until the server ends it. */
export interface LineStream extends AsyncIterable<string> {
  stop(): void;
}

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
}

/** Longest Retry-After wait honoured, so a confused server cannot park a request for hours. */
const MAX_RETRY_AFTER_SECONDS = 60;

export class HttpClient {
  readonly config: RestConfig;
  private readonly limiter?: TokenBucketRateLimiter;
  private readonly clock: Clock;
  private readonly maxRetries: number;
  private readonly metrics?: RestClientMetrics;
  private agent?: http.Agent;
  private agentKey = '';

  constructor(opts: HttpClientOptions) {
    this.config = opts.config;
    this.clock = opts.clock ?? realClock;
    this.maxRetries = opts.maxRetries ?? 10;
    this.metrics = opts.metrics;
    if (this.config.qps > 0) {
      this.limiter = new TokenBucketRateLimiter({ qps: this.config.qps, burst: this.config.burst, clock: opts.clock });
    }
  }

  /** Sends a request and decodes the JSON answer; rejects with ApiError on an error status or transport failure. */
  async request<T>(req: HttpRequest): Promise<T> {
    let res: http.IncomingMessage;
    let text: string;
    for (let attempt = 0; ; attempt++) {
      ({ res } = await this.send(req, 'application/json'));
      text = await readBody(res, this.config.host, req.signal);
      if (res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode <= 299) break;
      const wait = this.retryAfter(res, attempt);
      if (wait === undefined) throw this.errorFromResponse(res, text, req);
      await this.clock.sleep(wait, req.signal);
    }
    if (text.trim() === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(
        500,
        'InternalError',
        `the server answered ${req.method ?? 'GET'} ${req.path} with a body that is not JSON: ${snippet(text)}`,
      );
    }
  }

  /** Opens a streaming GET (a watch). Resolves once a 200 arrives; rejects with ApiError otherwise. */
  async stream(req: HttpRequest): Promise<LineStream> {
    for (let attempt = 0; ; attempt++) {
      const { res, clientReq } = await this.send(req, 'application/json');
      if (res.statusCode === 200) return new ResponseLines(res, clientReq, this.config.host, req.signal);
      const text = await readBody(res, this.config.host, req.signal);
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
      const msg = err instanceof Error ? err.message : String(err);
      // client-node refuses plain http unless insecure-skip-tls-verify is set, but only when building its
      // agent, after headers and auth are applied. There is no TLS to verify on http (kubectl and client-go
      // accept such kubeconfigs, e.g. the sandbox's), and this transport brings its own agent, so go on.
      const plainHttpRule = /HTTP protocol is not allowed/.test(msg) && host.startsWith('http:');
      if (!plainHttpRule) {
        throw new ApiError(
          0,
          TransportReason.ConfigError,
          `cannot prepare credentials or TLS settings for ${host}: ${msg}`,
        );
      }
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
    return new Promise((resolve, reject) => {
      const clientReq = (isHttps ? https : http).request(url, requestOptions);
      const onAbort = (): void => {
        clientReq.destroy();
        reject(req.signal?.reason);
      };
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const method = requestOptions.method ?? 'GET';
      clientReq.on('response', (res) => {
        req.signal?.removeEventListener('abort', onAbort);
        // As client-go's updateRequestResultMetric (per attempt) and RequestLatency (host with port).
        this.metrics?.requestResult(String(res.statusCode ?? 0), method, url.host);
        this.metrics?.requestLatency(method, url.host, (this.clock.now() - started) / 1000);
        resolve({ res, clientReq });
      });
      clientReq.on('error', (err) => {
        req.signal?.removeEventListener('abort', onAbort);
        if (!req.signal?.aborted) this.metrics?.requestResult('<error>', method, url.host);
        reject(req.signal?.aborted ? req.signal.reason : transportError(err, host));
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
      // An exec plugin may rotate the client certificate; a new identity needs a new agent. Streams still
      // open on the old agent keep their sockets.
      this.agent = isHttps ? new https.Agent({ ...tls, keepAlive: true }) : new http.Agent({ keepAlive: true });
      this.agentKey = key;
    }
    return this.agent;
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

function readBody(res: http.IncomingMessage, host: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      res.destroy();
      reject(signal.reason);
      return;
    }
    const chunks: Buffer[] = [];
    const onAbort = (): void => {
      res.destroy();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(Buffer.concat(chunks).toString('utf-8'));
    });
    res.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? signal.reason : transportError(err, host));
    });
  });
}

class ResponseLines implements LineStream {
  private stopped = false;
  private iterated = false;
  private readonly onAbort = (): void => this.stop();

  constructor(
    private readonly res: http.IncomingMessage,
    private readonly clientReq: http.ClientRequest,
    private readonly host: string,
    private readonly signal?: AbortSignal,
  ) {
    // A connection reset while nobody iterates would otherwise be an unhandled 'error' event (a crash);
    // iteration still sees the failure through the stream's own error state.
    res.on('error', () => {});
    if (signal?.aborted) this.stop();
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.signal?.removeEventListener('abort', this.onAbort);
    this.res.destroy();
    this.clientReq.destroy();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    if (this.iterated) throw new Error('a watch stream can be iterated only once');
    this.iterated = true;
    const decoder = new StringDecoder('utf8');
    let buf = '';
    try {
      if (this.stopped) return;
      for await (const chunk of this.res) {
        buf += decoder.write(chunk as Buffer);
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line !== '') yield line;
          if (this.stopped) return;
        }
      }
      const rest = (buf + decoder.end()).trim();
      if (rest !== '' && !this.stopped) yield rest;
    } catch (err) {
      if (this.stopped) return;
      throw transportError(err, this.host);
    } finally {
      this.stop();
    }
  }
}
