import { describe, expect, it } from 'vitest';
import { shownFields } from '../../../src/catalog/shown-fields.js';

/**
 * The source's fields as a message lists them. A name that may not be quoted (a `NAME=secret` line
 * read as a header, a control character, a Markdown heading longer than any column's name) is
 * counted, never shown: the count says why, rather than "1 more not shown" naming nothing.
 */
describe('shownFields', () => {
  it('lists plain names', () => {
    expect(shownFields(['sku', 'price'])).toBe('sku, price');
    expect(shownFields([])).toBe('none');
  });

  it('a file that is no catalog (a Markdown heading for a header): says why its one name is not shown', () => {
    expect(shownFields(['# Decision: many sellers on a few connections (issue 13)'])).toBe(
      '1 not shown: longer than 40 characters',
    );
  });

  it('names kept back say why, beside the names shown', () => {
    expect(shownFields(['sku', 'price', 'x\u001b[2Jy'])).toBe(
      'sku, price; 1 not shown: holding a control character',
    );
    expect(shownFields(['SELLER_API_KEY_ACME=sk_live_1', 'A=b', 'x'.repeat(41)])).toBe(
      '3 not shown: 2 holding "=", 1 longer than 40 characters',
    );
  });

  it('writes an invisible character of a name as its escape (a header cell `\\u200bsku` is not sku)', () => {
    expect(shownFields(['\u200bsku', 'name'])).toBe('\\u200bsku, name');
  });

  it('past 20 names, the rest are counted', () => {
    const many = Array.from({ length: 23 }, (_, i) => `f${i + 1}`);
    expect(shownFields(many)).toBe(`${many.slice(0, 20).join(', ')}, 3 more`);
  });
});
