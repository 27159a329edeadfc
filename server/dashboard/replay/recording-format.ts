// The --record file: JSON lines. The first line is a header (what was recorded, by which protocol, with which
// view limits so a replay rebuilds the same view); every other line is one stamped event, or a gap marker
// when the disk could not keep up. Events carry references only, never object contents, so a recording holds
// no Secret data.
import type { StampedEvent } from '../../../shared/protocol/events';
import type { ClusterInfo } from '../../../shared/protocol/socket';
import type { ViewLimits } from '../../../shared/protocol/view';

export const RECORDING_FORMAT = 'controller-scope/recording';

export interface RecordingHeader {
  type: 'header';
  format: typeof RECORDING_FORMAT;
  protocolVersion: number;
  createdAt: number;
  serverEpoch: string;
  cluster: ClusterInfo;
  controllers: string[];
  viewLimits: ViewLimits;
  /**
   * Set when one viewer recorded a span of a live session: the seqs they recorded. Events before fromSeq are
   * in the file so the replay rebuilds the same view.
   */
  range?: { fromSeq: number; toSeq: number };
}

/** Events the writer had to drop; a replay's view is incomplete from here. */
export interface RecordingGap {
  type: 'gap';
  dropped: number;
  afterSeq: number;
}

export interface Recording {
  header: RecordingHeader;
  events: StampedEvent[];
  gaps: RecordingGap[];
}
