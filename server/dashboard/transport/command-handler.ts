// Runs validated commands against the ports and answers every one with an Ack. Nothing a client sends can
// throw out of here: validation failures, missing capabilities, refusals and failing ports all become
// {ok:false, code, error} with a message a person can act on.
import type { Ack, Command, CommandResult } from '../../../shared/protocol/commands';
import type { ClusterInfo } from '../../../shared/protocol/socket';
import type { Recorder } from '../recorder/recorder';
import { realClock, type Clock } from '../../runtime/util/clock';
import { resolveBudgets, type Budgets } from './budgets';
import { CommandError } from './command-error';
import { CompareGate } from './compare-gate';
import type { DashboardPorts } from './ports';
import { parseCommand } from './schemas';
import { StepOwnership, type Viewer } from './step-ownership';
import { errorMessage } from '../../runtime/util/errors';

export interface CommandHandlerOptions {
  recorder: Recorder;
  ports: DashboardPorts;
  /** The cluster the dashboard shows: decides which commands count as writes. Default {kind:'none'}. */
  cluster?: ClusterInfo;
  /** Caps and process-wide budgets (defaults in budgets.ts). */
  budgets?: Partial<Budgets>;
  /** Holds and breakpoints by viewer; one per process, shared with the transport that reports viewers leaving. */
  ownership?: StepOwnership;
  clock?: Clock;
  /** Called after a command that changed server status (the transport re-broadcasts it). */
  onStatusChange?: () => void;
}

export class CommandHandler {
  readonly ownership: StepOwnership;
  private readonly compares: CompareGate;
  private readonly cluster: ClusterInfo;

  constructor(private readonly opts: CommandHandlerOptions) {
    const budgets = resolveBudgets(opts.budgets);
    const clock = opts.clock ?? realClock;
    this.cluster = opts.cluster ?? { kind: 'none', writable: false };
    this.ownership = opts.ownership ?? new StepOwnership(opts.ports.steppers, budgets, clock);
    this.compares = new CompareGate(budgets, this.cluster, clock);
  }

  /**
   * Validates and runs input for viewer; never throws. Without a viewer (code in this process, not a browser)
   * holds and breakpoints it sets belong to no one: nothing releases them and anyone may step them.
   */
  async handle(input: unknown, viewer?: Viewer): Promise<Ack<CommandResult>> {
    const parsed = parseCommand(input);
    if (!parsed.ok) return { ok: false, code: 'invalid', error: parsed.error };
    try {
      const result = await this.run(parsed.value, viewer);
      this.opts.onStatusChange?.();
      return { ok: true, result };
    } catch (err) {
      if (err instanceof CommandError) return { ok: false, code: err.code, error: err.message };
      const message = errorMessage(err);
      return { ok: false, code: 'failed', error: `${parsed.value.type} failed: ${message}` };
    }
  }

