// Per-connection bounds on inspect answers. Answers are built at once and queued on the client's socket, so a
// client that asks faster than it reads (or asks for huge slices) could fill the server's heap: a new request
// is refused while the connection still has too much unsent, and an answer over the size cap is replaced by
// an error saying how to ask for less.
import type { Ack } from '../../../shared/protocol/commands';
import { preEncode } from './json-parser';

export interface InspectLimits {
  /** Largest answer sent, in bytes of JSON. Default 4 MiB. */
  maxAnswerBytes: number;
  /** Refuse new requests while this many bytes wait to be written to the client. Default 8 MiB. */
  maxPendingBytes: number;
  /** Refuse new requests while this many packets wait to be written to the client. Default 32. */
  maxPendingPackets: number;
}

export const DEFAULT_INSPECT_LIMITS: InspectLimits = {
  maxAnswerBytes: 4 * 1024 * 1024,
  maxPendingBytes: 8 * 1024 * 1024,
  maxPendingPackets: 32,
};

const mib = (n: number): string => `${(n / (1024 * 1024)).toFixed(1)} MiB`;

/** A refusal when the connection already has too much unsent, else undefined. */
export function busyRefusal(
  pending: { bufferedPackets: number; bufferedBytes: number },
  limits: InspectLimits,
  what: 'inspect' | 'hello' = 'inspect',
): (Ack<never> & { ok: false }) | undefined {
  if (pending.bufferedPackets < limits.maxPendingPackets && pending.bufferedBytes < limits.maxPendingBytes) {
    return undefined;
  }
  return {
    ok: false,
    code: 'busy',
    error:
      `${what} refused: this connection has ${pending.bufferedPackets} messages (${mib(pending.bufferedBytes)}) ` +
      `not yet delivered (limits ${limits.maxPendingPackets} messages, ${mib(limits.maxPendingBytes)}); ` +
      'wait for earlier answers before asking again',
  };
}

/** The answer, or a refusal when its JSON is over the size cap. */
export function capAnswer<T>(answer: Ack<T>, limits: InspectLimits): Ack<T> {
  if (!answer.ok) return answer;
  const json = JSON.stringify(answer);
  const bytes = Buffer.byteLength(json);
  if (bytes <= limits.maxAnswerBytes) return preEncode(answer, json);
  return {
    ok: false,
    code: 'tooLarge',
    error:
      `inspect answer would be ${mib(bytes)}, over the ${mib(limits.maxAnswerBytes)} limit per answer; ` +
      'ask for fewer items (a smaller "limit") or a narrower subscription',
  };
}
