// The watchdog's thread (event-loop-watchdog.ts): reads the main thread's heartbeat and, when it stalls,
// writes to fd 2 directly, since a worker's process.stderr is relayed by the (blocked) main thread.
import { writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { beat, stallMs } = workerData;
let doing;
parentPort.on('message', (m) => {
  doing = typeof m === 'string' ? m : undefined;
});
let last = Atomics.load(beat, 0);
let since = Date.now();
let reported = false;
const say = (s) => {
  try {
    writeSync(2, `${s}\n`);
  } catch {
    // stderr closed: nobody to tell.
  }
};
setInterval(
  () => {
    const now = Atomics.load(beat, 0);
    if (now !== last) {
      if (reported) say(`controller-scope: the event loop runs again after ${Date.now() - since} ms`);
      last = now;
      since = Date.now();
      reported = false;
      return;
    }
    if (!reported && Date.now() - since >= stallMs) {
      reported = true;
      say(
        `controller-scope: the event loop has been blocked for ${Date.now() - since} ms` +
          (doing ? ` during ${doing}` : '') +
          ': something runs without ever awaiting (a busy loop?); the dashboard cannot answer until it returns',
      );
    }
  },
  Math.max(10, Math.floor(stallMs / 5)),
);
