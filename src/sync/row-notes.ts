import type { RowOutcome } from '../interfaces.js';

/** The note of a row whose product `--missing` deactivated and the source brings back (missing/reactivate.ts). */
export const REACTIVATED_NOTE = 'reactivated';

/**
 * A row's own notes as its outcome carries them: `reactivated` only on a write that brings the product
 * back (sent, or planned). A product whose values are already back is `unchanged`, and a write that
 * failed brought nothing back: neither says it was reactivated.
 */
export function notesOfOutcome(
  notes: readonly string[],
  action: RowOutcome['action'],
  status: RowOutcome['status'],
): readonly string[] {
  const writes = (action === 'update' || action === 'create') && (status === 'ok' || status === 'planned');
  return writes ? notes : notes.filter((note) => note !== REACTIVATED_NOTE);
}
