/** Bumped on any breaking change to events, the view or the socket maps. */
export const PROTOCOL_VERSION = 1;
