// cache.compare is a full paged LIST of one kind from the API server: a flood of them (1,000 requests of page
// size 1 was 33k LISTs, and the controllers' own writes timed out) costs the API server, not only this
// process. So compares run one at a time per informer, a few at a time in all, and, against any cluster but the
// embedded sandbox (someone's real API server), at a bounded rate.
import type { ClusterInfo } from '../../../shared/protocol/socket';
import type { Clock } from '../../runtime/util/clock';
import type { ProcessBudgets } from './budgets';
import { refuse } from './budgets';
import { CommandError, refusalError } from './command-error';

const MINUTE = 60_000;

export class CompareGate {
  private readonly running = new Set<string>();
  /** When each compare of the last minute started (only kept where the rate applies). */
  private started: number[] = [];

  constructor(
    private readonly budgets: Pick<ProcessBudgets, 'compares' | 'comparesPerMinute'>,
    private readonly cluster: ClusterInfo,
    private readonly clock: Clock,
  ) {}

  async run<T>(informer: string, compare: () => Promise<T>): Promise<T> {
    this.admit(informer);
    this.running.add(informer);
    try {
      return await compare();
    } finally {
      this.running.delete(informer);
    }
  }

  private admit(informer: string): void {
    const what = `cache.compare of "${informer}"`;
    if (this.running.has(informer)) {
      throw new CommandError(
        'busy',
        `${what} refused: a compare of this informer is running (one at a time per informer); wait for its report`,
      );
    }
    if (this.running.size >= this.budgets.compares) {
      throw refusalError(
        refuse(
          what,
          'compares',
          this.budgets.compares,
          `${this.running.size} compares are running`,
          'try again once one ends',
        ),
      );
    }
    if (this.cluster.kind === 'sandbox') return;
    const now = this.clock.now();
    this.started = this.started.filter((t) => t > now - MINUTE);
    const limit = this.budgets.comparesPerMinute;
    if (this.started.length >= limit) {
      const waitS = Math.ceil(((this.started[0] ?? now) + MINUTE - now) / 1000);
      const name = this.cluster.name ? ` "${this.cluster.name}"` : '';
      throw refusalError(
        refuse(
          what,
          'comparesPerMinute',
          limit,
          `${this.started.length} compares started in the last minute against ${this.cluster.kind} cluster${name}, ` +
            'whose API server serves every LIST they make',
          `try again in ${waitS} s`,
        ),
      );
    }
    this.started.push(now);
  }
}