  private async run(cmd: Command, viewer: Viewer | undefined): Promise<CommandResult> {
    const { recorder, ports } = this.opts;
    const owners = this.ownership;
    switch (cmd.type) {
      case 'recording.pause':
        return { recording: this.recordingFile(recorder).pauseRecordingFile() };
      case 'recording.resume':
        return { recording: this.recordingFile(recorder).resumeRecordingFile() };
      case 'step.hold':
        return owners.hold(viewer, cmd.controller, cmd);
      case 'step.next':
        return owners.next(viewer, cmd.controller, cmd);
      case 'step.resume':
        return owners.resume(viewer, cmd.controller, cmd);
      case 'step.breakpoint': {
        const { type: _type, controller, remove, pin, ...bp } = cmd;
        return owners.breakpoint(viewer, controller, bp, remove ?? false, pin ?? false);
      }
      case 'step.runTo':
        return owners.runTo(viewer, cmd.controller, cmd.key, cmd);
      case 'requeue': {
        if (!ports.requeuer) throw unsupported('requeue', 'no controllers are running here');
        this.refuseWriteOnReadOnly('requeue', `"${cmd.key}" on ${cmd.controller}`);
        const found = await ports.requeuer.requeue(cmd.controller, cmd.key);
        if (!found) throw new CommandError('notFound', `no controller named "${cmd.controller}"`);
        return { controller: cmd.controller, key: cmd.key };
      }
      case 'fault.inject': {
        const cluster = this.writableCluster('inject faults');
        const fault = await cluster.injectFault(cmd.fault, cmd.durationMs);
        return { id: fault.id };
      }
      case 'fault.clear': {
        const cluster = this.writableCluster('clear faults');
        return { cleared: await cluster.clearFaults(cmd.id) };
      }
      case 'workload.set': {
        const cluster = this.writableCluster('run workloads');
        const opts = {
          ...(cmd.ratePerSecond !== undefined ? { ratePerSecond: cmd.ratePerSecond } : {}),
          ...(cmd.namespace !== undefined ? { namespace: cmd.namespace } : {}),
        };
        await cluster.setWorkload(cmd.profile, opts);
        return {
          profile: cmd.profile,
          ...(cmd.ratePerSecond !== undefined ? { ratePerSecond: cmd.ratePerSecond } : {}),
        };
      }
      case 'workload.stop':
        await this.writableCluster('run workloads').stopWorkload();
        return {};
      case 'replay.play':
        return this.replay().play(cmd.speed);
      case 'replay.pause':
        return this.replay().pause();
      case 'replay.seek':
        return this.replay().seek(cmd.seq);
      case 'cache.compare': {
        const comparer = ports.cacheComparer;
        if (!comparer)
          throw unsupported(
            'comparing a cache with the API server',
            'there is no API server here (replaying a recording?)',
          );
        return this.compares.run(cmd.informer, () => comparer.compare(cmd.informer, { pageSize: cmd.pageSize ?? 500 }));
      }
      case 'replay.step': {
        const replay = this.replay();
        if (!replay.stepBy) throw unsupported('stepping event by event', 'this replay cannot step');
        return replay.stepBy(cmd.by);
      }
    }
  }

  private recordingFile(recorder: Recorder): Recorder {
    if (recorder.recordingFile === undefined) {
      throw unsupported(
        'pausing the server recording',
        'this server writes no --record file; to record for yourself, use Rec in the top bar (it affects no one else)',
      );
    }
    return recorder;
  }

  /**
   * A command that makes a controller write (a requeue starts a real reconcile) is a write: refused against a
   * real cluster the dashboard was not allowed to write to, as faults and workloads are.
   */
  private refuseWriteOnReadOnly(what: string, target: string): void {
    if (this.cluster.kind !== 'kubeconfig' || this.cluster.writable) return;
    const name = this.cluster.name ? ` "${this.cluster.name}"` : '';
    throw new CommandError(
      'forbidden',
      `refusing to ${what} ${target}: cluster${name} is a kubeconfig cluster and the dashboard is read-only ` +
        `against it (a ${what} starts a reconcile, which writes to the cluster); restart with --allow-writes ` +
        'to permit this',
    );
  }

  private writableCluster(what: string): NonNullable<DashboardPorts['cluster']> {
    const cluster = this.opts.ports.cluster;
    if (!cluster) throw unsupported(what, 'there is no cluster (replaying a recording?)');
    if (!cluster.info.writable) {
      const name = cluster.info.name ? ` "${cluster.info.name}"` : '';
      throw new CommandError(
        'forbidden',
        `refusing to ${what}: cluster${name} is a ${cluster.info.kind} cluster and the dashboard is read-only ` +
          'against it; restart with --allow-writes to permit this',
      );
    }
    return cluster;
  }

  private replay(): NonNullable<DashboardPorts['replay']> {
    if (!this.opts.ports.replay) throw unsupported('replay controls', 'this server is live, not replaying a recording');
    return this.opts.ports.replay;
  }
}

function unsupported(what: string, why: string): CommandError {
  return new CommandError('unsupported', `${what} is not available: ${why}`);
}
