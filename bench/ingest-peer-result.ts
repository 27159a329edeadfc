// The one JSON line each ingest measurement process prints (bench/ingest-peer.ts, and the Go peer's
// `-only ingest` mode).
export interface IngestResult {
  peer: string;
  events: number;
  ms: number;
  cpuMs: number;
  peakRssMB: number;
  retainedBytesPerObject?: number;
}
