// A small structured logger in the spirit of logr (controller-runtime's log). Reconcilers get one with
// the controller, request and reconcileID already attached as key/values.
import { errorMessage } from '../util/errors';

export type LogValues = Record<string, unknown>;

export interface Logger {
  info(msg: string, values?: LogValues): void;
  error(err: unknown, msg: string, values?: LogValues): void;
  /** A child logger that adds values to every line. */
  withValues(values: LogValues): Logger;
}

class NullLogger implements Logger {
  info(): void {}
  error(): void {}
  withValues(): Logger {
    return this;
  }
}

/** Discards everything (the default when no logger is configured). */
export const NULL_LOGGER: Logger = new NullLogger();

/** Writes one JSON-ish line per call to the console; handy for demos and debugging. */
export class ConsoleLogger implements Logger {
  constructor(private readonly values: LogValues = {}) {}

  info(msg: string, values?: LogValues): void {
    console.log(msg, { ...this.values, ...values });
  }

  error(err: unknown, msg: string, values?: LogValues): void {
    console.error(msg, { ...this.values, ...values, error: errorMessage(err) });
  }

  withValues(values: LogValues): Logger {
    return new ConsoleLogger({ ...this.values, ...values });
  }
}
