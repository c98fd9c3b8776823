import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeGzipBomb, writeLongLineNdjson } from '../../bench/hostile/inputs.js';
import { projectRoot } from '../../src/project-root.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { assertBuilt, BIN, runCli } from '../integration/support/cli.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../integration/support/redis-prefix.js';
import { loopbackFetch } from './network-guard.js';
import { body, loopbackServer, readBytes, readSource, tempFolder } from './support.js';

// Whatever the code under test does, nothing leaves loopback (see network-guard.ts).
vi.mock('node:dns/promises', async (original) => (await import('./network-guard.js')).guardedDns(original));
vi.mock('node:net', async (original) => (await import('./network-guard.js')).guardedNet(original));
vi.mock('node:tls', async (original) => (await import('./network-guard.js')).guardedTls(original));
vi.stubGlobal('fetch', loopbackFetch(globalThis.fetch));
// The Seller API client sends through node:http and node:https (not fetch): guarded there too.
vi.mock('node:http', async (original) => (await import('./network-guard.js')).guardedHttp(original));
vi.mock('node:https', async (original) => (await import('./network-guard.js')).guardedHttp(original));

/**
 * Issue 10, item 4: only CSV bounded one record. Now one cap (`--max-record-bytes`, 8 MiB) holds for
 * a CSV record, an NDJSON line, a JSON element and an XML item, counted after decompression; gzip
 * files are read (not refused) and gzip/deflate answers inflated, both under the cap.
 */
const MiB = 1024 * 1024;
const errorOf = (result: Awaited<ReturnType<typeof readSource>>) =>
  'error' in result ? result.error.message : `no error: ${JSON.stringify(result.records).slice(0, 200)}`;

describe('one cap on one record, in every format', () => {
  it('stops at an NDJSON line over 8 MiB, naming the line', async () => {
    const text = `{"sku":"A"}\n{"sku":"B","name":"${'x'.repeat(9 * MiB)}"}\n{"sku":"C"}\n`;
    expect(errorOf(await readBytes(text, { format: 'ndjson' }))).toBe(
      'standard input: line 2 is over 8 MiB (--max-record-bytes)',
    );
  });

  it('stops at a JSON array element over 8 MiB, naming the item', async () => {
    const text = `[{"sku":"A"},{"sku":"B","name":"${'x'.repeat(9 * MiB)}"},{"sku":"C"}]`;
    expect(errorOf(await readBytes(text))).toBe('standard input: item 2 is over 8 MiB (--max-record-bytes)');
  });

  it('stops at an element over the cap even when its parts are small (many keys)', async () => {
    const keys = Array.from({ length: 40_000 }, (_, i) => `"k${i}":"${'v'.repeat(20)}"`).join(',');
    const text = `[{"sku":"A"},{${keys}}]`;
    expect(errorOf(await readBytes(text, { maxRecordBytes: 512 * 1024 }))).toBe(
      'standard input: item 2 is over 512 KiB (--max-record-bytes)',
    );
  });

  it('stops at a value over the cap that the JSON holds outside its products', async () => {
    const text = `{"note":"${'x'.repeat(2 * MiB)}","products":[{"sku":"A"}]}`;
    expect(errorOf(await readBytes(text, { maxRecordBytes: MiB }))).toBe(
      'standard input: the JSON holds a value over 1 MiB (--max-record-bytes) outside the items, after item 0',
    );
  });

  it('stops at an XML item over 8 MiB, naming the item and its line', async () => {
    const text = `<rss><channel>\n<item><sku>A</sku></item>\n<item><sku>B</sku><description>${'x'.repeat(9 * MiB)}</description></item>\n</channel></rss>`;
    expect(errorOf(await readBytes(text))).toBe(
      'standard input: item 2 (line 3) is over 8 MiB (--max-record-bytes)',
    );
  });

  it('counts bytes, not characters: a CSV record of 3-byte characters is measured in UTF-8', async () => {
    // 30,000 characters (under a 64 KiB cap in characters), 90,000 bytes (over it).
    const text = `sku,name\nA,ok\nB,${'€'.repeat(30_000)}\n`;
    expect(errorOf(await readBytes(text, { maxRecordBytes: 64 * 1024 }))).toBe(
      'standard input: the record that starts on line 3 is over 64 KiB (--max-record-bytes): probably an unclosed quote',
    );
  });

  it('reads records under the cap as before', async () => {
    const line = `{"sku":"B","name":"${'x'.repeat(MiB)}"}`;
    const result = await readBytes(`{"sku":"A"}\n${line}\n`, { format: 'ndjson', maxRecordBytes: 2 * MiB });
    expect('records' in result && result.records.map((record) => record.values.sku)).toEqual(['A', 'B']);
  });
});

