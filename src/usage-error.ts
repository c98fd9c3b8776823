/**
 * A mistake of the user's (bad option, unreadable source, unreachable Redis): printed as one line,
 * never with a stack trace, and `run` exits 2.
 */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}
