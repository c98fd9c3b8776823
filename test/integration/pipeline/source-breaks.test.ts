import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';

/** What a row queued but never sent is reported with (source-broke.ts). */
const UNSENT = 'not sent: the source broke before its turn (run it again)';

/** A CSV of `rows`, each with a description long enough that 300 rows pass the 64 KiB sniffed. */
function csvText(rows: ReturnType<typeof catalogRows>): string {
  const lines = rows.map((row) => `${row.sku},Item ${row.sku},${row.price},${'d'.repeat(300)}`);
  return `sku,name,price,description\n${lines.join('\n')}\n`;
}

/**
 * What `run` says of a run whose source broke after its first chunks: exit 2; the summary (ended
 * early, its counts, which match what the API received); the report, one line per row read; one
 * line on stderr naming the cause, the run and `catalog-sync report <id>`, never a stack trace.
 */
function expectEndedEarly(
  result: { code: number; stdout: string; stderr: string },
  report: Array<Record<string, string>>,
  created: number,
  cause: string,
): void {
  expect(result.code).toBe(2);
  const id = runIdOf(result.stdout);
  expect(result.stdout).toContain(`run ${id}: ended early after`);
  const total = Number(/rows {6}(\d+): /.exec(result.stdout)?.[1]);
  expect(result.stdout).toContain(
    `rows      ${total}: ${created} created, 0 updated, 0 unchanged, 0 invalid,`,
  );
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(result.stderr).not.toMatch(/^\s+at |triggerUncaughtException/m);
  expect(lines[0]).toContain(`${cause}. Run ${id} ended early after ${total} rows of the source: `);
  expect(lines[0]).toContain(`Each row read: catalog-sync report ${id}.`);
  expect(report).toHaveLength(total);
  const outcomes = new Set(report.map((line) => `${line.action}, ${line.status}, ${line.error}`));
  for (const outcome of outcomes) expect(['create, ok, ', `skipped, failed, ${UNSENT}`]).toContain(outcome);
  expect(report.filter((line) => line.action === 'create')).toHaveLength(created);
}

describe('a source that breaks half way through its read', () => {
  const pipeline = usePipeline({ latencyMs: 2 });
  let feed: Server | undefined;
  afterEach(async () => {
    feed?.closeAllConnections();
    if (feed?.listening) await new Promise((resolve) => feed?.close(resolve));
    feed = undefined;
  });

  it('a CSV whose record past the first chunks is over --max-record-bytes: what was written is reported (exit 2)', async () => {
    const rows = catalogRows(3000);
    const path = join(pipeline.dir, 'long-record.csv');
    const text = csvText(rows).replace(`SKU-02990,Item SKU-02990`, `SKU-02990,${'x'.repeat(2000)}`);
    await writeFile(path, text, 'utf8');
    const report = join(pipeline.dir, 'report.csv');

    const result = await pipeline.cli(['run', path, '--max-record-bytes', '1KiB', '--report', report]);

    const created = requestCounts(pipeline.sandbox.stats()).creates;
    expectEndedEarly(
      result,
      parseCsv(await pipeline.readText('report.csv')),
      created,
      `catalog-sync: ${path}: the record that starts on line 2991 is over 1 KiB (--max-record-bytes): probably an unclosed quote`,
    );
    expect(pipeline.products()).toHaveLength(created);
  });

  it('a feed whose connection drops after the run wrote: what was written is reported (exit 2)', async () => {
    const rows = catalogRows(400);
    const body = csvText(rows);
    // 300 rows (past the 64 KiB sniffed), then the connection drops once the API has taken a write.
    const cut = body.indexOf(`\n${rows[300]!.sku},`) + 1;
    feed = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write(body.slice(0, cut));
      const drop = () => {
        if (requestCounts(pipeline.sandbox.stats()).creates > 0) res.socket?.destroy();
        else setTimeout(drop, 20);
      };
      drop();
    });
    feed.listen(0, '127.0.0.1');
    await once(feed, 'listening');
    const url = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed.csv`;
    const report = join(pipeline.dir, 'report.csv');

    const result = await pipeline.cli(['run', url, '--report', report]);

    const created = requestCounts(pipeline.sandbox.stats()).creates;
    expect(created).toBeGreaterThan(0);
    expectEndedEarly(
      result,
      parseCsv(await pipeline.readText('report.csv')),
      created,
      `catalog-sync: ${url}: the feed broke off after part of it was read: connection reset (ECONNRESET)`,
    );
  });
});
