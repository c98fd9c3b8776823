import { describe, expect, it } from 'vitest';
import { resumeCommand } from '../../../src/runs/connection-words.js';
import type { AllowedHost } from '../../../src/trust-rules.js';

const seller = {
  sellerRef: '01b651898b9a12a4',
  baseUrl: 'https://api.example.com/api/v1',
  keysFile: '/etc/catalog-sync/keys.env',
};
const allowed: AllowedHost[] = [{ hostname: 'api.example.com', port: null, from: 'SELLER_API_BASE_URL' }];

describe("a paused seller's resume line carries the connection options, as approve's does", () => {
  it("the process's own options, in full", () => {
    const own = { baseUrl: seller.baseUrl, allowInsecure: false, keysFile: seller.keysFile };
    expect(resumeCommand(seller, 'SELLER_API_KEY', { own })).toBe(
      '`catalog-sync resume --seller 01b651898b9a12a4 --key-env SELLER_API_KEY ' +
        '--base-url https://api.example.com/api/v1 --keys-file /etc/catalog-sync/keys.env`',
    );
  });

  it('a record read from Redis: its values only on a host this environment allows, else placeholders', () => {
    const named = { ...seller, sellerName: 'acme' };
    expect(resumeCommand(named, 'K', { allowedHosts: allowed })).toBe(
      '`catalog-sync resume --seller acme --key-env K --base-url https://api.example.com/api/v1 --keys-file /etc/catalog-sync/keys.env`',
    );
    const forged = { ...seller, baseUrl: 'https://evil.example/api/v1', keysFile: '/tmp/x y' };
    expect(resumeCommand(forged, 'K', { allowedHosts: allowed })).toBe(
      '`catalog-sync resume --seller 01b651898b9a12a4 --key-env K --base-url <API URL> --keys-file <keys file>` ' +
        '(with the values of the command that made the run)',
    );
  });

  it("a worker's keys file, which the record does not name: FILE", () => {
    expect(resumeCommand(seller, 'K', { allowedHosts: allowed }, 'FILE')).toBe(
      '`catalog-sync resume --seller 01b651898b9a12a4 --key-env K --base-url https://api.example.com/api/v1 --keys-file FILE`',
    );
  });
});
