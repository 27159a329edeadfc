// Reads a recording file back: gzip (version 2, what --record and Rec write) or plain JSON lines (version 1
// files, and a version 2 file someone gunzipped), with errors that say which line is wrong and why. Lines
// are bounded (MAX_RECORDING_LINE_BYTES) before they are held, so an endless line cannot take the heap.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { constants, createGunzip } from 'node:zlib';
import { MAX_RECORDING_LINE_BYTES } from '../../../shared/protocol/recording';
import type { Recording } from '../../../shared/protocol/recording';
import { RecordingError, RecordingParser, tooLong } from '../../../shared/protocol/recording-parse';

export { RecordingError };

async function isGzip(file: string): Promise<boolean> {
  const fd = await open(file, 'r');
  try {
    const magic = Buffer.alloc(2);
    const { bytesRead } = await fd.read(magic, 0, 2, 0);
    return bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    await fd.close();
  }
}

export interface ReadRecordingOptions {
  /** Longest line accepted. Default MAX_RECORDING_LINE_BYTES. */
  maxLineBytes?: number;
}

export async function readRecording(file: string, opts: ReadRecordingOptions = {}): Promise<Recording> {
  const max = opts.maxLineBytes ?? MAX_RECORDING_LINE_BYTES;
  const parser = new RecordingParser(file, max);
  const raw = createReadStream(file);
  // A file cut short (the recording process was killed) still gives every line written before the cut.
  const input = (await isGzip(file)) ? raw.pipe(createGunzip({ finishFlush: constants.Z_SYNC_FLUSH })) : raw;
  raw.on('error', (err) => input.destroy(err));
  const decoder = new StringDecoder('utf8');
  // The line being read, in pieces: only each new chunk is searched for a newline, so a long line costs its
  // length once.
  const pieces: string[] = [];
  let held = 0;
  let n = 0;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      const text = decoder.write(chunk);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        pieces.push(text.slice(start, nl));
        parser.line(pieces.join(''), ++n);
        pieces.length = 0;
        held = 0;
        start = nl + 1;
      }
      held += text.length - start;
      if (held > max) throw new RecordingError(`${file}:${n + 1}: ${tooLong(max)}`);
      if (start < text.length) pieces.push(text.slice(start));
    }
  } catch (err) {
    if (err instanceof RecordingError) throw err;
    throw new RecordingError(
      `${file}: cannot be read (${(err as Error).message}); is it a controller-scope recording?`,
    );
  } finally {
    raw.destroy();
  }
  const rest = pieces.join('') + decoder.end();
  // The last line of a file cut short is cut too: what it held is lost, the lines before it are whole.
  if (rest.trim() !== '') {
    let whole = n === 0;
    try {
      JSON.parse(rest);
      whole = true;
    } catch {
      // cut short
    }
    if (whole) parser.line(rest, ++n);
  }
  return parser.finish();
}
