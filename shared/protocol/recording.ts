// The recording format, the one definition of it: what --record writes, what Rec downloads and --replay
// opens. A recording stands alone: after its header comes the state the view is derived from at the point it
// starts (the reduced view and every informer cache's keys and versions), so a recording taken after the
// recorder's ring wrapped still replays to the live view. Keyframes (the same state, later) follow every so
// many events and after every gap, so a seek backwards rebuilds from the nearest one and a gap does not leave
// the rest of the file wrong.
//
// On disk (version 2): gzip of JSON lines, one record a line, so `gunzip -c FILE | head` reads it. Version 1
// files (plain JSON lines, no state record: a replay built the view from the events alone) still load.
//
// WARNING: file-visible. Add optional fields freely; anything else bumps RECORDING_VERSION.
import type { StampedEvent } from './events';
import type { InformerId, MetaNamespaceKey, ObjectRef } from './ids';
import type { ClusterInfo } from './socket';
import type { RuntimeView, ViewLimits } from './view';

export const RECORDING_FORMAT = 'controller-scope/recording';

/**
 * Response headers of GET /api/recording: the seqs the file really holds. A span asked to start before the
 * oldest state the server can rebuild starts later; the viewer says so instead of letting it pass unseen.
 */
export const RECORDING_FROM_SEQ_HEADER = 'X-Recording-From-Seq';
export const RECORDING_TO_SEQ_HEADER = 'X-Recording-To-Seq';

/** 1: plain JSON lines, header then events. 2: gzip, header, the start state, events and keyframes. */
export const RECORDING_VERSION = 2;

/**
 * Longest line a reader accepts. A state record holds a whole view, which the view's limits keep to a few MB
 * even for thousands of keys; anything far beyond that is not a file this program wrote.
 */
export const MAX_RECORDING_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Events between keyframes in a file. A state record of a busy view is some tens of KB gzipped, so at this
 * spacing keyframes add about a byte an event; a seek backwards replays at most this many events.
 */
export const KEYFRAME_EVERY = 50_000;

export interface RecordingHeader {
  type: 'header';
  format: typeof RECORDING_FORMAT;
  /** Absent in version 1 files. */
  formatVersion?: number;
  protocolVersion: number;
  createdAt: number;
  serverEpoch: string;
  cluster: ClusterInfo;
  controllers: string[];
  viewLimits: ViewLimits;
  /** Set when one viewer recorded a span of a live session: the seqs they recorded. */
  range?: { fromSeq: number; toSeq: number };
}

/** One informer cache's contents at a point: its keys and the reference (uid, resourceVersion) stored for each. */
export type CacheEntry = [key: MetaNamespaceKey, ref: ObjectRef];
/** Lists of pairs, not records, so no name in the file is ever used as a property name. */
export type CacheTable = [informer: InformerId, entries: CacheEntry[]];

/**
 * The state at seq: the view as reduced up to and including it, and the caches' contents. 'snapshot' is the
 * first record after the header (where the recording starts); 'keyframe' repeats it later.
 */
export interface StateRecord {
  type: 'snapshot' | 'keyframe';
  seq: number;
  ts: number;
  view: RuntimeView;
  caches: CacheTable[];
}

/** Events the writer had to drop; the next keyframe (written right after it) restores the state. */
export interface RecordingGap {
  type: 'gap';
  dropped: number;
  afterSeq: number;
}

export type RecordingLine = RecordingHeader | StateRecord | RecordingGap | StampedEvent;

export interface Recording {
  header: RecordingHeader;
  /** The start snapshot (absent in version 1 files) and the keyframes, in seq order. */
  states: StateRecord[];
  /** Every event after the start snapshot, in seq order. */
  events: StampedEvent[];
  gaps: RecordingGap[];
}
