import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type * as Zod from 'zod';

/**
 * zod and yaml, loaded the first time a mapping or job file is read rather than when the CLI
 * starts. Imported at the top, they were ~4 MB of the CLI's live heap in every command, and each
 * MB held for good lets V8 fill about three more with garbage before a full collection: a 1M-row
 * import peaked ~15 MB higher for files it never read (BENCHMARKS.md, issue 12, goal 5). Both
 * packages ship CommonJS builds, so a plain `require` keeps the readers synchronous.
 */
const require = createRequire(import.meta.url);

export function zod(): typeof Zod {
  return require('zod') as typeof Zod;
}

export function yaml(): typeof Yaml {
  return require('yaml') as typeof Yaml;
}

/** A value built on its first use and kept (a schema, built once zod is loaded). */
export function builtOnce<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= build();
    return value;
  };
}