describe('compressed sources: read, and capped after decompression', () => {
  const folder = tempFolder();
  afterAll(() => folder.remove());

  it('reads a .gz file directly (recognized by its first bytes)', async () => {
    const path = folder.write('catalog.csv.gz', gzipSync('sku,name\nA1,Mug\nB2,Crème\n'));
    const result = await readSource(path);
    if ('error' in result) throw result.error;
    expect(result.opened.detections).toContain('compression gzip (detected)');
    expect(result.opened.format).toBe('csv');
    expect(result.records.map((record) => record.values)).toEqual([
      { sku: 'A1', name: 'Mug' },
      { sku: 'B2', name: 'Crème' },
    ]);
  });

  it('reads gzip on standard input too, whatever the name', async () => {
    const result = await readBytes(gzipSync('[{"sku":"A1"}]'), {}, 3);
    expect('records' in result && result.records).toEqual([{ row: 1, line: 1, values: { sku: 'A1' } }]);
  });

  it('caps the inflated bytes: a small gzip of a 9 MiB line stops at the line', async () => {
    const path = folder.write('long.ndjson.gz', gzipSync(`{"sku":"A"}\n{"sku":"${'x'.repeat(9 * MiB)}"}\n`));
    expect(readFileSync(path).length).toBeLessThan(64 * 1024);
    expect(errorOf(await readSource(path))).toBe(`${path}: line 2 is over 8 MiB (--max-record-bytes)`);
  });

  it('says so when the gzip data is broken', async () => {
    const broken = gzipSync('sku\nA\n'.repeat(1000)).subarray(0, 40);
    expect(errorOf(await readBytes(broken))).toMatch(/^standard input: cannot decompress \(gzip\): /);
  });

  describe('from a feed URL (Content-Encoding)', () => {
    let server: Awaited<ReturnType<typeof loopbackServer>>;
    const csv = 'sku,name\nA1,Mug\nB2,Crème\n';
    beforeAll(async () => {
      server = await loopbackServer({
        '/gzip.csv': body(gzipSync(csv), { 'content-encoding': 'gzip' }),
        '/deflate.csv': body(deflateSync(csv), { 'content-encoding': 'deflate' }),
        '/raw-deflate.csv': body(deflateRawSync(csv), { 'content-encoding': 'deflate' }),
        '/brotli.csv': body('whatever', { 'content-encoding': 'br' }),
        '/bomb.csv': (_req, res) => {
          // A CSV whose second record is 1 GiB of `a` once inflated: about 1 MB sent.
          res.writeHead(200, { 'content-encoding': 'gzip' });
          const first = gzipSync(Buffer.concat([Buffer.from('sku,name\nA,ok\nB,"'), Buffer.alloc(MiB, 'a')]));
          const member = gzipSync(Buffer.alloc(MiB, 'a'));
          res.write(first);
          let sent = 1;
          const more = () => {
            while (sent < 1024 && !res.destroyed) {
              sent++;
              if (!res.write(member)) return void res.once('drain', more);
            }
            res.end();
          };
          more();
        },
      });
    });
    afterAll(() => server.close());

    it.each(['gzip', 'deflate', 'raw-deflate'])('inflates a %s answer', async (name) => {
      const result = await readSource(`${server.base}/${name}.csv`);
      expect('records' in result && result.records.map((record) => record.values.name)).toEqual([
        'Mug',
        'Crème',
      ]);
    });

    it('asks for gzip and deflate only, and names an encoding it cannot read', async () => {
      expect(errorOf(await readSource(`${server.base}/brotli.csv`))).toBe(
        `${server.base}/brotli.csv: the feed is sent with Content-Encoding br, which this tool cannot read`,
      );
      expect(server.requests.at(-1)?.headers['accept-encoding']).toBe('gzip, deflate');
    });

    it('stops a gzip bomb (1 MB inflating to 1 GiB) at the record over the cap, quickly', async () => {
      const started = performance.now();
      expect(errorOf(await readSource(`${server.base}/bomb.csv`))).toBe(
        `${server.base}/bomb.csv: the record that starts on line 3 is over 8 MiB (--max-record-bytes): probably an unclosed quote`,
      );
      expect(performance.now() - started).toBeLessThan(10_000);
    });
  });
});

/**
 * The CLI as a user runs it, on inputs generated on disk as streams: an NDJSON file with one 200 MB
 * line, and a 1 MB gzip that inflates to 1 GiB. Each must end quickly with exit 2 and one line, and
 * nothing written. The peak RSS is the kernel's (`/usr/bin/time -f %M`, from wait4), when that
 * program is installed; bench/hostile-inputs.ts prints the same measurements.
 */
