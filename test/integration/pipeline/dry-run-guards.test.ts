import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows, parseCsv } from '../support/catalog.js';
import { type Pipeline, requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * docs/options.md: "When the real run would be held, the dry run's summary says so and why". A dry
 * run weighs every guard the real run weighs (holding nothing: its exit code stays 0 or 1), and says
 * in the real run's words which guard would hold it and which rows; each row the real run would hold
 * for its price is noted so in the dry run's report. Each case runs the dry run, then the real run,
 * and holds the one's verdict against the other's.
 */

const GUARD = '  guard     a run without --dry-run would be held (exit 5): ';
const HELD = '  held      ';
const WOULD_HOLD_NOTE = 'a run without --dry-run would hold it: ';

/** Five products at whole prices, synced: the catalog a night's feed is weighed against. */
function catalog(count = 5): CatalogRow[] {
  return catalogRows(count).map((row, i) => ({ ...row, price: String((i + 1) * 100), quantity: '4' }));
}

/** The summary's line that starts so, without its start; undefined when there is none. */
function lineAfter(stdout: string, start: string): string | undefined {
  return stdout
    .split('\n')
    .find((line) => line.startsWith(start))
    ?.slice(start.length);
}

/** `run night2.csv …args` dry, then for real, each with its report; the sandbox's stats per run. */
async function dryThenReal(pipeline: Pipeline, night2: CatalogRow[], args: string[]) {
  const source = await pipeline.csv('night2.csv', night2);
  const run = async (name: string, extra: string[]) => {
    pipeline.sandbox.resetStats();
    const result = await pipeline.cli([
      'run',
      source,
      ...args,
      ...extra,
      '--report',
      join(pipeline.dir, name),
    ]);
    const requests = requestCounts(pipeline.sandbox.stats());
    return { ...result, requests, report: parseCsv(await pipeline.readText(name)) };
  };
  const dry = await run('dry.csv', ['--dry-run']);
  const real = await run('real.csv', []);
  return { dry, real };
}

describe('--dry-run weighs the guards the real run would hold it by', () => {
  const pipeline = usePipeline();

  async function seed(rows: CatalogRow[]): Promise<void> {
    expect((await pipeline.cli(['run', await pipeline.csv('night1.csv', rows)])).code).toBe(0);
  }

  it('--max-price-change: the rows it would hold, in the real run words, and no request more', async () => {
    const rows = catalog();
    await seed(rows);
    // Rows 1-3 move by more than 50%, rows 4 and 5 by 10%.
    const night2 = rows.map((row, i) => ({
      ...row,
      price: String(i < 3 ? Number(row.price) * 3 : Number(row.price) * 1.1),
    }));

    pipeline.sandbox.resetStats();
    const plain = await pipeline.cli(['run', await pipeline.csv('plain.csv', night2), '--dry-run']);
    const plainRequests = requestCounts(pipeline.sandbox.stats()).total;
    expect(plain.code).toBe(0);
    const { dry, real } = await dryThenReal(pipeline, night2, ['--max-price-change', '50%']);

    expect(real.code).toBe(5);
    expect(lineAfter(real.stdout, HELD)).toBe(
      '3 rows held: their prices move more than --max-price-change 50%',
    );
    expect(dry.code).toBe(0);
    expect(lineAfter(dry.stdout, GUARD)).toBe(lineAfter(real.stdout, HELD));
    // The dry run's report: the same rows planned, the ones held noted with the real run's reason.
    expect(dry.report.map((line) => `${line.action}:${line.status}`)).toEqual(
      Array(5).fill('update:planned'),
    );
    for (const [i, line] of real.report.entries()) {
      if (line.status === 'held') expect(dry.report[i]?.note).toBe(`${WOULD_HOLD_NOTE}${line.error}`);
      else expect(dry.report[i]?.note ?? '').not.toContain(WOULD_HOLD_NOTE);
    }
    expect(real.report.filter((line) => line.status === 'held').map((line) => line.row)).toEqual([
      '1',
      '2',
      '3',
    ]);
    // Weighed from what a dry run reads anyway: not one request more, no write.
    expect(dry.requests).toMatchObject({ creates: 0, updates: 0, total: plainRequests });
  });

  it('--max-updates: the whole run would be held, said as the real run says it', async () => {
    const rows = catalog();
    await seed(rows);
    const night2 = rows.map((row, i) => (i < 3 ? { ...row, quantity: '9' } : row));

    const { dry, real } = await dryThenReal(pipeline, night2, ['--max-updates', '1']);

    expect(real.code).toBe(5);
    expect(lineAfter(real.stdout, HELD)).toBe(
      '3 of 5 products would be updated (60%), more than --max-updates 1: nothing was sent',
    );
    expect(dry.code).toBe(0);
    expect(`${lineAfter(dry.stdout, GUARD)}: nothing was sent`).toBe(lineAfter(real.stdout, HELD));
    expect(dry.requests).toMatchObject({ creates: 0, updates: 0 });
  });

  it('--max-invalid: the whole run would be held; the dry run exits 1 for its invalid rows', async () => {
    const rows = catalog();
    await seed(rows);
    // Two rows invalid, and one update for the guard to hold.
    const night2 = rows.map((row, i) =>
      i < 2 ? { ...row, price: 'abc' } : i === 2 ? { ...row, quantity: '9' } : row,
    );

    const { dry, real } = await dryThenReal(pipeline, night2, ['--max-invalid', '1']);

    expect(real.code).toBe(5);
    expect(lineAfter(real.stdout, HELD)).toBe(
      '2 of 5 rows are invalid (40%), more than --max-invalid 1: nothing was sent',
    );
    expect(dry.code).toBe(1);
    expect(`${lineAfter(dry.stdout, GUARD)}: nothing was sent`).toBe(lineAfter(real.stdout, HELD));
  });

  it('--max-invalid over its limit with no write to hold: the real run is not held, nor said to be', async () => {
    const rows = catalog();
    await seed(rows);
    const night2 = rows.map((row, i) => (i < 2 ? { ...row, price: 'abc' } : row));

    const { dry, real } = await dryThenReal(pipeline, night2, ['--max-invalid', '1']);

    expect(real.code).toBe(1);
    expect(real.stdout).not.toContain(HELD);
    expect(dry.code).toBe(1);
    expect(dry.stdout).not.toContain('would be held');
  });

  it('within every limit: nothing said, as the real run holds nothing', async () => {
    const rows = catalog();
    await seed(rows);
    const night2 = rows.map((row, i) => (i === 0 ? { ...row, price: '110', quantity: '9' } : row));

    const { dry, real } = await dryThenReal(pipeline, night2, [
      '--max-price-change',
      '50%',
      '--max-updates',
      '1',
      '--max-invalid',
      '0',
    ]);

    expect(real.code).toBe(0);
    expect(dry.code).toBe(0);
    expect(dry.stdout).not.toContain('would be held');
    expect(dry.report[0]?.note ?? '').not.toContain(WOULD_HOLD_NOTE);
  });

  it('--missing over --max-missing with a price held: both named, as the real run holds both', async () => {
    const rows = catalog(3);
    await seed(rows);
    // Row 3 gone (1 of 3 managed products: over the default 20%), row 2's price tripled.
    const night2 = rows.slice(0, 2).map((row, i) => (i === 1 ? { ...row, price: '600' } : row));

    const { dry, real } = await dryThenReal(pipeline, night2, [
      '--missing',
      'quantity=0',
      '--max-price-change',
      '50%',
    ]);

    expect(real.code).toBe(5);
    const realHeld = lineAfter(real.stdout, HELD);
    expect(realHeld).toBe(
      '1 of 3 managed products would be deactivated (33.3%), more than --max-missing 20%: nothing was sent',
    );
    const row2 = real.report.find((line) => line.row === '2');
    expect(row2).toMatchObject({
      status: 'held',
      error: 'price 200 → 600 (+200%) exceeds --max-price-change 50%',
    });
    expect(dry.code).toBe(0);
    expect(lineAfter(dry.stdout, GUARD)).toBe(
      '1 of 3 managed products would be deactivated (33.3%), more than --max-missing 20% (default); ' +
        '1 row held: its price moves more than --max-price-change 50%',
    );
    expect(dry.report.find((line) => line.row === '2')?.note).toBe(`${WOULD_HOLD_NOTE}${row2?.error}`);
  });

  it('status of the dry run says it too', async () => {
    const rows = catalog();
    await seed(rows);
    const night2 = rows.map((row, i) => (i < 3 ? { ...row, quantity: '9' } : row));
    const { dry } = await dryThenReal(pipeline, night2, ['--max-updates', '1']);
    const runId = /^run (\S+)/m.exec(dry.stdout)?.[1] ?? '';

    const status = await pipeline.cli(['status', runId]);

    expect(status.stdout).toContain(
      `${GUARD.trimStart()}3 of 5 products would be updated (60%), more than --max-updates 1`,
    );
  });
});
