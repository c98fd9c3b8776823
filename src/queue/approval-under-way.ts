/**
 * The line of an `approve` refused because another approve of the run is under way: what that one
 * is at, then when to try again. An approve with `--rows` is told to run again with the same
 * `--rows` once that approval has ended, never to drop them: once the run is held again, an approve
 * without `--rows` sends every row still held, rows the seller never picked too.
 * `at`: where the approval under way is (`its writes are queued`, `since …`); `ifStopped`: what
 * to do if the approve under way was stopped, '' when nothing else is to do.
 */
export function approvalUnderWayLine(
  runId: string,
  rows: readonly number[] | null,
  at: string,
  ifStopped = '',
): string {
  const again = rows ? 'run this approve again with the same --rows' : 'run this approve again';
  return (
    `run ${runId} is being approved by another approve (${at}): once that approval has ended, ${again} ` +
    `(\`catalog-sync status ${runId}\` shows whether it has)${ifStopped ? `; ${ifStopped}` : ''}`
  );
}
