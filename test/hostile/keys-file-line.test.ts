import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usePipeline } from '../integration/support/pipeline.js';

/**
 * Issue 32, point 8: a pasted base64 key ends in `=`, so the keys file read the text before it as a
 * variable name and printed it: `line 2: c2tfbGl2… is not a key variable`. The line is named by its
 * number only until its NAME is known to be a key variable.
 */
describe('a keys-file error names the line, never its text', () => {
  const pipeline = usePipeline();
  const PASTED = 'c2tfbGl2ZV9TZWNyZXQxMjM0NTY3ODkw';

  it.each([
    ['a pasted base64 key', `${PASTED}=`],
    ['a pasted key after a name that may hold none', `DB_TOKEN_${PASTED}=x`],
    ['a key with no NAME=', PASTED],
  ])('%s: one line with the line number, exit 2, before any request', async (_what, line) => {
    const keys = join(pipeline.dir, 'keys.env');
    await writeFile(keys, `SELLER_API_KEY_ACME=sk_live_x\n${line}\n`, 'utf8');
    await chmod(keys, 0o600);

    const result = await pipeline.cli(['ping', '--keys-file', keys]);

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`--keys-file ${keys}: line 2`),
    ]);
    expect(result.stderr).not.toContain(PASTED);
    expect(result.stderr).not.toContain(PASTED.slice(0, 8));
    expect(pipeline.sandbox.stats().total).toBe(0);
  });
});
