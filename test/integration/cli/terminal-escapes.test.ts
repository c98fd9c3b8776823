import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

describe('nothing from outside reaches a terminal raw', () => {
  const pipeline = usePipeline();
  /** Retitles the window, clears the screen, and the same with C1's one-byte CSI. */
  const HOSTILE = 'name\x1b]0;evil\x07\x1b[2J\u009b2J';

  it('a source whose header holds escape sequences: the error listing its columns counts that one, never writes it raw', async () => {
    const source = join(pipeline.dir, 'hostile.csv');
    await writeFile(source, `sku,"${HOSTILE}",price\nA-1,Lamp,12.5\n`, 'utf8');
    // `prce`, not an attribute word (`colour`): such a word is named no nearest field.
    const child = pipeline.spawn(['run', source, '--fields', 'sku,prce'], { NO_COLOR: '1' });

    const { code } = await child.exited;

    expect(code).toBe(2);
    const lines = child.stderr().trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        /^catalog-sync: --fields: prce: this source gives no such field; the nearest field is price /,
      ),
    ]);
    // A header holding control characters is no column's name: counted, not shown (shown-fields.ts).
    expect(lines[0]).toContain('(this source gives: sku, price; 1 not shown: holding a control character)');
    expect(child.stderr()).not.toMatch(/[\x1b\x07\x9b]/);
    expect(pipeline.sandbox.stats().writesApplied).toBe(0);
  });

  it('keys with escape sequences: the summary, status and the report on stdout show them escaped', async () => {
    const source = join(pipeline.dir, 'hostile-keys.csv');
    await writeFile(source, `sku,name,price\n"A\x1b[2J",Lamp,12.5\nB-2,"${HOSTILE}",3\n`, 'utf8');

    const run = await pipeline.cli(['run', source, '--preset', 'generic']);
    const runId = runIdOf(run.stdout);
    const status = await pipeline.cli(['status', runId]);
    const json = await pipeline.cli(['status', runId, '--json']);
    const report = await pipeline.cli(['report', runId]);

    for (const output of [run, status, json, report]) {
      expect(output.stdout + output.stderr).not.toMatch(/[\x1b\x07\x9b]/);
    }
    expect(report.stdout).toContain('A\\x1b[2J');
    // The marketplace got the key as the source holds it: only what is printed is escaped.
    expect(pipeline.products().map((product) => product.sku)).toContain('A\x1b[2J');
  });
});
