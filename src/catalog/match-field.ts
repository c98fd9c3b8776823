import { join } from 'node:path';
import { projectRoot } from '../project-root.js';
import { CatalogConfigError } from './errors.js';
import type { MappingSpec } from './mapping-file.js';
import { shownFields } from './shown-fields.js';

/**
 * The field that identifies a product: `--match-by`, else the mapping file's `matchBy`, else `sku`.
 * One the source cannot give is refused in one line saying where it came from, and, for a header no
 * preset knows (`unknownHeader`), what would read it.
 */
export function matchField(
  given: string | undefined,
  mapping: MappingSpec | undefined,
  available: readonly string[],
  unknownHeader: boolean,
): string {
  const matchBy = given ?? mapping?.matchBy ?? 'sku';
  if (available.includes(matchBy)) return matchBy;
  const origin = given
    ? `--match-by ${matchBy}`
    : mapping?.matchBy
      ? `matchBy ${matchBy} (mapping file ${mapping.origin})`
      : `--match-by ${matchBy} (the default)`;
  // Named absolutely: an installed package has the folder too, but no checkout to be relative to.
  const hint = unknownHeader
    ? `; no preset knows these columns: give --mapping FILE (see ${join(projectRoot(), 'fixtures', 'mappings')}/)`
    : '';
  throw new CatalogConfigError(
    `${origin}: no column of this source gives the field "${matchBy}" (fields: ${shownFields(available)})${hint}`,
  );
}
