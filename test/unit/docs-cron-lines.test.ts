import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/**
 * Every crontab line the README and docs show calls `catalog-sync`, which the README installs to
 * /usr/local/bin, while cron's PATH is /usr/bin:/bin: a line copied alone would fail every night
 * with "catalog-sync: not found". So each one has a `PATH=` line that holds /usr/local/bin before it,
 * in the same indented block.
 */
const root = projectRoot();
const files = ['README.md', ...readdirSync(join(root, 'docs')).map((name) => join('docs', name))].filter(
  (name) => name.endsWith('.md'),
);
const CRON_LINE = /^\s{4,}(?:[0-9*/,-]+\s+){5}.*\bcatalog-sync\b/;

function cronLinesWithoutPath(text: string): string[] {
  const lines = text.split('\n');
  const missing: string[] = [];
  for (const [index, line] of lines.entries()) {
    if (!CRON_LINE.test(line)) continue;
    let found = false;
    for (let back = index - 1; back >= 0; back--) {
      const above = lines[back] as string;
      if (above.trim() !== '' && !/^\s{4,}/.test(above)) break;
      if (/^\s+PATH=\S*\/usr\/local\/bin/.test(above)) found = true;
    }
    if (!found) missing.push(`line ${index + 1}: ${line.trim().slice(0, 60)}`);
  }
  return missing;
}

describe('the crontab lines of the README and docs', () => {
  it.each(files)('%s: each has a PATH line holding /usr/local/bin above it', (file) => {
    expect(cronLinesWithoutPath(readFileSync(join(root, file), 'utf8'))).toEqual([]);
  });

  it('finds a cron line without one', () => {
    expect(cronLinesWithoutPath('Text:\n\n    0 2 * * *  catalog-sync run f.csv\n')).toHaveLength(1);
    expect(
      cronLinesWithoutPath(
        'Text:\n\n    PATH=/usr/local/bin:/usr/bin:/bin\n    0 2 * * *  catalog-sync run f.csv\n',
      ),
    ).toEqual([]);
  });
});
