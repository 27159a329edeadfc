// Loaded before bench/ingest-peer.ts by bench/ingest-anatomy.ts. The peer collects garbage twice before its timer
// starts and twice after it stops (harness.heapUsed); between the second and the third collection this prints,
// for the measured span only, each thread's CPU time and time spent runnable but waiting for a core (from
// /proc/self/task/*/schedstat, Linux) and the event loop's idle time, and marks the span in the output so the
// runner can pick out V8's --trace-gc-nvp lines that fall inside it.
import { readdirSync, readFileSync, writeSync } from 'node:fs';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { parseSchedstat } from './run-queue';

type ThreadTimes = ReturnType<typeof parseSchedstat>;

function threads(): Map<string, ThreadTimes> {
  const out = new Map<string, ThreadTimes>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      out.set(tid, parseSchedstat(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8')));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

const realGc = (globalThis as { gc?: () => void }).gc;
if (realGc) {
  let calls = 0;
  let before = new Map<string, ThreadTimes>();
  let elu: EventLoopUtilization | undefined;
  (globalThis as { gc?: () => void }).gc = () => {
    calls++;
    if (calls === 1) writeSync(1, 'ANATOMY main isolate\n');
    if (calls === 3) {
      const idleMs = performance.eventLoopUtilization(elu).idle;
      const main = String(process.pid);
      let bgCpu = 0;
      let bgWait = 0;
      const now = threads();
      for (const [tid, t] of now) {
        if (tid === main) continue;
        bgCpu += t.cpuMs - (before.get(tid)?.cpuMs ?? 0);
        bgWait += t.waitMs - (before.get(tid)?.waitMs ?? 0);
      }
      const m = now.get(main);
      const m0 = before.get(main);
      const span = {
        mainCpuMs: (m?.cpuMs ?? 0) - (m0?.cpuMs ?? 0),
        mainWaitMs: (m?.waitMs ?? 0) - (m0?.waitMs ?? 0),
        otherThreadsCpuMs: bgCpu,
        otherThreadsWaitMs: bgWait,
        loopIdleMs: idleMs,
      };
      writeSync(1, `ANATOMY end ${JSON.stringify(span)}\n`);
    }
    realGc();
    if (calls === 2) {
      elu = performance.eventLoopUtilization();
      before = threads();
      writeSync(1, 'ANATOMY begin\n');
    }
  };
}
