import { describe, expect, it } from 'vitest';
import { displaySource } from '../../../src/cli/source-identity.js';
import { sellerQueueName, sellerRef } from '../../../src/sellers/seller-ref.js';

describe('displaySource', () => {
  it.each<[source: string, shown: string]>([
    ['-', '(standard input)'],
    ['catalog.csv', 'catalog.csv'],
    ['/srv/exports/catalog.csv', '/srv/exports/catalog.csv'],
    ['exports/a?b.csv', 'exports/a?b.csv'],
    ['https://shop.example.com/feed.xml', 'https://shop.example.com/feed.xml'],
    ['https://shop.example.com/feed.xml?token=s3cret&format=xml', 'https://shop.example.com/feed.xml'],
    ['https://alice:s3cret@shop.example.com/feed.xml', 'https://shop.example.com/feed.xml'],
    [
      'http://alice:s3cret@127.0.0.1:8080/export/feed.csv?key=s3cret#top',
      'http://127.0.0.1:8080/export/feed.csv',
    ],
    ['HTTPS://Shop.Example.com/Feed.xml', 'https://shop.example.com/Feed.xml'],
  ])('shows %s as %s', (source, shown) => {
    expect(displaySource(source)).toBe(shown);
  });

  it('never shows a credential or a query token of a feed URL', () => {
    const shown = displaySource('https://user:pa55word@feeds.example.com/a.csv?token=tok3n');
    expect(shown).not.toMatch(/user|pa55word|tok3n/);
  });
});

describe('sellerRef', () => {
  const base = 'https://api.example.com/api/v1';

  it('is the same for the same key and base URL', () => {
    expect(sellerRef(base, 'sk_live_A')).toBe(sellerRef(base, 'sk_live_A'));
  });

  it.each(['https://api.example.com/api/v1/', 'https://api.example.com/api/v1//'])(
    'does not depend on a trailing slash (%s)',
    (withSlash) => {
      expect(sellerRef(withSlash, 'sk_live_A')).toBe(sellerRef(base, 'sk_live_A'));
    },
  );

  it('differs for different keys on the same API', () => {
    expect(sellerRef(base, 'sk_live_A')).not.toBe(sellerRef(base, 'sk_live_B'));
  });

  it('differs for the same key on another API', () => {
    expect(sellerRef('https://sandbox.example.com/api/v1', 'sk_live_A')).not.toBe(
      sellerRef(base, 'sk_live_A'),
    );
  });

  it('is a short hex fingerprint that holds no part of the key', () => {
    const key = 'sk_live_0123456789abcdef0123456789abcdef';
    const ref = sellerRef(base, key);
    expect(ref).toMatch(/^[0-9a-f]{16}$/);
    expect(key).not.toContain(ref);
    for (let i = 0; i + 6 <= key.length; i++) expect(ref).not.toContain(key.slice(i, i + 6));
  });

  it('names the seller queue after the ref, not the key', () => {
    const ref = sellerRef(base, 'sk_live_A');
    expect(sellerQueueName(ref)).toBe(`sync-${ref}`);
    expect(sellerQueueName(ref)).not.toContain('sk_live_A');
  });
});
