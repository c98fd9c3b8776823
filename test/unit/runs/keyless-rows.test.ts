import { describe, expect, it } from 'vitest';
import { KeylessTally, keylessOf } from '../../../src/runs/keyless-rows.js';

describe("the reader's tally of rows with no key", () => {
  it('writes nothing for a source without such a row, and the whole tally once per change', () => {
    const tally = new KeylessTally();
    expect(tally.take()).toBeNull();
    for (const row of [3, 9, 12, 40]) tally.add(row);
    const fields = tally.take();
    expect(fields).not.toBeNull();
    expect(tally.take()).toBeNull();
    expect(keylessOf(fields ?? {})).toEqual({ count: 4, rows: [3, 9, 12] });
  });

  it("keeps how many rows keep a key it cannot trust, and the named ones' keys", () => {
    const tally = new KeylessTally();
    tally.add(3);
    tally.add(9, '1,23457E+08');
    tally.add(12);
    tally.add(40, '4.00638E+12');
    const fields = tally.take() ?? {};
    expect(keylessOf(fields)).toEqual({
      count: 4,
      rows: [3, 9, 12],
      untrusted: 2,
      keys: { 9: '1,23457E+08' },
    });
    // A key longer than a reason shows is cut.
    const long = new KeylessTally();
    long.add(5, `1.${'2'.repeat(60)}E+08`);
    expect(keylessOf(long.take() ?? {})?.keys?.[5]).toBe(`1.${'2'.repeat(37)}…`);
  });

  it('a record without it, or with what this tool never writes, has none', () => {
    expect(keylessOf({})).toBeUndefined();
    expect(keylessOf({ keylessRows: 'x' })).toBeUndefined();
    expect(keylessOf({ keylessRows: '2', keylessFirst: '5,a,-1,7' })).toEqual({ count: 2, rows: [5, 7] });
    expect(
      keylessOf({ keylessRows: '2', keylessFirst: '5,7', keylessUntrusted: '1', keylessKeys: '{"5":1,' }),
    ).toEqual({ count: 2, rows: [5, 7], untrusted: 1, keys: {} });
  });
});
