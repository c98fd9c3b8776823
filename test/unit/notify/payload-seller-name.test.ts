import { describe, expect, it } from 'vitest';
import { notifyBody } from '../../../src/notify/payload.js';
import { runRecord } from '../../support/run-record.js';

describe("the notify payload's seller", () => {
  const run = runRecord({ id: '20261122T210000-abcdef', sellerRef: 'abcdef0123456789', state: 'running' });

  it('names a named seller (sellerName) and tells to resume it by name', () => {
    const body = notifyBody('key-rejected', { ...run, sellerName: 'acme' });
    expect(body).toMatchObject({ sellerRef: 'abcdef0123456789', sellerName: 'acme' });
    expect(body.text).toContain('catalog-sync resume --seller acme (seller acme)');
    expect(body.text).toMatch(/\(seller acme\)$/);
  });

  it('has no sellerName for an unnamed seller, whose ref is used as before', () => {
    const body = notifyBody('key-rejected', run);
    expect(body).not.toHaveProperty('sellerName');
    expect(body.text).toMatch(/resume --seller abcdef0123456789 \(seller abcdef0123456789\)$/);
  });
});
