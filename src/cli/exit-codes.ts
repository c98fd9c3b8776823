/** Exit codes of CONTRACT.md ("Exit codes (`run`)"); other commands use the same meanings. */
export const ExitCode = {
  ok: 0,
  rowsFailed: 1,
  usage: 2,
  unauthorized: 3,
  pausedDailyLimit: 4,
  /** No request reached the API (refused, DNS, timeouts): the rows stay queued. */
  apiUnreachable: 6,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
