import { chmod, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyKeysFile } from '../../src/keys-file.js';
import { KeysFileReload } from '../../src/keys-file-reload.js';
import { createLogger } from '../../src/logger.js';

const OLD = 'sk_live_old_b';
const NEW = 'sk_live_new_key_b';

describe("a worker's keys file, read again when it changes", () => {
  let dir: string;
  let path: string;
  let log: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keys-reload-'));
    path = join(dir, 'keys.env');
    log = '';
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function write(text: string, mode = 0o600, at = path): Promise<void> {
    await writeFile(at, text);
    await chmod(at, mode);
  }

  /** The worker's key environment and its reload, as `worker --keys-file` builds them. */
  async function loaded(env: NodeJS.ProcessEnv): Promise<{ env: NodeJS.ProcessEnv; reload: KeysFileReload }> {
    const io = { env };
    const file = await applyKeysFile(io, path);
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
    if (!file) throw new Error('no keys file read');
    return { env: io.env, reload: new KeysFileReload(io.env, file, createLogger('info', stream)) };
  }

  it('a key fixed in the file replaces the old one in the same environment; names are logged, never keys', async () => {
    await write(`SELLER_API_KEY_A=sk_a\nSELLER_API_KEY_B=${OLD}\n`);
    const { env, reload } = await loaded({ OTHER: '1' });
    expect(await reload.refresh()).toBe(false);

    await write(`SELLER_API_KEY_A=sk_a\nSELLER_API_KEY_B=${NEW}\n`);

    expect(await reload.refresh()).toBe(true);
    expect(env).toEqual({ OTHER: '1', SELLER_API_KEY_A: 'sk_a', SELLER_API_KEY_B: NEW });
    expect(log).toContain('SELLER_API_KEY_B changed');
    expect(log).not.toContain(NEW);
    expect(log).not.toContain(OLD);
    expect(await reload.refresh()).toBe(false);
  });

  it('a file replaced by a rename (an editor saving it) is read; a name dropped from it goes back to the environment', async () => {
    await write(`SELLER_API_KEY=sk_same\nSELLER_API_KEY_B=${OLD}\n`);
    const { env, reload } = await loaded({ SELLER_API_KEY: 'sk_same' });

    await write(`SELLER_API_KEY_C=${NEW}\n`, 0o600, join(dir, 'keys.env.tmp'));
    await rename(join(dir, 'keys.env.tmp'), path);

    expect(await reload.refresh()).toBe(true);
    expect(env).toEqual({ SELLER_API_KEY: 'sk_same', SELLER_API_KEY_C: NEW });
  });

  it.each([
    ['a mode others may read', `SELLER_API_KEY_B=${NEW}\n`, 0o644, /chmod 600/],
    ['a line that is not NAME=KEY', `SELLER_API_KEY_B=${NEW}\n${NEW}\n`, 0o600, /line 2 is not NAME=KEY/],
    // Truncated by an editor or a shell before it writes: more likely being written than meant.
    ['no key left (emptied)', '', 0o600, /holds no key now/],
  ])('an edit with %s keeps the keys read before, said once in one line', async (_case, text, mode, said) => {
    await write(`SELLER_API_KEY_B=${OLD}\n`);
    const { env, reload } = await loaded({});

    await write(text, mode);

    expect(await reload.refresh()).toBe(false);
    expect(await reload.refresh()).toBe(false);
    expect(env).toEqual({ SELLER_API_KEY_B: OLD });
    const lines = log.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(said);
    expect(lines[0]).toContain('keeps the keys it read before');
    expect(log).not.toContain(NEW);
    await write(`SELLER_API_KEY_B=${NEW}\n`);
    expect(await reload.refresh()).toBe(true);
    expect(env).toEqual({ SELLER_API_KEY_B: NEW });
  });

  it('a file removed keeps the keys read before, said once', async () => {
    await write(`SELLER_API_KEY_B=${OLD}\n`);
    const { env, reload } = await loaded({});

    await rm(path);

    expect(await reload.refresh()).toBe(false);
    expect(await reload.refresh()).toBe(false);
    expect(env).toEqual({ SELLER_API_KEY_B: OLD });
    expect(log.trim().split('\n')).toEqual([
      expect.stringMatching(/ is gone \(no such file\): this worker keeps the keys it read before/),
    ]);
  });
});
