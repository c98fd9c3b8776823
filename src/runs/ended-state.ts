import type { RunRecord } from './run-record.js';

/** Said when the run's record does not say why it ended early (a run ended by the next import). */
export const NOT_READ_TO_THE_END = 'the source was not read to the end';

/**
 * The state an ended run is said to be in by its webhook and its log lines, as `status` says it
 * (cli/run-state-text.ts): a run ended before its source was read to the end, and one its list read
 * refused (a field name no listed product shows: sync/listed-fields.ts), are `done` in their record,
 * which whoever reads a log line or a webhook must not take for a whole run: said `ended-early` and
 * `refused`, each with its one-line reason.
 */
export type EndedState =
  | { state: 'ended-early'; endedEarly: string }
  | { state: 'refused'; refused: string }
  | { state: RunRecord['state'] };

export function endedState(
  run: Pick<RunRecord, 'state' | 'aborted' | 'endedEarly' | 'fieldsRefused'>,
): EndedState {
  if (run.aborted) return { state: 'ended-early', endedEarly: run.endedEarly ?? NOT_READ_TO_THE_END };
  if (run.state === 'done' && run.fieldsRefused) return { state: 'refused', refused: run.fieldsRefused };
  return { state: run.state };
}
