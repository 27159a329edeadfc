// The protobuf form of what bench/bytes-server.ts serves: the Go peer's `-only convert` encodes the same JSON
// (a PodList, and watch lines) as kube-apiserver would for Accept: application/vnd.kubernetes.protobuf, so
// client-go can be measured on its default wire format with the very objects the JSON peers get.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
export const PROTOBUF_WATCH = `${PROTOBUF};stream=watch`;

export interface ProtobufBytes {
  /** "k8s\0" + runtime.Unknown wrapping the PodList. */
  list: Buffer;
  /** Length-prefixed metav1.WatchEvent frames, grouped into writes of about `chunkBytes`. */
  initialEvents: Buffer[];
  watchUpdates: Buffer[];
}

/** Splits a stream of 4-byte big-endian length-prefixed frames into writes of whole frames. */
export function frameChunks(stream: Buffer, chunkBytes: number): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  let at = 0;
  while (at < stream.length) {
    if (at + 4 > stream.length) throw new Error(`a protobuf watch stream ends inside a frame header at byte ${at}`);
    at += 4 + stream.readUInt32BE(at);
    if (at > stream.length) throw new Error(`a protobuf watch stream ends inside a frame at byte ${stream.length}`);
    if (at - start > chunkBytes) {
      out.push(stream.subarray(start, at));
      start = at;
    }
  }
  if (at > start) out.push(stream.subarray(start, at));
  return out;
}

/** Runs the Go converter on the JSON the server holds; throws with its message when it refuses. */
export function toProtobuf(
  goBin: string,
  json: { list: Buffer; initialLines: string; watchLines: string },
  chunkBytes: number,
): ProtobufBytes {
  const dir = mkdtempSync(join(tmpdir(), 'bytes-server-pb-'));
  try {
    writeFileSync(join(dir, 'list.json'), json.list);
    writeFileSync(join(dir, 'initial.jsonl'), json.initialLines);
    writeFileSync(join(dir, 'watch.jsonl'), json.watchLines);
    execFileSync(goBin, ['-only', 'convert', '-dir', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    return {
      list: readFileSync(join(dir, 'list.pb')),
      initialEvents: frameChunks(readFileSync(join(dir, 'initial.pb')), chunkBytes),
      watchUpdates: frameChunks(readFileSync(join(dir, 'watch.pb')), chunkBytes),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
