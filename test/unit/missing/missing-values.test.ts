import { describe, expect, it } from 'vitest';
import {
  alreadySo,
  fieldsToRestore,
  formerValues,
  missingValuesOfMap,
  notGivenBackNote,
  parseMissingValues,
} from '../../../src/missing/missing-values.js';
import { stillOffNotes } from '../../../src/missing/still-off.js';
import {
  deactivationVerdict,
  keylessText,
  partialRead,
  wouldHoldText,
} from '../../../src/missing/verdict.js';
import { UsageError } from '../../../src/usage-error.js';

describe('--missing field=value lists', () => {
  it('types each value as the generic preset reads its column', () => {
    expect(parseMissingValues('stock=0')).toEqual({ stock: '0' });
    expect(parseMissingValues('quantity=0, price=999.00,status=inactive,active=no')).toEqual({
      quantity: 0,
      price: 999,
      status: 'inactive',
      active: false,
    });
    for (const status of ['inactive', 'draft', 'private', 'archived', 'hidden'])
      expect(parseMissingValues(`status=${status}`)).toEqual({ status });
  });

  const OFF_SALE = 'one of inactive, draft, private, archived, hidden';
  it.each([
    [
      'price=0',
      '--missing: price=0 would put a product gone from the source on sale for nothing (a price is sent as 0 only where the source gives 0): take it off sale with quantity=0 or status=inactive',
    ],
    ['price=0.00', 'price=0.00 would put a product gone from the source on sale for nothing'],
    // Sent as money is, to cents: 0.
    ['price=0.004', 'price=0.004 would put a product gone from the source on sale for nothing'],
    ['quantity=0,sale_price=0', 'sale_price=0 would put a product gone from the source on sale for nothing'],
    [
      'quantity=-1',
      '--missing: quantity=-1 is below 0: the API takes a quantity of 0 or more; take the product off sale with quantity=0',
    ],
    [
      'status=bogus',
      `--missing: status=bogus is not a status that takes a product off sale: give ${OFF_SALE}`,
    ],
    ['status=active', `status=active is not a status that takes a product off sale: give ${OFF_SALE}`],
    ['status=Inactive', `status=Inactive is not a status that takes a product off sale: give ${OFF_SALE}`],
    ['active=yes', '--missing: active=yes would put a product gone from the source on sale: give active=no'],
    [
      'sku=GONE',
      "--missing: sku is a product's key, which runs find it by: never a --missing field (a product given another key is lost to the source's row, and comes back as a second product)",
    ],
    ['quantity=0,id=5', "--missing: id is the product's number on the marketplace, not a field a PUT sets"],
  ])('%j refuses the run before anything is read or sent: %s', (text, message) => {
    expect(() => parseMissingValues(text)).toThrow(UsageError);
    expect(() => parseMissingValues(text)).toThrow(message);
  });

  it('a job file map is held to the same rules, named as written', () => {
    expect(() => missingValuesOfMap({ price: 0 }, 'missing')).toThrow(
      'missing: price=0 would put a product gone from the source on sale for nothing',
    );
    expect(() => missingValuesOfMap({ sku: 'GONE' }, 'missing')).toThrow("missing: sku is a product's key");
  });

  it.each([
    ['stock', 'field=value pairs such as quantity=0, not "stock"'],
    ['=1', 'field=value pairs such as quantity=0, not "=1"'],
    ['stock=0,', 'not ""'],
    ['stock=0,stock=1', 'names stock twice'],
    ['quantity=lots', 'invalid quantity "lots"'],
    ['price=-1', 'negative'],
    ['my field=1', 'not a field named "my field"'],
  ])('%j is the user’s mistake: %s', (text, message) => {
    expect(() => parseMissingValues(text)).toThrow(UsageError);
    expect(() => parseMissingValues(text)).toThrow(message);
  });

  it('reads a job file map like the command line', () => {
    expect(missingValuesOfMap({ stock: 0, status: 'inactive' })).toEqual(
      parseMissingValues('stock=0,status=inactive'),
    );
    expect(() => missingValuesOfMap({})).toThrow(UsageError);
    expect(() => missingValuesOfMap({ quantity: 'x' })).toThrow('invalid quantity "x"');
  });
});

