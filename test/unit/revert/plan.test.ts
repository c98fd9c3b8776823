import { describe, expect, it } from 'vitest';
import { planProductRevert, restoredMemory } from '../../../src/revert/plan.js';
import { type CompactValue, compactValue } from '../../../src/sync/compact-value.js';
import { echoDigest, memoryAfterWrite, UNKNOWN_ECHO } from '../../../src/sync/diff.js';
import {
  decodeReplaced,
  encodeReplaced,
  type ReplacedValues,
  replacedValues,
} from '../../../src/sync/replaced-values.js';

/** What a PUT of `sent` over `before` leaves, the API showing `shown` after it (null: no body). */
function recordOf(
  before: Record<string, unknown>,
  sent: Record<string, string | number>,
  shown: Record<string, unknown> | null = sent,
): ReplacedValues {
  const values = compact(before);
  const memory = memoryAfterWrite(undefined, sent, shown && compact(shown));
  return replacedValues('SKU-1', sent, { id: '7', values }, undefined, memory);
}

function compact(fields: Record<string, unknown>): Record<string, CompactValue> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, compactValue(v) as CompactValue]));
}

describe('planProductRevert: what to put back on one product', () => {
  it('puts back each field that still shows what the run sent, with its value from before', () => {
    const record = recordOf({ name: 'Lamp', price: 20 }, { name: 'Lamp, brass', price: 22.5 });

    const plan = planProductRevert('7', record, { id: 7, name: 'Lamp, brass', price: '22.50' });

    expect(plan).toEqual({
      id: '7',
      key: 'SKU-1',
      put: { name: 'Lamp', price: 20 },
      alreadyBack: [],
      kept: [],
      gone: false,
    });
  });

  it('leaves alone a field changed since the run, and says so', () => {
    const record = recordOf({ name: 'Lamp', price: 20 }, { name: 'Lamp, brass', price: 22.5 });

    const plan = planProductRevert('7', record, { name: 'Edited by hand', price: 22.5 });

    expect(plan.put).toEqual({ price: 20 });
    expect(plan.kept).toEqual([{ field: 'name', reason: 'name changed since the run: kept' }]);
  });

  it('counts the API’s own form of what was sent as the run’s write (its echo)', () => {
    const record = recordOf(
      { name: 'Scarf', price: 12.35 },
      { name: '  Red  scarf ', price: 13.9951 },
      {
        name: 'Red scarf',
        price: 14,
      },
    );

    expect(planProductRevert('7', record, { name: 'Red scarf', price: 14 }).put).toEqual({
      name: 'Scarf',
      price: 12.35,
    });
  });

  it('with no echo known (a PUT answered without a body), only the value sent counts', () => {
    const record = recordOf({ name: 'Scarf' }, { name: '  Red scarf' }, null);
    expect(record.fields.name?.echo).toBe(UNKNOWN_ECHO);

    expect(planProductRevert('7', record, { name: 'Red scarf' }).kept).toEqual([
      { field: 'name', reason: 'name changed since the run: kept' },
    ]);
  });

  it('has nothing to put back once the fields show their old values (a second revert)', () => {
    const record = recordOf({ name: 'Lamp', price: 20 }, { name: 'Lamp, brass', price: 22.5 });

    const plan = planProductRevert('7', record, { name: 'Lamp', price: '20.00' });

    expect(plan).toMatchObject({ put: {}, alreadyBack: ['name', 'price'], kept: [] });
  });

  it('says why it cannot put back: no value before, a value too long to keep, a list, a field not shown', () => {
    const long = 'x'.repeat(65);
    const record = recordOf(
      { description: long, tags: ['a', 'b'] },
      { description: 'short', tags: 'c', color: 'red', sku: 'S' },
      { description: 'short', tags: ['c'], color: 'red' },
    );

    const plan = planProductRevert('7', record, { description: 'short', tags: ['c'], color: 'red' });

    expect(plan.put).toEqual({});
    expect(plan.kept.map((k) => k.reason)).toEqual([
      'description was longer than 64 characters before the run (not recorded): kept',
      'tags is a list or an object: kept',
      'color had no value before the run (the API cannot clear a field): kept',
      'sku is not shown by the API: kept',
    ]);
  });

  it('an --incremental run that did not read the product: its value before is unknown', () => {
    const record = recordOf({}, { price: 22 });
    expect(decodeReplaced(encodeReplaced(record))).toEqual(record);

    expect(planProductRevert('7', record, { price: 22 }).kept).toEqual([
      {
        field: 'price',
        reason: 'price had its old value unread (an --incremental run reads no product): kept',
      },
    ]);
  });

  it('an --incremental run that did not read the product: puts back what this tool had last sent it', () => {
    const earlier = memoryAfterWrite(undefined, { price: 20, name: 'A product, described at length' }, null);
    const sent = { price: 22, name: 'Another long product name' };
    const after = memoryAfterWrite(earlier, sent, null);
    const record = replacedValues('SKU-1', sent, { id: '7', values: {}, unread: true }, earlier, after);

    const plan = planProductRevert('7', record, { price: 22, name: 'Another long product name' });

    expect(plan).toMatchObject({ put: { price: 20 }, fromRecord: true });
    // A long value the record keeps only as a fingerprint cannot be put back.
    expect(plan.kept).toEqual([
      {
        field: 'name',
        reason: 'name had its old value unread (an --incremental run reads no product): kept',
      },
    ]);
    expect(planProductRevert('7', record, { price: 20, name: 'Edited' })).toMatchObject({
      put: {},
      alreadyBack: ['price'],
    });
  });

  it('a product gone since the run: nothing to put back', () => {
    const record = recordOf({ price: 20 }, { price: 22 });
    expect(planProductRevert('7', record, null)).toMatchObject({ gone: true, put: {} });
  });
});

describe('restoredMemory: the id map as it was before the run, for the fields put back', () => {
  const record = (): ReplacedValues => ({
    key: 'SKU-1',
    fields: {
      price: {
        before: 12.35,
        sent: 13.9951,
        echo: echoDigest(14),
        memorySent: 12.3456,
        memoryEcho: echoDigest(12.35),
      },
      name: { before: 'Scarf', sent: 'Red scarf' },
    },
  });

  it('gives back what was sent before the run and its echo; a field the run first wrote is forgotten', () => {
    const known = {
      id: '7',
      sent: { price: 13.9951, name: 'Red scarf', sku: 'SKU-1' },
      echo: { price: echoDigest(14) },
    };

    expect(restoredMemory(known, record(), ['price', 'name'])).toEqual({
      id: '7',
      sent: { price: 12.3456, sku: 'SKU-1' },
      echo: { price: echoDigest(12.35) },
    });
  });

  it('leaves a field that another write changed since, and returns null when nothing changes', () => {
    const known = { id: '7', sent: { price: 15, name: 'Other' } };
    expect(restoredMemory(known, record(), ['price', 'name'])).toBeNull();
    expect(restoredMemory(undefined, record(), ['price'])).toBeNull();
  });
});

describe('the stored record', () => {
  it('reads back what was written, and refuses what is not a record', () => {
    const record: ReplacedValues = {
      key: 'K',
      fields: {
        price: { before: null, sent: 3 },
        name: { before: 'a', sent: 'b', echo: 'e', memorySent: 'm' },
      },
    };
    expect(decodeReplaced(encodeReplaced(record))).toEqual(record);
    expect(decodeReplaced('{"k":1}')).toBeNull();
    expect(decodeReplaced('not json')).toBeNull();
  });
});
