// Ports controller-runtime pkg/manager/signals: the first SIGINT/SIGTERM aborts the returned signal (a
// graceful stop); a second one exits at once, as upstream does.
export function setupSignalHandler(): AbortSignal {
  const ac = new AbortController();
  let received = 0;
  const onSignal = (sig: NodeJS.Signals): void => {
    received++;
    if (received === 1) ac.abort(new Error(`received ${sig}`));
    else process.exit(1);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return ac.signal;
}
