// Change log (one line per bump):
//   1: events, RuntimeView, socket maps (hello/batch/snapshot/lag/status; subscribe/inspect/command).

/** Bumped on any breaking change to events, the view or the socket maps. */
export const PROTOCOL_VERSION = 1;
