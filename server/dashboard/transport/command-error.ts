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
