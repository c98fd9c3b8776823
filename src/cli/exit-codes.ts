/** Exit codes of `run` (README, Exit codes); other commands use the same meanings. */
export const ExitCode = {
  ok: 0,
  /**
   * Superseded by a later run of the same source (its file or feed changed), no row of it invalid
   * or failed: that run sends the source's current values.
   */
  superseded: 0,
  rowsFailed: 1,
  usage: 2,
  unauthorized: 3,
  pausedDailyLimit: 4,
  /** A guard (`--max-…`) held writes back; `approve` sends them. */
  held: 5,
  /** No request reached the API (refused, DNS, timeouts): the rows stay queued. */
  apiUnreachable: 6,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
