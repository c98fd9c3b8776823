import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The real exports from other platforms live beside the checkout, never in it
 * (`../shared/fixtures/real`, see its SOURCES.md). A checkout elsewhere (a git worktree, a clone in
 * /tmp) names them with CATALOG_SYNC_REAL_FIXTURES; an empty value counts as unset. Missing, every
 * test that reads them fails with this one line, not with a file's ENOENT.
 */
export const REAL_FIXTURES_DIR =
  process.env.CATALOG_SYNC_REAL_FIXTURES || join(import.meta.dirname, '../../../shared/fixtures/real');

if (!existsSync(REAL_FIXTURES_DIR)) {
  throw new Error(
    `the real fixtures are not at ${REAL_FIXTURES_DIR}: set CATALOG_SYNC_REAL_FIXTURES=/path/to/shared/fixtures/real`,
  );
}
