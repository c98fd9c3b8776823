import { describe, expect, it } from 'vitest';
import type { DeactivatedProduct } from '../../../src/missing/deactivated-store.js';
import { mergedRecord } from '../../../src/missing/merged-record.js';
import { stillOffNotes } from '../../../src/missing/still-off.js';

/** The record of a product deactivated on night 1 with `--missing quantity=0`, its stock 5 before. */
const NIGHT_ONE: DeactivatedProduct = {
  id: '7',
  former: { quantity: 5 },
  at: '2026-11-27',
  set: { quantity: 0 },
};

describe('a deactivated product deactivated again: its record', () => {
  it('gains a field a later --missing names, with no value before, and the day it was set', () => {
    const merged = mergedRecord(NIGHT_ONE, {
      id: '7',
      former: { quantity: 0, status: null },
      at: '2026-11-28',
      set: { quantity: 0, status: 'inactive' },
    });
    expect(merged).toEqual({
      id: '7',
      former: { quantity: 5, status: null },
      at: '2026-11-27',
      set: { quantity: 0, status: 'inactive' },
      setOn: { status: '2026-11-28' },
    });
    // The return notes it by the day it was set, not the first night's.
    expect(stillOffNotes(merged as DeactivatedProduct, ['status'], { status: 'inactive' }).notes).toEqual([
      'status stays inactive (set by --missing on 2026-11-28; it had no value before): give it a value in the source',
    ]);
  });

  it('gains a field with the value it showed, and learns one it knew none of', () => {
    const kept: DeactivatedProduct = { ...NIGHT_ONE, former: { quantity: null } };
    expect(
      mergedRecord(kept, {
        id: '7',
        former: { quantity: 3, status: 'active' },
        at: '2026-11-27',
        set: { quantity: 0, status: 'draft' },
      }),
    ).toEqual({
      id: '7',
      former: { quantity: 3, status: 'active' },
      at: '2026-11-27',
      set: { quantity: 0, status: 'draft' },
    });
  });

  it('does not learn, as a value of its own, what --missing set (a quantity set by hand since, status not)', () => {
    const none: DeactivatedProduct = {
      id: '7',
      former: { quantity: null, status: null },
      at: '2026-11-27',
      set: { quantity: 0, status: 'inactive' },
    };
    expect(
      mergedRecord(none, {
        id: '7',
        former: { quantity: 3, status: 'inactive' },
        at: '2026-11-28',
        set: { quantity: 0, status: 'inactive' },
      }),
    ).toEqual({ ...none, former: { quantity: 3, status: null } });
  });

  it('keeps the first value before, and a field not named again', () => {
    const both: DeactivatedProduct = {
      id: '7',
      former: { quantity: 5, status: 'active' },
      at: '2026-11-27',
      set: { quantity: 0, status: 'inactive' },
    };
    // The quantity --missing set is what the product shows now: not a value to give back.
    expect(
      mergedRecord(both, { id: '7', former: { quantity: 0 }, at: '2026-11-29', set: { quantity: 0 } }),
    ).toBe(undefined);
  });

  it('takes the value a later night sets over the earlier one (still off is judged by it)', () => {
    const kept: DeactivatedProduct = {
      id: '7',
      former: { status: null },
      at: '2026-11-27',
      set: { status: 'inactive' },
    };
    expect(
      mergedRecord(kept, {
        id: '7',
        former: { status: 'inactive' },
        at: '2026-11-28',
        set: { status: 'archived' },
      }),
    ).toEqual({
      id: '7',
      former: { status: null },
      at: '2026-11-27',
      set: { status: 'archived' },
      setOn: { status: '2026-11-28' },
    });
  });

  it('a record from before the set values were kept: its fields keep their first day', () => {
    const old: DeactivatedProduct = { id: '7', former: { quantity: 5 } };
    expect(
      mergedRecord(old, { id: '7', former: { quantity: 0 }, at: '2026-11-28', set: { quantity: 0 } }),
    ).toEqual({ id: '7', former: { quantity: 5 }, set: { quantity: 0 } });
  });
});
