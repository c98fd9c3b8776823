import { describe, expect, it } from 'vitest';
import { decodeEntry, encodeEntry } from '../../../src/sync/index-entry.js';
import { indexedFieldsOf } from '../../../src/sync/indexed-fields.js';

describe('index entries', () => {
  it('keep the values alone: the id is the hash field they are stored under', () => {
    const stored = encodeEntry({ id: '42', values: { name: 'Mug', price: 12.5 } });
    expect(stored).toBe('{"name":"Mug","price":12.5}');
    expect(decodeEntry('42', stored)).toEqual({ id: '42', values: { name: 'Mug', price: 12.5 } });
  });

  it('read an entry written with its id (before the upgrade) as it was', () => {
    const stored = JSON.stringify({ id: '42', values: { name: 'Mug' } });
    expect(decodeEntry('42', stored)).toEqual({ id: '42', values: { name: 'Mug' } });
  });

  it('read values that name fields id and values as values', () => {
    const stored = encodeEntry({ id: '42', values: { id: '42', values: 'x' } });
    expect(decodeEntry('42', stored)).toEqual({ id: '42', values: { id: '42', values: 'x' } });
  });
});

describe('indexedFieldsOf', () => {
  const run = { fields: null, matchBy: 'sku', sentFields: ['sku', 'name', 'price'], missing: null };

  it('leaves out the timestamps an API stamps when the source sends no field of that name', () => {
    expect(indexedFieldsOf(run)).toEqual({ only: null, leaveOut: new Set(['created_at', 'updated_at']) });
  });

  it('keeps a timestamp the source sends or --missing sets', () => {
    const sent = indexedFieldsOf({ ...run, sentFields: [...run.sentFields, 'updated_at'] });
    expect(sent.leaveOut).toEqual(new Set(['created_at']));
    const missing = indexedFieldsOf({ ...run, missing: { created_at: 'never' } });
    expect(missing.leaveOut).toEqual(new Set(['updated_at']));
  });

  it('keeps every field of a run whose record does not say what its source sends', () => {
    expect(indexedFieldsOf({ ...run, sentFields: undefined }).leaveOut.size).toBe(0);
  });

  it('keeps only the --fields and the match key when --fields is given', () => {
    expect(indexedFieldsOf({ ...run, fields: ['quantity'] }).only).toEqual(new Set(['quantity', 'sku']));
  });

  it('keeps currency too where --fields sends a price without it: a row naming its currency is checked against it', () => {
    expect(indexedFieldsOf({ ...run, fields: ['price'] }).only).toEqual(
      new Set(['price', 'sku', 'currency']),
    );
    expect(indexedFieldsOf({ ...run, fields: ['sale_price'] }).only).toEqual(
      new Set(['sale_price', 'sku', 'currency']),
    );
  });
});