describe('what a deactivation writes and gives back', () => {
  it('is already so when every value shows, compared as the diff compares', () => {
    expect(alreadySo({ stock: '0', price: 5 }, { stock: '0' })).toBe(true);
    expect(alreadySo({ quantity: '0.0' }, { quantity: 0 })).toBe(true);
    expect(alreadySo({ stock: '3' }, { stock: '0' })).toBe(false);
    expect(alreadySo({}, { stock: '0' })).toBe(false);
    expect(alreadySo({ stock: '0' }, { stock: '0', status: 'inactive' })).toBe(false);
  });

  it('records what the fields showed before, null for a field not shown', () => {
    expect(formerValues({ stock: '7', name: 'A' }, { stock: '0', status: 'inactive' })).toEqual({
      stock: '7',
      status: null,
    });
  });

  it('gives back only what the source does not give, and nothing it cannot send', () => {
    const former = { stock: '7', status: 'active', note: null, description: '#sha1:abc' };
    expect(fieldsToRestore({ sku: 'A', stock: '9' }, former)).toEqual({
      restore: { status: 'active' },
      // No value before, or one too long to keep: the source must give them (the row's note says so).
      unrestored: ['note', 'description'],
    });
  });
});

describe('the run-level decisions', () => {
  const run = { aborted: false, only: null, state: 'running' as const };

  it('never deactivates after a partial read', () => {
    expect(partialRead(run, false)).toBeNull();
    expect(partialRead({ ...run, aborted: true }, false)).toMatch(/not read to the end/);
    expect(partialRead({ ...run, only: 'update' }, false)).toMatch(/--only update/);
    expect(partialRead({ ...run, state: 'cancelled' }, false)).toMatch(/cancelled/);
    // Finalised while `cancel` ends it: still `running`, its cancel asked for.
    expect(partialRead({ ...run, cancelledAt: 1 }, false)).toBe('the run was cancelled');
    expect(partialRead(run, true)).toMatch(/could not be read/);
    expect(partialRead(run, false, true)).toBe(
      'no product list read (--incremental relied on its record): the next full read applies it (a run without --incremental, or once the record is older than --full-read-after)',
    );
  });

  it('plans in a dry run, holds with the run or past --max-missing (default 20% of the managed), else sends', () => {
    const spec = { dryRun: false, maxMissing: null, matchBy: 'sku' };
    expect(
      deactivationVerdict({ ...spec, dryRun: true }, { due: 90, managed: 100, runHeldFor: null }),
    ).toEqual({
      kind: 'planned',
    });
    expect(deactivationVerdict(spec, { due: 20, managed: 100, runHeldFor: null })).toEqual({ kind: 'send' });
    expect(deactivationVerdict(spec, { due: 21, managed: 100, runHeldFor: null })).toEqual({
      kind: 'held',
      own: true,
      reason:
        '21 of 100 managed products would be deactivated (21%), more than --max-missing 20%: no deactivation was sent',
    });
    expect(
      deactivationVerdict({ ...spec, maxMissing: '50' }, { due: 50, managed: 60, runHeldFor: null }).kind,
    ).toBe('send');
    expect(deactivationVerdict(spec, { due: 1, managed: 100, runHeldFor: 'price moves' })).toEqual({
      kind: 'held',
      own: false,
      reason: 'held with the run: price moves',
    });
    // Held whole by --max-missing itself (guards/decide.ts): the lines say the run's figures line.
    const whole =
      '21 of 100 managed products would be deactivated (21%), more than --max-missing 20%: nothing was sent';
    expect(deactivationVerdict(spec, { due: 21, managed: 100, runHeldFor: whole })).toEqual({
      kind: 'held',
      own: false,
      reason: whole,
    });
  });

  it('rows with no key: names the first three, counts the rest; holds the deactivations due', () => {
    const run = (count: number, rows: number[]) => ({ matchBy: 'sku', keyless: { count, rows } });
    expect(keylessText(run(1, [53]), 2)).toBe(
      'row 53 has no sku: the product it stands for may be among the 2 missing',
    );
    expect(keylessText(run(2, [3, 9]), 1)).toBe(
      'rows 3 and 9 have no sku: the products they stand for may be among the 1 missing',
    );
    expect(keylessText(run(8, [3, 9, 12]), 4)).toBe(
      'rows 3, 9, 12 and 5 more have no sku: the products they stand for may be among the 4 missing',
    );
    // A row that keeps a key it cannot trust has one: what is said is true of it.
    const untrusted = (count: number, rows: number[], keys: Record<number, string>) => ({
      matchBy: 'sku',
      keyless: { count, rows, untrusted: Object.keys(keys).length, keys },
    });
    expect(keylessText(untrusted(1, [53], { 53: '1.23457E+08' }), 1)).toBe(
      "row 53's sku 1.23457E+08 is not a key the tool can trust: the product it stands for may be among the 1 missing",
    );
    expect(keylessText(untrusted(5, [3, 9, 12], { 9: '1.23457E+08' }), 2)).toBe(
      'rows 3, 9 (sku 1.23457E+08), 12 and 2 more have no sku the tool can trust: the products they stand for may be among the 2 missing',
    );
    expect(keylessText(run(1, [53]), 0)).toBeNull();
    expect(keylessText({ matchBy: 'sku' }, 3)).toBeNull();

    const spec = { dryRun: false, maxMissing: null, ...run(1, [53]) };
    const keyless = 'row 53 has no sku: the product it stands for may be among the 1 missing';
    expect(deactivationVerdict(spec, { due: 1, managed: 100, runHeldFor: null })).toEqual({
      kind: 'held',
      own: true,
      reason: `${keyless}: no deactivation was sent`,
    });
    // Held whole for it (guards/decide.ts): the lines say the run's reason as it is.
    const whole = `${keyless}: nothing was sent`;
    expect(deactivationVerdict(spec, { due: 1, managed: 100, runHeldFor: whole })).toEqual({
      kind: 'held',
      own: false,
      reason: whole,
    });
    expect(wouldHoldText(spec, { due: 1, managed: 100 })).toBe(keyless);
    expect(wouldHoldText(spec, { due: 30, managed: 100 })).toBe(
      '30 of 100 managed products would be deactivated (30%), more than --max-missing 20% (default); row 53 has no sku: the product it stands for may be among the 30 missing',
    );
  });
});

