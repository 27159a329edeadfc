// socket.io's packet parser for a stream that is JSON only. The default encoder walks every value of every
// packet looking for binary attachments before it serializes: on a batch of thousands of events that walk
// cost about as much as JSON.stringify itself, in the same long task. The protocol never sends binary (every
// message is JSON, see shared/protocol), so this encoder writes the same text the default one writes for a
// packet without binary, without the walk. Incoming packets (hello, subscribe, inspect, command) are small and
// go through socket.io's own decoder.
import { Decoder, Encoder, PacketType, protocol, type Packet } from 'socket.io-parser';

/** The default encoder's string form: type, namespace unless "/", ack id, then the data as JSON. */
export function encodePacket(packet: Packet): string {
  let out = String(packet.type);
  if (packet.type === PacketType.BINARY_EVENT || packet.type === PacketType.BINARY_ACK) {
    out += `${packet.attachments ?? 0}-`;
  }
  if (packet.nsp && packet.nsp !== '/') out += `${packet.nsp},`;
  if (packet.id != null) out += String(packet.id);
  if (packet.data != null) out += Array.isArray(packet.data) ? encodeArgs(packet.data) : JSON.stringify(packet.data);
  return out;
}

const preEncoded = new WeakMap<object, string>();

/**
 * Marks value as already serialised to json (an inspect answer is serialised once to check its size), so
 * sending it splices that text in instead of serialising megabytes a second time in the same task.
 */
export function preEncode<T extends object>(value: T, json: string): T {
  preEncoded.set(value, json);
  return value;
}

function encodedArg(a: unknown): string {
  const pre = typeof a === 'object' && a !== null ? preEncoded.get(a) : undefined;
  return pre ?? JSON.stringify(a) ?? 'null';
}

function encodeArgs(args: unknown[]): string {
  if (!args.some((a) => typeof a === 'object' && a !== null && preEncoded.has(a))) return JSON.stringify(args);
  return `[${args.map(encodedArg).join(',')}]`;
}

class JsonEncoder extends Encoder {
  override encode(packet: Packet): string[] {
    return [encodePacket(packet)];
  }
}

/** The `parser` option of socket.io's Server. */
export const jsonOnlyParser = { protocol, Encoder: JsonEncoder, Decoder };
