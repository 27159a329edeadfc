// A watch response as lines: each newline-delimited event, blank lines skipped, until the server ends the
// stream or it is stopped; a line over the cap ends it with an error instead of being buffered whole.
import type http from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { ApiError } from '../util/errors';
import { transportError, TransportReason } from './http-errors';

/** A streaming response: its lines (without the newline, blank lines skipped) until the server ends it. */
export interface LineStream extends AsyncIterable<string> {
  stop(): void;
}

export const mib = (n: number): string => `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;

export class ResponseLines implements LineStream {
  private stopped = false;
  private iterated = false;
  private readonly onAbort = (): void => this.stop();

  constructor(
    private readonly res: http.IncomingMessage,
    private readonly clientReq: http.ClientRequest,
    private readonly host: string,
    private readonly maxLineBytes: number,
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
          if (line.length > this.maxLineBytes) throw this.lineTooLong();
          if (line !== '') yield line;
          if (this.stopped) return;
        }
        // Characters, not bytes: a line this long is over the cap either way.
        if (buf.length > this.maxLineBytes) throw this.lineTooLong();
      }
      const rest = (buf + decoder.end()).trim();
      if (rest !== '' && !this.stopped) yield rest;
    } catch (err) {
      if (this.stopped) return;
      throw err instanceof ApiError ? err : transportError(err, this.host);
    } finally {
      this.stop();
    }
  }

  private lineTooLong(): ApiError {
    return new ApiError(
      0,
      TransportReason.TooLarge,
      `the watch stream from ${this.host} sent an event over ${mib(this.maxLineBytes)}, larger than any ` +
        'object the API server stores; the stream was closed',
    );
  }
}
