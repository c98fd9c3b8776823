import { createMapper } from '../../src/catalog/index.js';
import { openSource } from '../../src/sources/index.js';

/**
 * Reads a catalog file the way `import` reads it up to the queue (openSource, the mapper with its
 * checks and duplicate-key check), writing nothing: rows by kind.
 */
export async function parseMapValidate(path: string): Promise<Record<string, number>> {
  const source = await openSource(path);
  const mapper = createMapper({
    columns: source.columns,
    ...(source.delimiter ? { delimiter: source.delimiter } : {}),
  });
  const counts: Record<string, number> = { upsert: 0, invalid: 0, merged: 0 };
  for await (const row of mapper.map(source.records)) counts[row.kind] = (counts[row.kind] ?? 0) + 1;
  await source.close();
  return counts;
}
