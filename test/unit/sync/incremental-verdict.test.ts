import { describe, expect, it } from 'vitest';
import { durationText, recordVerdict } from '../../../src/sync/incremental.js';

const DAY = 86_400_000;
const AT = Date.parse('2026-11-20T02:00:00Z');
const run = { incremental: true, fullReadAfterMs: 7 * DAY, matchBy: 'sku' };
const record = (value: object) => JSON.stringify(value);

describe('recordVerdict: whether an --incremental run may rely on its record, and why not', () => {
  it('relies on a fresh full read of its own match field', () => {
    expect(recordVerdict(run, record({ at: AT, matchBy: 'sku' }), AT + DAY)).toEqual({
      rely: true,
      line: "no product read: relied on this tool's record (full read 2026-11-20 02:00 UTC, by sku; read again after --full-read-after 7d)",
    });
  });

  it('reads the products when the record is of another match field', () => {
    expect(recordVerdict({ ...run, matchBy: 'name' }, record({ at: AT, matchBy: 'sku' }), AT)).toEqual({
      rely: false,
      line: 'products read: the last full read matched by sku, this run by name',
    });
  });

  it('reads them when a run by another field wrote since, or the record says no field, or none is kept', () => {
    const line = (stored: string | null) => recordVerdict(run, stored, AT).line;
    expect(line(record({ at: AT, voidedBy: 'name' }))).toBe(
      'products read: a run matching by name wrote since the last full read (2026-11-20 02:00 UTC)',
    );
    expect(line(record({ at: AT, lacking: true }))).toBe(
      "products read: a run without --incremental (2026-11-20 02:00 UTC) found products this tool's record lacks",
    );
    expect(line(String(AT))).toBe(
      'products read: the record of the last full read does not say its match field (an earlier version made it)',
    );
    expect(line(null)).toBe('products read: no earlier --incremental run read them and ended');
    expect(line('{"at":"x"}')).toBe('products read: no earlier --incremental run read them and ended');
  });

  it('reads them when the full read is older than --full-read-after, or field names are to be confirmed', () => {
    const fresh = record({ at: AT, matchBy: 'sku' });
    expect(recordVerdict(run, fresh, AT + 7 * DAY + 1).line).toBe(
      'products read: the last full read (2026-11-20 02:00 UTC) is older than --full-read-after 7d',
    );
    expect(recordVerdict(run, fresh, AT, true)).toEqual({
      rely: false,
      line: 'products read: field names the options give are looked for on them',
    });
  });

  it('says nothing for a run without --incremental', () => {
    expect(recordVerdict({ ...run, incremental: false }, null, AT)).toEqual({ rely: false, line: null });
  });

  it('writes --full-read-after as it is given', () => {
    expect([7 * DAY, 12 * 3_600_000, 30 * 60_000, 45_000, 1_500].map(durationText)).toEqual([
      '7d',
      '12h',
      '30m',
      '45s',
      '1500ms',
    ]);
  });
});
