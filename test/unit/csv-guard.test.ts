import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardCell, startsLikeFormula, unguardCell } from '../../src/csv-guard.js';
import type { RowOutcome } from '../../src/interfaces.js';
import { writeReport } from '../../src/runs/report.js';
import type { RunStore } from '../../src/runs/run-store.js';

describe('guardCell (OWASP CSV injection rule)', () => {
  it.each<[string, string]>([
    ['=HYPERLINK("http://evil.example","click")', '\'=HYPERLINK("http://evil.example","click")'],
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['+cmd', "'+cmd"],
    ['@SUM(A1)', "'@SUM(A1)"],
    // A tab both starts a formula and separates cells where tab is the separator.
    ['\t=1', "'\t'=1"],
    ['\r=1', "'\r=1"],
    ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
    ['-cmd', "'-cmd"],
    ['-', "'-"],
    ['--1', "'--1"],
    ['-1 ', "'-1 "],
    // A formula after leading spaces: an import that trims cells would run it.
    [' =1', "' =1"],
    ['  +x', "'  +x"],
    ['\n@x', "'\n@x"],
    [' -5', ' -5'],
    // A negative number is a number.
    ['-12.5', '-12.5'],
    ['-3', '-3'],
    ['-.5', '-.5'],
    ['-1e6', '-1e6'],
    // Nothing to guard.
    ['', ''],
    ['SKU-1', 'SKU-1'],
    ['12.5', '12.5'],
    ['a=b', 'a=b'],
    ["'Tis the season", "'Tis the season"],
    ["'-12.5", "'-12.5"],
    // A value that already starts with ' before a formula gets one more, so it reads back as it was.
    ["'=1", "''=1"],
    ["''+x", "'''+x"],
  ])('%j → %j', (value, cell) => {
    expect(guardCell(value)).toBe(cell);
    expect(unguardCell(cell)).toBe(value);
  });

  it('round trip: unguardCell(guardCell(v)) is v, and a guarded cell never starts like a formula', () => {
    const risky = fc.constantFrom('=', '+', '-', '@', '\t', '\r', "'", '1', '.', 'e', 'a', ' ');
    const values = fc.oneof(
      fc.string(),
      fc.string({ unit: fc.integer({ min: 0, max: 0x17f }).map((code) => String.fromCharCode(code)) }),
      fc.array(risky, { maxLength: 8 }).map((chars) => chars.join('')),
    );
    fc.assert(
      fc.property(values, (value) => {
        const cell = guardCell(value);
        return unguardCell(cell) === value && !startsLikeFormula(cell);
      }),
      { numRuns: 2000 },
    );
  });

  it.each<[string, string]>([
    ['X;=1+2;', "X;'=1+2;"],
    ['X,=1+2,', "X,'=1+2,"],
    ['a|@SUM(A1)', "a|'@SUM(A1)"],
    ['a\t+1', "a\t'+1"],
    ['X;-1,2+cmd', "X;'-1,2+cmd"],
    ["X;'=1", "X;''=1"],
    ['=1;=2', "'=1;'=2"],
    // A sign before a number that ends the cell, and text that starts no formula, are left alone.
    ['1;-2', '1;-2'],
    ['a;b,c', 'a;b,c'],
    ["a;'b", "a;'b"],
  ])('after a separator inside the cell: %j → %j', (value, cell) => {
    expect(guardCell(value)).toBe(cell);
    expect(unguardCell(cell)).toBe(value);
  });

  it('round trip, and no locale splits a guarded cell into a piece that starts like a formula', () => {
    const risky = fc.constantFrom('=', '+', '-', '@', '\t', '\r', "'", '1', '.', 'a', ',', ';', '|');
    const values = fc.oneof(
      fc.string(),
      fc.array(risky, { maxLength: 10 }).map((chars) => chars.join('')),
    );
    fc.assert(
      fc.property(values, (value) => {
        const cell = guardCell(value);
        const pieces = [',', ';', '\t', '|'].flatMap((separator) => cell.split(separator));
        return unguardCell(cell) === value && !pieces.some(startsLikeFormula);
      }),
      { numRuns: 5000 },
    );
  });
});

/** A RunStore that only lists outcomes: all writeReport reads. */
function storeOf(outcomes: RowOutcome[]): RunStore {
  return {
    async *outcomes() {
      yield* outcomes;
    },
  } as unknown as RunStore;
}

async function reportText(outcomes: RowOutcome[], terminal = false): Promise<string> {
  const { PassThrough } = await import('node:stream');
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  await writeReport(storeOf(outcomes), 'run', out, { terminal });
  return Buffer.concat(chunks).toString('utf8');
}

describe('the report', () => {
  const outcomes: RowOutcome[] = [
    {
      row: 1,
      key: '=HYPERLINK("http://evil.example","click")',
      action: 'create',
      productId: '7',
      status: 'ok',
      error: '',
    },
    { row: 2, key: '-12.5', action: 'invalid', productId: null, status: 'failed', error: '+price "abc"' },
    {
      row: 3,
      key: 'esc\x1b[2J',
      action: 'unchanged',
      productId: '9',
      status: 'ok',
      error: '',
      note: '@note',
    },
  ];

  it("writes a cell that starts like a formula with a leading ', and a reader gets the values back", async () => {
    const text = await reportText(outcomes);
    expect(text).toContain('1,"\'=HYPERLINK(""http://evil.example"",""click"")",create,7,ok,,');
    expect(text).toContain('2,-12.5,invalid,,failed,"\'+price ""abc""",');
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => unguardCell(row.key as string))).toEqual(outcomes.map((o) => o.key));
    expect(rows.map((row) => unguardCell(row.error as string))).toEqual(outcomes.map((o) => o.error));
    expect(unguardCell(rows[2]?.note as string)).toBe('@note');
    // A report file keeps the bytes it was given.
    expect(text).toContain('esc\x1b[2J');
  });

  it('to a terminal or pipe, shows control characters as \\xHH', async () => {
    const text = await reportText(outcomes, true);
    expect(text).toContain('esc\\x1b[2J');
    expect(text).not.toContain('\x1b');
  });
});
