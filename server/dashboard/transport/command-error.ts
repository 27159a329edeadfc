// A command refused or failed with a reason a person can act on; the command handler turns it into an Ack.
import type { AckErrorCode } from '../../../shared/protocol/commands';

export class CommandError extends Error {
  constructor(
    readonly code: AckErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The error a command handler throws for a refusal (commands are refused one at a time, so the stack is cheap). */
export function refusalError(r: { code: AckErrorCode; message: string }): CommandError {
  return new CommandError(r.code, r.message);
}
