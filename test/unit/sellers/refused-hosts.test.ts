import { describe, expect, it } from 'vitest';
import { keysOnRefusedHosts, refusedHostLine } from '../../../src/sellers/refused-hosts.js';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import type { SellerInfo } from '../../../src/sellers/seller-registry.js';
import { readTrustRules } from '../../../src/trust-config.js';

const registry = { resolveRefs: async (fingerprints: readonly string[]) => [...fingerprints] };

function seller(baseUrl: string, key: string): SellerInfo {
  const ref = sellerRef(baseUrl, key);
  return { ref, baseUrl, queueName: `sync-${ref}` };
}

describe('the sellers a worker holds keys for but may not serve (their API host not allowed)', () => {
  const allowed = seller('https://api.shop-a.example.test/v1', 'sk_a');
  const refused = seller('https://api.shop-b.example.test:8443/v1', 'sk_b');
  const notHeld = seller('https://api.shop-b.example.test:8443/v1', 'sk_c');
  const trust = readTrustRules({ SELLER_API_BASE_URL: 'https://api.shop-a.example.test/v1' });

  it('finds, by host, only those whose key it holds on a host not allowed', async () => {
    const found = await keysOnRefusedHosts(registry, [allowed, refused, notHeld], ['sk_a', 'sk_b'], trust);

    expect(found).toEqual([{ host: 'api.shop-b.example.test:8443', sellers: [refused] }]);
    expect(await keysOnRefusedHosts(registry, [allowed, refused], [], trust)).toEqual([]);
  });

  it('names a few sellers, counts the rest, and never shows a key', () => {
    const many = Array.from({ length: 7 }, (_, i) =>
      seller('https://api.shop-b.example.test:8443/v1', `k${i}`),
    );
    const line = refusedHostLine({ host: 'api.shop-b.example.test:8443', sellers: many });

    expect(line).toContain(`sellers ${many[0]?.ref}, `);
    expect(line).toContain(
      ' and 2 more but does not serve them: their API host api.shop-b.example.test:8443',
    );
    expect(line).toContain('add api.shop-b.example.test:8443 to CATALOG_SYNC_API_HOSTS');
    expect(line).not.toContain('k0');
    expect(
      refusedHostLine({ host: 'h.example.test:443', sellers: [{ ...refused, name: 'shop-b' }] }),
    ).toMatch(
      /^this worker holds the key of seller shop-b \([0-9a-f]{16}\) but does not serve it: its API host/,
    );
  });
});
