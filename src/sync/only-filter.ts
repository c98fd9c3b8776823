import type { DiffResult } from './diff.js';

/**
 * `--only create|update`: a row whose diff asks for the other write is skipped (status ok) with the
 * reason (which does not start with `-`: no report cell does); unchanged, invalid and skipped rows are left as the diff says.
 */
export function onlyFilter(diff: DiffResult, only: 'create' | 'update' | null | undefined): DiffResult {
  if (only === 'update' && diff.action === 'create')
    return { action: 'skipped', reason: 'not on the marketplace (--only update)' };
  if (only === 'create' && diff.action === 'update')
    return { action: 'skipped', reason: 'already on the marketplace (--only create)' };
  return diff;
}
