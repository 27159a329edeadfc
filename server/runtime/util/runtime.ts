// Ports apimachinery's pkg/util/runtime HandleCrash and ReallyCrash: a panic in an informer's event
// handler (or in controller-runtime's predicates and handlers, which run inside it) crashes the process
// upstream. Here the thrown value becomes an uncaught exception, which ends a Node process the same way.
// setReallyCrash(false) is upstream's own escape (utilruntime.ReallyCrash = false): the panic is reported
// and delivery goes on.

let reallyCrash = true;
let crash: (err: unknown) => void = (err) => {
  // Thrown outside every caller's try/catch and promise chain, so nothing can swallow it.
  queueMicrotask(() => {
    throw err;
  });
};

/** utilruntime.ReallyCrash: whether handleCrash ends the process (default true, as upstream). */
export function setReallyCrash(value: boolean): boolean {
  const previous = reallyCrash;
  reallyCrash = value;
  return previous;
}

export function getReallyCrash(): boolean {
  return reallyCrash;
}

/**
 * HandleCrash for a value thrown by a handler: crashes the process when ReallyCrash is on and returns
 * true; returns false when it is off, so the caller reports it and carries on.
 */
export function handleCrash(err: unknown): boolean {
  if (!reallyCrash) return false;
  crash(err);
  return true;
}

/** For tests: observe the crash instead of ending the test process. Returns the previous crash function. */
export function setCrashFunctionForTesting(fn: (err: unknown) => void): (err: unknown) => void {
  const previous = crash;
  crash = fn;
  return previous;
}
