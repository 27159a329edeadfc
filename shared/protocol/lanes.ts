// Lanes: when several processes are attached, each one's controllers, queues and informers are named with
// the process identity in front ("[website-0] website"), so two replicas of one controller stay apart in
// every panel. Both sides need to split a name back: the server to route a command to its process, the
// reducer and the panels to link a lane's controller to the same lane's informers.

/** The name a process's controller, queue or informer has in the dashboard. */
export function laneName(lane: string | undefined, name: string): string {
  return lane ? `[${lane}] ${name}` : name;
}

/** Splits a dashboard name back into its lane and the process's own name (a fixed, linear pattern). */
export function splitLaneName(name: string): { lane?: string; name: string } {
  if (name.charCodeAt(0) !== 91 /* [ */) return { name };
  const close = name.indexOf('] ');
  if (close < 2) return { name };
  const lane = name.slice(1, close);
  if (lane.includes(']')) return { name };
  return { lane, name: name.slice(close + 2) };
}

/** The lane a dashboard name sits in, or undefined for the dashboard's own process. */
export function laneOf(name: string): string | undefined {
  return splitLaneName(name).lane;
}
