// One JS thread runs an informer's whole backlog (a 100,000-object replace, each handler's replay of the
// cache) in microtasks unless something hands the thread back, and I/O and timers wait until the microtask
// queue is empty: the watch's next chunk, a dashboard's socket ping, the manager's probes. Upstream's
// goroutines are preempted; here a long loop gives the event loop a turn after each burst.
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Items a loop works through before it yields (upstream's RealFIFO also batches up to 1000 deltas a pop). */
export const BURST = 1000;
