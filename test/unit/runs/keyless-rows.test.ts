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

  it('a record without it, or with what this tool never writes, has none', () => {
    expect(keylessOf({})).toBeUndefined();
    expect(keylessOf({ keylessRows: 'x' })).toBeUndefined();
    expect(keylessOf({ keylessRows: '2', keylessFirst: '5,a,-1,7' })).toEqual({ count: 2, rows: [5, 7] });
  });
});
