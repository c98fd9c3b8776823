/**
 * The replies of a Redis Cluster whose slot is on the move (`redis-cli --cluster reshard`, or any
 * CLUSTER SETSLOT … MIGRATING/IMPORTING and MIGRATE): the command was not run, and runs once sent
 * where the reply says, or once the move is done.
 * - `TRYAGAIN`: a command (or script, or MULTI) over several keys of the slot, some of them moved
 *   already and some not; it can only wait for the move.
 * - `ASK`: the key is on the node the slot moves to: asked there (ASKING) this once.
 * - `MOVED`: the slot is another master's now.
 * - `CLUSTERDOWN`: no master serves the slot (a failover's moment, also at a move's end).
 */
export type MigrationReply = 'TRYAGAIN' | 'ASK' | 'MOVED' | 'CLUSTERDOWN';

const REPLY = /^(?:ReplyError: )?(TRYAGAIN|ASK|MOVED|CLUSTERDOWN)\b/;

/** The migration reply an error is, or null. */
export function migrationReplyOf(error: unknown): MigrationReply | null {
  if (!(error instanceof Error)) return null;
  return (REPLY.exec(error.message)?.[1] as MigrationReply | undefined) ?? null;
}

/**
 * The error of a MULTI that a migration reply discarded whole: EXEC answered with one (the
 * transaction's keys split by the move), or EXECABORT for a command queued in it that was answered
 * with one (ioredis keeps those as `previousErrors`). Nothing of the transaction ran.
 */
export function discardedByMigration(error: unknown): MigrationReply | null {
  const reply = migrationReplyOf(error);
  if (reply) return reply;
  if (!(error instanceof Error) || !error.message.startsWith('EXECABORT')) return null;
  const previous = (error as { previousErrors?: unknown }).previousErrors;
  if (!Array.isArray(previous) || previous.length === 0) return null;
  const replies = previous.map(migrationReplyOf);
  return replies.every((reply) => reply !== null) ? (replies[0] ?? null) : null;
}

/** First wait before a command answered TRYAGAIN is sent again, and the longest (the backoff's bound). */
export const TRY_AGAIN_FIRST_MS = 50;
export const TRY_AGAIN_MAX_MS = 1000;

/** The wait before the `attempt`th try again (1, 2, …): doubling from TRY_AGAIN_FIRST_MS, at most TRY_AGAIN_MAX_MS. */
export function tryAgainDelayMs(attempt: number): number {
  return Math.min(TRY_AGAIN_FIRST_MS * 2 ** Math.max(0, Math.min(attempt - 1, 10)), TRY_AGAIN_MAX_MS);
}
