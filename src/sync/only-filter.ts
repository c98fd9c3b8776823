import type { DiffResult } from './diff.js';

/**
 * `--only create|update`: a row whose diff asks for the other write is skipped (status ok) with the
 * reason; unchanged, invalid and skipped rows are left as the diff says.
 */
export function onlyFilter(diff: DiffResult, only: 'create' | 'update' | null | undefined): DiffResult {
  if (only === 'update' && diff.action === 'create')
    return { action: 'skipped', reason: '--only update: not on the marketplace' };
  if (only === 'create' && diff.action === 'update')
    return { action: 'skipped', reason: '--only create: already on the marketplace' };
  return diff;
}