describe('the CLI on a 200 MB line and on a gzip bomb', () => {
  const folder = tempFolder();
  let sandbox: Sandbox;
  const prefix = uniquePrefix();
  const TIME = '/usr/bin/time';

  beforeAll(async () => {
    assertBuilt();
    sandbox = await startSandbox({ keys: [{ key: 'hostile-key', seller: 'hostile' }] });
  });
  afterAll(async () => {
    await sandbox.close();
    await removePrefix(prefix);
    folder.remove();
  });

  async function runMeasured(
    args: string[],
  ): Promise<{ code: number | null; stderr: string; peakMiB?: number; seconds: number }> {
    const rssFile = join(folder.dir, `rss-${Date.now()}`);
    const measured = existsSync(TIME);
    const command = measured ? TIME : process.execPath;
    const commandArgs = measured
      ? ['-f', '%M', '-o', rssFile, process.execPath, BIN, ...args]
      : [BIN, ...args];
    const started = performance.now();
    const child = spawn(command, commandArgs, {
      cwd: projectRoot(),
      env: {
        ...process.env,
        SELLER_API_BASE_URL: sandbox.baseUrl,
        SELLER_API_KEY: 'hostile-key',
        REDIS_URL: TEST_REDIS_URL,
        CATALOG_SYNC_PREFIX: prefix,
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    const deadline = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const [exitCode] = (await once(child, 'exit')) as [number | null];
    clearTimeout(deadline);
    const seconds = (performance.now() - started) / 1000;
    if (!measured) return { code: exitCode, stderr, seconds };
    // time(1) passes the command's exit status on; with -o, its own lines go to the file.
    const kib = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1));
    return { code: exitCode, stderr, peakMiB: kib / 1024, seconds };
  }

  it('NDJSON with one 200 MB line: exit 2, one line naming the line and the cap, under 250 MB', async () => {
    const path = join(folder.dir, 'long-line.ndjson');
    await writeLongLineNdjson(path, 200 * 1000 * 1000);

    const result = await runMeasured(['run', path]);

    expect(result.stderr).toBe(`catalog-sync: ${path}: line 2 is over 8 MiB (--max-record-bytes)\n`);
    expect(result.code).toBe(2);
    expect(result.seconds).toBeLessThan(30);
    if (result.peakMiB !== undefined) expect(result.peakMiB).toBeLessThan(250);
    // The good line before the long one was read, never written: the run stopped whole.
    expect(sandbox.products('hostile')).toEqual([]);
  }, 90_000);

  it('a gzip bomb (1 MB inflating to 1 GiB): exit 2, one line, under 250 MB', async () => {
    const path = join(folder.dir, 'bomb.ndjson.gz');
    const size = await writeGzipBomb(path, 1024 * MiB);
    expect(size).toBeLessThan(2 * MiB);

    const result = await runMeasured(['run', path]);

    expect(result.stderr).toBe(`catalog-sync: ${path}: line 1 is over 8 MiB (--max-record-bytes)\n`);
    expect(result.code).toBe(2);
    expect(result.seconds).toBeLessThan(30);
    if (result.peakMiB !== undefined) expect(result.peakMiB).toBeLessThan(250);
  }, 90_000);

  it('`--max-record-bytes 512KiB` and a job file`s maxRecordBytes set the cap', async () => {
    const path = folder.write(
      'wide.ndjson',
      `{"sku":"A","price":1}\n{"sku":"B","name":"${'x'.repeat(600 * 1024)}"}\n`,
    );
    const env = {
      ...process.env,
      SELLER_API_BASE_URL: sandbox.baseUrl,
      SELLER_API_KEY: 'hostile-key',
      REDIS_URL: TEST_REDIS_URL,
      CATALOG_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'error',
    };

    const flag = await runCli(['run', path, '--max-record-bytes', '512KiB'], env);
    expect(flag).toMatchObject({
      code: 2,
      stderr: `catalog-sync: ${path}: line 2 is over 512 KiB (--max-record-bytes)\n`,
    });

    const job = join(folder.dir, 'wide.yml');
    writeFileSync(job, `source: ${path}\nmaxRecordBytes: 524288\n`);
    const fromJob = await runCli(['run', '--job', job], env);
    expect(fromJob).toMatchObject({
      code: 2,
      stderr: `catalog-sync: ${path}: line 2 is over 512 KiB (--max-record-bytes)\n`,
    });

    const bad = await runCli(['run', path, '--max-record-bytes', '12XB'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-record-bytes takes a size from 1KiB to 1GiB');
  });
});
