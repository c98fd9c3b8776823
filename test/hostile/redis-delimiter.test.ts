import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { startsLikeFormula } from '../../src/csv-guard.js';
import { RedisKeys } from '../../src/runs/keys.js';
import { runIdOf } from '../integration/support/cli.js';
import { usePipeline } from '../integration/support/pipeline.js';
import { TEST_REDIS_URL } from '../integration/support/redis-prefix.js';

/**
 * Issue 32, item 5: `sourceDelimiter` is read from Redis, which is not trusted. Set to escape bytes
 * it reached the terminal through `report --failed-only`; set to `,=cmd|' /C calc'!A0,` it put a
 * formula into the file. Now a delimiter that is none of , ; tab | is refused in one line, exit 2.
 */
describe('a forged source delimiter in a run record', () => {
  const pipeline = usePipeline();

  /** A run with one invalid row (its source values kept), and its record's key. */
  async function runWithAFailedRow(): Promise<{ id: string; runKey: string }> {
    const source = join(pipeline.dir, 'catalog.csv');
    writeFileSync(source, 'sku,name,price\nA-1,Alpha,9.5\nB-2,Beta,not a price\n');
    const run = await pipeline.cli(['run', source]);
    expect(run.code).toBe(1);
    const id = runIdOf(run.stdout);
    return { id, runKey: new RedisKeys(pipeline.prefix).run(id) };
  }

  async function forge(runKey: string, fields: Record<string, string>): Promise<void> {
    const redis = new Redis(TEST_REDIS_URL);
    try {
      await redis.hset(runKey, fields);
    } finally {
      await redis.quit();
    }
  }

  it('escape bytes: no escape byte reaches the terminal, one line, exit 2', async () => {
    const { id, runKey } = await runWithAFailedRow();
    await forge(runKey, { sourceDelimiter: '\x1b]0;owned\x07\x1b[2J' });

    const report = await pipeline.cli(['report', id, '--failed-only']);

    expect(report.code).toBe(2);
    expect(report.stdout).toBe('');
    expect(report.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(report.stderr.trim().split('\n')).toHaveLength(1);
    expect(report.stderr).toContain(`run ${id}'s record in Redis names the delimiter`);
  });

  it('a formula as the delimiter: no formula in the file', async () => {
    const { id, runKey } = await runWithAFailedRow();
    await forge(runKey, { sourceDelimiter: ",=cmd|' /C calc'!A0," });
    const out = join(pipeline.dir, 'failed.csv');

    const report = await pipeline.cli(['report', id, '--failed-only', '--out', out]);

    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(/none of , ; tab \|: not written by catalog-sync/);
    const written = existsSync(out) ? readFileSync(out, 'utf8') : '';
    expect(written).not.toContain('=cmd');
  });

  it('a header that is not a list of names is refused in one line too, and a true record still writes', async () => {
    const { id, runKey } = await runWithAFailedRow();
    const good = await pipeline.cli(['report', id, '--failed-only']);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('B-2,Beta,not a price,');
    expect(good.stdout.split('\n').every((line) => !startsLikeFormula(line))).toBe(true);

    await forge(runKey, { sourceHeader: '{"sku":1}' });
    const report = await pipeline.cli(['report', id, '--failed-only']);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('holds a source header that is not a list of column names');
  });

  it("a failed row's source values in a form the tool never writes: one line, exit 2, no stack", async () => {
    const { id } = await runWithAFailedRow();
    await forge(new RedisKeys(pipeline.prefix).failedSources(id), { '2': '{"values":"\x1b[2J"}' });

    const report = await pipeline.cli(['report', id, '--failed-only']);

    expect(report.code).toBe(2);
    expect(report.stderr.trim()).toBe(
      `catalog-sync: run ${id}'s record in Redis holds source values of row 2 in a form catalog-sync never writes: no file is written from it`,
    );
  });
});
