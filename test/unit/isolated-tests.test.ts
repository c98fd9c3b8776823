import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

/** The ISOLATED globs of vitest.config.ts, as written there. */
function isolatedGlobs(): string[] {
  const config = readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8');
  const list = /const ISOLATED = \[([^\]]*)\]/.exec(config)?.[1] ?? '';
  return [...list.matchAll(/'([^']+)'/g)].map((match) => match[1] as string);
}

/** `test/hostile/**\/*.test.ts` as a regular expression over paths from the repository's root. */
function globToRegExp(glob: string): RegExp {
  const pattern = glob
    .split('/')
    .map((part) =>
      part === '**' ? '(?:.*/)?' : `${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}/`,
    )
    .join('')
    .replace(/\/$/, '');
  return new RegExp(`^${pattern}$`);
}

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

/**
 * Most test files share their worker's modules (vitest.config.ts): one that replaces a module or a
 * global, or intercepts HTTP for the whole process, would leak into the files after it, so it must
 * be listed to run on a module graph of its own.
 */
describe('vitest.config.ts', () => {
  it('runs every test file that mocks a module, stubs a global or uses nock in isolation', () => {
    const globs = isolatedGlobs().map(globToRegExp);
    expect(globs.length).toBeGreaterThan(0);
    const self = relative(ROOT, import.meta.filename);
    const mocking = testFiles(join(ROOT, 'test')).filter(
      (file) =>
        file !== self &&
        /\bvi\.(mock|doMock|stubGlobal|stubEnv)\(|from 'nock'/.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(mocking.length).toBeGreaterThan(0);
    expect(mocking.filter((file) => !globs.some((glob) => glob.test(file)))).toEqual([]);
  });
});
