import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const OPTIONS = readFileSync(join(import.meta.dirname, '../../docs/options.md'), 'utf8');

/** The lines of a section of docs/options.md, from its heading to the next heading of any level. */
function section(heading: string): string[] {
  const lines = OPTIONS.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`docs/options.md has no heading ${heading}`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith('#'));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

describe('docs/options.md', () => {
  it('keeps the options of `run` and `import` in one table: no other line between its header and its last option', () => {
    const lines = section('## Options of `run` and `import`');
    const header = lines.findIndex((line) => line.startsWith('| option |'));
    const last = lines.findLastIndex((line) => line.startsWith('| `--'));
    expect(header).toBeGreaterThanOrEqual(0);
    expect(lines.slice(header, last + 1).filter((line) => !line.startsWith('|'))).toEqual([]);
  });
});
