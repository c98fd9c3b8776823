import { describe, expect, it } from 'vitest';
import { spacedPathHint } from '../../../src/cli/spaced-path.js';

/** `run my file.csv`: commander says "too many arguments"; the cause is the unquoted space. */
describe('a path with spaces typed unquoted', () => {
  const exists = (path: string) => path === 'my file.csv' || path === '/srv/my big file.csv';

  it('names the path when the words joined with spaces are a file', () => {
    expect(spacedPathHint(['run', 'my', 'file.csv'], exists)).toBe(
      'a path with spaces must be quoted: "my file.csv"',
    );
    expect(spacedPathHint(['run', '--dry-run', '/srv/my', 'big', 'file.csv'], exists)).toBe(
      'a path with spaces must be quoted: "/srv/my big file.csv"',
    );
  });

  it('says nothing when no such file is there (two sources, a stray word)', () => {
    expect(spacedPathHint(['run', 'a.csv', 'b.csv'], exists)).toBeNull();
  });
});
