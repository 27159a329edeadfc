import { describe, expect, it } from 'vitest';
import { frameChunks } from './bytes-protobuf';

/** A length-prefixed frame of `n` bytes, each byte its frame's tag. */
function frame(n: number, tag: number): Buffer {
  const b = Buffer.alloc(4 + n, tag);
  b.writeUInt32BE(n, 0);
  return b;
}

describe('frameChunks', () => {
  it('groups whole frames into writes just over the chunk size, keeping every byte in order', () => {
    const frames = [frame(10, 1), frame(30, 2), frame(5, 3), frame(40, 4), frame(1, 5)];
    const stream = Buffer.concat(frames);
    const chunks = frameChunks(stream, 40);
    expect(Buffer.concat(chunks).equals(stream)).toBe(true);
    // 14 + 34 > 40 closes the first write; 9 + 44 > 40 the second; the last frame is a write of its own.
    expect(chunks.map((c) => c.length)).toEqual([48, 53, 5]);
  });

  it('returns no writes for an empty stream', () => {
    expect(frameChunks(Buffer.alloc(0), 64)).toEqual([]);
  });

  it('refuses a stream cut inside a frame or its header', () => {
    const stream = Buffer.concat([frame(10, 1), frame(10, 2)]);
    expect(() => frameChunks(stream.subarray(0, stream.length - 1), 64)).toThrow(/ends inside a frame/);
    expect(() => frameChunks(stream.subarray(0, 16), 64)).toThrow(/ends inside a frame header/);
  });
});
