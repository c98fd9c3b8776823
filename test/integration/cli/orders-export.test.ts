import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { parseCsv } from '../support/catalog.js';
import { runCli } from '../support/cli.js';

describe('catalog-sync orders export', () => {
  let sandbox: Sandbox;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    // More orders than a page holds, so the export must follow every page.
    sandbox = await startSandbox({
      ordersPerSeller: 7,
      pageSize: 3,
      keys: [{ key: 'k-orders', seller: 's1' }],
    });
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-orders-test-'));
    env = {
      ...process.env,
      SELLER_API_BASE_URL: sandbox.baseUrl,
      SELLER_API_KEY: 'k-orders',
      LOG_LEVEL: 'silent',
    };
  });

  afterEach(async () => {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes every order of every page as CSV, nested lines as JSON in one cell', async () => {
    const result = await runCli(['orders', 'export'], env);
    expect(result.code).toBe(0);
    const rows = parseCsv(result.stdout);
    expect(rows.map((row) => row.id)).toHaveLength(7);
    expect(new Set(rows.map((row) => row.id)).size).toBe(7);
    expect(JSON.parse(rows[0]?.lines ?? 'null')).toEqual(
      expect.arrayContaining([expect.objectContaining({ sku: expect.any(String) })]),
    );
    expect(sandbox.stats().byRoute['GET /orders']).toBe(3);
  });

  it('writes JSON lines to a file when asked, one order a line', async () => {
    const out = join(dir, 'orders.jsonl');
    const result = await runCli(['orders', 'export', '--out', out], env);
    expect(result.code).toBe(0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(7);
    expect(JSON.parse(lines[6] ?? '{}')).toHaveProperty('status');
  });

  // products export names it ndjson, orders export jsonl: either name works for both.
  it.each(['ndjson', 'jsonl'])('writes JSON lines to standard output with --format %s', async (format) => {
    const result = await runCli(['orders', 'export', '--format', format], env);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(7);
    expect(JSON.parse(lines[0] ?? '{}')).toHaveProperty('status');
  });

  it('exits 3 with one line when the key is rejected', async () => {
    const result = await runCli(['orders', 'export'], { ...env, SELLER_API_KEY: 'unknown' });
    expect(result.code).toBe(3);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toContain('unknown');
  });

  // It exited 2 ("usage or configuration error") where `ping` exits 4 on the same answer.
  it('exits 4 on a 429 (the daily limit spent), in the line ping gives', async () => {
    sandbox.setFaults({ dailyLimit: 0 });

    const result = await runCli(['orders', 'export'], env);

    expect(result.code).toBe(ExitCode.pausedDailyLimit);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^catalog-sync: the key in SELLER_API_KEY is valid for ${sandbox.baseUrl.replace(/[.]/g, '\\.')}, ` +
            "but the seller's daily request limit is spent until (?:\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d UTC \\(in [^)]+\\) \\(429\\)$",
        ),
      ),
    ]);
  });
});
