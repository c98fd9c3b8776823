import { join } from 'node:path';

/**
 * The real exports from other platforms live beside the checkout, never in it
 * (`../shared/fixtures/real`, see its SOURCES.md). A checkout elsewhere (a git worktree) names
 * them with CATALOG_SYNC_REAL_FIXTURES; an empty value counts as unset.
 */
export const REAL_FIXTURES_DIR =
  process.env.CATALOG_SYNC_REAL_FIXTURES || join(import.meta.dirname, '../../../shared/fixtures/real');
