// Decoding that skips metadata.managedFields, for informers whose transform drops them anyway
// (transformStripManagedFields). managedFields are made of many tiny objects, so parsing and then collecting
// them costs more than their share of the bytes (the bench's Pods: 10 % of the bytes, 17 % of our ingest CPU). Each
// `"managedFields":[...]` array is cut out of the text before JSON.parse and a sentinel number put in its place;
// after the parse, a cut is accepted only when the sentinel sits exactly at an object's metadata.managedFields.
// Anything else (the key elsewhere in the object, a duplicate key, brackets that do not balance) falls back to
// parsing the original text whole and leaves managedFields to the transform, so the stored object is always what
// JSON.parse then the transform gives. A single object (a watch line) has one metadata, so only the first
// array is cut and the rest of the text is not searched; a List body has every array cut, and each cut must be
// found at some item's metadata.
//
// Finding the key with indexOf is sound because in valid JSON `"managedFields":` always ends a key: the quote
// after the name is unescaped, so it closes a string, and a string followed by a colon is a key (whose name may
// only end in managedFields, as `"x\"managedFields":`; the sentinel check catches that). The one leniency: the
// cut checks that the dropped array's strings and brackets balance, not the grammar inside it, so a server
// sending `"managedFields":[nonsense]` gets that array dropped where JSON.parse would refuse the whole text.

const KEY = '"managedFields":';
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
/** Deeper arrays than this are not cut (the full parse handles them); fieldsV1 nests one level per path step. */
const MAX_DEPTH = 128;

/**
 * What replaces a cut array: a negative integer drawn once per process, between -2^30 and -2^29 (never a small
 * number a buggy server might send, and still a small integer for V8). The API server only ever sends an array (or
 * nothing) as metadata.managedFields, and no server can guess this value, so finding it there after the parse
 * proves the cut made it.
 */
const SENTINEL = -(0x2000_0000 + Math.floor(Math.random() * 0x1fff_ffff));
const SENTINEL_TEXT = String(SENTINEL);

const stack = new Uint8Array(MAX_DEPTH);

/** The index after the string that opens at q, or -1 when it does not close. */
function skipString(text: string, q: number): number {
  let j = q;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return -1;
    let k = j - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    // An even run of backslashes before the quote escapes only itself: the quote closes the string.
    if ((j - 1 - k) % 2 === 0) return j + 1;
  }
}

/** The index after the array that opens at start, or -1 when its brackets do not balance within the text. */
function skipArray(text: string, start: number): number {
  let depth = 0;
  const n = text.length;
  for (let p = start; p < n;) {
    const c = text.charCodeAt(p);
    if (c === QUOTE) {
      p = skipString(text, p);
      if (p < 0) return -1;
      continue;
    }
    if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (depth === MAX_DEPTH) return -1;
      stack[depth++] = c;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      if (depth === 0 || stack[--depth] !== (c === CLOSE_BRACKET ? OPEN_BRACKET : OPEN_BRACE)) return -1;
      if (depth === 0) return p + 1;
    }
    p++;
  }
  return -1;
}

interface Cut {
  text: string;
  /** Per cut, in text order: whether the array was the last member of its object. */
  last: boolean[];
}

/**
 * The text with `"managedFields":[...]` arrays replaced by the sentinel: every one, or only the first when
 * `all` is false (a single object has one metadata, and the rest of the text need not be searched); undefined
 * when nothing was cut.
 */
function cutArrays(text: string, all: boolean): Cut | undefined {
  let at = text.indexOf(KEY);
  if (at < 0) return undefined;
  let out = '';
  let from = 0;
  const last: boolean[] = [];
  while (at >= 0) {
    const value = at + KEY.length;
    if (text.charCodeAt(value) !== OPEN_BRACKET) {
      at = text.indexOf(KEY, value);
      continue;
    }
    const end = skipArray(text, value);
    if (end < 0) return undefined;
    out += text.slice(from, value) + SENTINEL_TEXT;
    last.push(text.charCodeAt(end) === CLOSE_BRACE);
    from = end;
    if (!all) break;
    at = text.indexOf(KEY, end);
  }
  if (last.length === 0) return undefined;
  return { text: out + text.slice(from), last };
}

type Meta = Record<string, unknown>;

function metadataOf(obj: unknown): Meta | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const m = (obj as { metadata?: unknown }).metadata;
  return typeof m === 'object' && m !== null && (m as Meta).managedFields === SENTINEL ? (m as Meta) : undefined;
}

/**
 * Removes the sentinel. Deleting an object's last property takes V8's fast path back to the shape the object
 * had before it; deleting any other turns it into a dictionary, which costs more heap than it saves, so then the
 * metadata is copied without the key (as dropManagedFields does).
 */
function removeSentinel(holder: { metadata?: unknown }, meta: Meta, wasLast: boolean): void {
  if (wasLast) {
    delete meta.managedFields;
    return;
  }
  const { managedFields: _cut, ...rest } = meta;
  holder.metadata = rest;
}

/** A single object (a GET, a PartialObjectMetadata): JSON.parse of text without metadata.managedFields. */
export function parseObjectWithoutManagedFields(text: string): unknown {
  return parseAt(text, (v) => v);
}

/** A watch event line {"type":…,"object":…}: its object without metadata.managedFields. */
export function parseWatchEventWithoutManagedFields(text: string): unknown {
  return parseAt(text, (v) => (typeof v === 'object' && v !== null ? (v as { object?: unknown }).object : undefined));
}

/** The text with its managedFields arrays cut, parsed; undefined when nothing was cut or the rest does not parse. */
function parseCut(text: string, all: boolean): { v: unknown; cut: Cut } | undefined {
  const cut = cutArrays(text, all);
  if (!cut) return undefined;
  try {
    return { v: JSON.parse(cut.text), cut };
  } catch {
    return undefined;
  }
}

function parseAt(text: string, objectOf: (v: unknown) => unknown): unknown {
  const parsed = parseCut(text, false);
  if (!parsed) return JSON.parse(text);
  const { v, cut } = parsed;
  const obj = objectOf(v) as { metadata?: unknown } | undefined;
  const meta = metadataOf(obj);
  if (!meta) return JSON.parse(text);
  removeSentinel(obj!, meta, cut.last[0]!);
  return v;
}

/** A List body: its items without metadata.managedFields. */
export function parseListWithoutManagedFields(text: string): unknown {
  const parsed = parseCut(text, true);
  if (!parsed) return JSON.parse(text);
  const { v, cut } = parsed;
  const items = typeof v === 'object' && v !== null ? (v as { items?: unknown }).items : undefined;
  if (!Array.isArray(items)) return JSON.parse(text);
  // Every cut must be accounted for by an item's metadata (each cut leaves exactly one sentinel value in the
  // parsed tree, or none when a duplicate key overwrote it), else one of them landed somewhere else.
  let found = 0;
  for (const item of items) if (metadataOf(item)) found++;
  if (found !== cut.last.length) return JSON.parse(text);
  let i = 0;
  for (const item of items) {
    const meta = metadataOf(item);
    if (meta) removeSentinel(item as { metadata?: unknown }, meta, cut.last[i++]!);
  }
  return v;
}
