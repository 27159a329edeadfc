import fc from 'fast-check';
import { Decoder, Encoder, PacketType, type Packet } from 'socket.io-parser';
import { describe, expect, it } from 'vitest';
import { encodePacket, jsonOnlyParser } from './json-parser';

const packets = fc.record(
  {
    type: fc.constantFrom(PacketType.CONNECT, PacketType.DISCONNECT, PacketType.EVENT, PacketType.ACK),
    nsp: fc.constantFrom('/', '/admin'),
    data: fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue())),
    id: fc.nat(),
  },
  { requiredKeys: ['type', 'nsp'] },
);

describe('jsonOnlyParser', () => {
  it('writes what socket.io’s own encoder writes for every packet without binary', () => {
    fc.assert(
      fc.property(packets, (p: Packet) => {
        expect(new jsonOnlyParser.Encoder().encode(p)).toEqual(new Encoder().encode(p));
      }),
    );
  });

  it('round-trips through socket.io’s decoder, as the browser reads it', () => {
    const events = [{ kind: 'queue.add', seq: 1, ts: 2, key: 'team-1/cm-1', nested: { a: [1, null, 'x"y'] } }];
    const got: Packet[] = [];
    const decoder = new Decoder();
    decoder.on('decoded', (p: Packet) => got.push(p));
    decoder.add(encodePacket({ type: PacketType.EVENT, nsp: '/', data: ['batch', { seq: 1, events }] }));
    expect(got).toEqual([{ type: PacketType.EVENT, nsp: '/', data: ['batch', { seq: 1, events }] }]);
  });
});