describe('what cannot be given back is said', () => {
  const product = {
    id: '7',
    former: { quantity: null, status: 'active' },
    at: '2026-11-27',
    set: { quantity: 0, status: 'inactive' },
  };

  it('on the deactivate line: the fields with no value before, or one too long to keep', () => {
    expect(notGivenBackNote(product)).toEqual([
      'quantity had no value before: cannot be given back automatically if the product returns (give it in the source then)',
    ]);
    expect(notGivenBackNote({ former: { quantity: 3 } })).toEqual([]);
    expect(notGivenBackNote({ former: { quantity: null, description: '#sha1:abc' } })).toEqual([
      'quantity had no value before; description had a value too long to keep: cannot be given back automatically if the product returns (give it in the source then)',
    ]);
  });

  it('on the returning row, while the product still shows what --missing set (or shows nothing known)', () => {
    const note =
      'quantity stays 0 (set by --missing on 2026-11-27; it had no value before): give it a value in the source';
    expect(stillOffNotes(product, ['quantity'], { quantity: 0 })).toEqual({
      fields: ['quantity'],
      notes: [note],
    });
    expect(stillOffNotes(product, ['quantity'], {}).notes).toEqual([note]);
    // Set by hand since: not off any more.
    expect(stillOffNotes(product, ['quantity'], { quantity: 5 })).toEqual({ fields: [], notes: [] });
    // A record from before the day and the values were kept.
    expect(
      stillOffNotes({ id: '7', former: { quantity: null } }, ['quantity'], { quantity: 0 }).notes,
    ).toEqual([
      'quantity stays as --missing set it (set by --missing; it had no value before): give it a value in the source',
    ]);
  });
});
