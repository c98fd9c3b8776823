import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Preloaded into a child (`--require`): its peak RSS (getrusage ru_maxrss), printed as it exits. */
const PRELOAD =
  "process.on('exit', () => process.stderr.write('MAX-RSS ' + process.resourceUsage().maxRSS * 1024 + '\\n'));\n";

/** Writes the preload into `dir`; returns the node flags that load it. */
export async function maxRssFlags(dir: string): Promise<string[]> {
  const path = join(dir, 'max-rss.cjs');
  await writeFile(path, PRELOAD);
  return ['--require', path];
}

/** The peak RSS in bytes a child with the preload printed; NaN when it printed none. */
export function maxRssOf(output: string): number {
  return Number(/^MAX-RSS (\d+)$/m.exec(output)?.[1] ?? Number.NaN);
}
