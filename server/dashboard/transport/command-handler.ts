// Runs validated commands against the ports and answers every one with an Ack. Nothing a client sends can
// throw out of here: validation failures, missing capabilities, refusals and failing ports all become
// {ok:false, code, error} with a message a person can act on.
import type { Ack, AckErrorCode, Command, CommandResult } from '../../../shared/protocol/commands';
import type { Recorder } from '../recorder/recorder';
import type { ControllerStepper, DashboardPorts } from './ports';
import { parseCommand } from './schemas';
import { errorMessage } from '../../runtime/util/errors';

export class CommandError extends Error {
  constructor(
    readonly code: AckErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface CommandHandlerOptions {
  recorder: Recorder;
  ports: DashboardPorts;
  /** Called after a command that changed server status (the transport re-broadcasts it). */
  onStatusChange?: () => void;
}

export class CommandHandler {
  constructor(private readonly opts: CommandHandlerOptions) {}

  /** Validates and runs input; never throws. */
  async handle(input: unknown): Promise<Ack<CommandResult>> {
    const parsed = parseCommand(input);
    if (!parsed.ok) return { ok: false, code: 'invalid', error: parsed.error };
    try {
      const result = await this.run(parsed.value);
      this.opts.onStatusChange?.();
      return { ok: true, result };
    } catch (err) {
      if (err instanceof CommandError) return { ok: false, code: err.code, error: err.message };
      const message = errorMessage(err);
      return { ok: false, code: 'failed', error: `${parsed.value.type} failed: ${message}` };
    }
  }

  private async run(cmd: Command): Promise<CommandResult> {
    const { recorder, ports } = this.opts;
    switch (cmd.type) {
      case 'recording.pause':
        return { recording: this.recordingFile(recorder).pauseRecordingFile() };
      case 'recording.resume':
        return { recording: this.recordingFile(recorder).resumeRecordingFile() };
      case 'step.hold':
        return this.stepper(cmd.controller).hold();
      case 'step.next':
        return this.stepper(cmd.controller).next();
      case 'step.resume':
        return this.stepper(cmd.controller).resume();
      case 'step.breakpoint': {
        const { type: _type, controller, remove, ...bp } = cmd;
        return this.stepper(controller).setBreakpoint(bp, remove ?? false);
      }
      case 'step.runTo': {
        const stepper = this.stepper(cmd.controller);
        if (!stepper.runTo) throw unsupported('run to a key', "this controller's stepper cannot run to a key");
        return stepper.runTo(cmd.key);
      }
      case 'requeue': {
        if (!ports.requeuer) throw unsupported('requeue', 'no controllers are running here');
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
        return comparer.compare(cmd.informer, { pageSize: cmd.pageSize ?? 500 });
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

  private stepper(controller: string): ControllerStepper {
    const lookup = this.opts.ports.steppers;
    if (!lookup) throw unsupported('step mode', 'no controllers are running here');
    const s = lookup(controller);
    if (!s) throw new CommandError('notFound', `no controller named "${controller}"`);
    return s;
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
