// Every size the dashboard server holds a client to, in one place: the caps on lists a client can grow (each
// refusal names the cap) and the budgets shared by the whole process (each refusal names the budget and its
// size). Budgets are per process, not per connection, because opening more tabs or sockets must not buy more
// memory, more CPU or more LISTs against someone's API server.
import type { AckErrorCode } from '../../../shared/protocol/commands';

export interface ListCaps {
  /** Breakpoints one controller may have at once (all viewers together; run-to-key counts as one). */
  breakpointsPerController: number;
  /** Controllers one viewer may hold at once. */
  holdsPerViewer: number;
  /** Names in each list of a subscription (controllers, kinds, namespaces, keys). */
  subscriptionNames: number;
  /** Characters of a cache search. */
  searchLength: number;
}

export interface ProcessBudgets {
  /** Sockets connected to this process at once. */
  sockets: number;
  /** Bytes written to all viewers together and not yet delivered; over it, big answers are refused and batches
   * become lag summaries. */
  undeliveredBytes: number;
  /** Inspect requests accepted and not yet answered, all connections together. */
  inspects: number;
  /** Commands accepted and not yet started, all connections together. */
  commands: number;
  /** Hellos and subscribes waiting (each answered with a whole view), all connections together. */
  snapshots: number;
  /** cache.compare runs at once, all informers together (and never two on one informer). */
  compares: number;
  /** cache.compare runs started per minute against a cluster that is not the embedded sandbox. */
  comparesPerMinute: number;
}

export interface Budgets extends ListCaps, ProcessBudgets {}

export const DEFAULT_BUDGETS: Readonly<Budgets> = {
  breakpointsPerController: 100,
  holdsPerViewer: 32,
  subscriptionNames: 1000,
  searchLength: 512,
  sockets: 64,
  undeliveredBytes: 64 * 1024 * 1024,
  inspects: 16,
  commands: 256,
  snapshots: 128,
  compares: 2,
  comparesPerMinute: 6,
};

/** How a budget or cap is named in refusals (the option name, so a reader can find where it is set). */
export type BudgetName = keyof Budgets;

export function formatSize(name: BudgetName, size: number): string {
  return name === 'undeliveredBytes' ? `${Number((size / (1024 * 1024)).toFixed(1))} MiB` : String(size);
}

/**
 * A refused request: which budget or cap, its size, and the message saying what it is at now and what to do.
 * A plain value, not an Error: under a flood most requests are refused, and capturing a stack for each was a
 * measurable share of the flood's cost.
 */
export interface BudgetRefusal {
  budget: BudgetName;
  size: number;
  code: AckErrorCode;
  message: string;
}

const CAP_NAMES: Record<keyof ListCaps, true> = {
  breakpointsPerController: true,
  holdsPerViewer: true,
  subscriptionNames: true,
  searchLength: true,
};

/**
 * "<what> refused: <now>; the <scope> budget <name> is <size>; <fix>": the one shape every refusal takes, so
 * a person sees which budget and how big it is without reading the code.
 */
export function refuse(what: string, budget: BudgetName, size: number, now: string, fix: string): BudgetRefusal {
  const cap = budget in CAP_NAMES;
  return {
    budget,
    size,
    code: cap ? 'tooMany' : 'busy',
    message: `${what} refused: ${now}; the ${cap ? 'cap' : 'process-wide budget'} ${budget} is ${formatSize(budget, size)}; ${fix}`,
  };
}

export function resolveBudgets(overrides: Partial<Budgets> | undefined): Budgets {
  return { ...DEFAULT_BUDGETS, ...overrides };
}
