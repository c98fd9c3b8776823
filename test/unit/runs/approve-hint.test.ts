import { describe, expect, it } from 'vitest';
import { approveLine } from '../../../src/runs/approve-hint.js';
import { connectionWords, type HintConnection, shellWord } from '../../../src/runs/connection-words.js';
import type { AllowedHost } from '../../../src/trust-rules.js';

const run = {
  id: '20261128T020000-abc123',
  baseUrl: 'https://api.example.com/api/v1',
  allowInsecure: false,
};
const held = { held: 2, deactivateHeld: 0 };
/** The process that made the run prints its own options. */
const own = (keysFile?: string): HintConnection => ({
  own: { baseUrl: run.baseUrl, allowInsecure: false, ...(keysFile ? { keysFile } : {}) },
});
const host = (hostname: string, port: string | null = null): AllowedHost => ({
  hostname,
  port,
  from: 'SELLER_API_BASE_URL',
});

describe("a held run's approve line carries the run's connection options", () => {
  it("the run's own summary: its base URL, and the keys file it read keys from", () => {
    expect(approveLine(run, held, own('/etc/catalog-sync/keys.env'))).toBe(
      '  approve   catalog-sync approve 20261128T020000-abc123 --base-url https://api.example.com/api/v1 ' +
        '--keys-file /etc/catalog-sync/keys.env   (sends the held writes; --rows 3,7 for some)',
    );
  });

  it('without a keys file: the base URL alone (the key variable is the run’s by default)', () => {
    expect(approveLine(run, { held: 0, deactivateHeld: 3 }, own())).toBe(
      '  approve   catalog-sync approve 20261128T020000-abc123 --base-url https://api.example.com/api/v1   (sends the held deactivations)',
    );
  });

  it("the process's own options come from it, not from the record (read back from Redis)", () => {
    const rewritten = { ...run, baseUrl: 'http://evil.example/api/v1', keysFile: '/etc/other/keys.env' };
    expect(approveLine(rewritten, held, own('/etc/catalog-sync/keys.env'))).toContain(
      'approve 20261128T020000-abc123 --base-url https://api.example.com/api/v1 --keys-file /etc/catalog-sync/keys.env   (',
    );
  });

  it('--allow-insecure only where the base URL needs it: http:// to a host not loopback', () => {
    expect(connectionWords({ baseUrl: 'http://api.example.test/api/v1', allowInsecure: true })).toBe(
      '--base-url http://api.example.test/api/v1 --allow-insecure',
    );
    expect(connectionWords({ baseUrl: 'http://127.0.0.1:4010/api/v1', allowInsecure: true })).toBe(
      '--base-url http://127.0.0.1:4010/api/v1',
    );
    expect(connectionWords({ ...run, allowInsecure: true })).toBe(
      '--base-url https://api.example.com/api/v1',
    );
  });

  it('quotes a word the shell would split or read: it runs as printed', () => {
    expect(shellWord('/srv/night keys/keys.env')).toBe("'/srv/night keys/keys.env'");
    expect(shellWord("/srv/o'brien/keys.env")).toBe("'/srv/o'\\''brien/keys.env'");
    expect(shellWord('/srv/$(rm -rf ~)/keys.env')).toBe("'/srv/$(rm -rf ~)/keys.env'");
    expect(shellWord('/etc/catalog-sync/keys.env')).toBe('/etc/catalog-sync/keys.env');
  });

  it('no line for a reverted run', () => {
    expect(approveLine({ ...run, revertedAt: 1 }, held, own())).toBeNull();
  });
});

describe('the approve line of a run read from Redis (status, approve, cancel)', () => {
  const record = { ...run, keysFile: '/etc/catalog-sync/keys.env' };

  it("on a host this environment allows: the record's base URL and keys file, no new trust", () => {
    expect(approveLine(record, held, { allowedHosts: [host('api.example.com')] })).toBe(
      '  approve   catalog-sync approve 20261128T020000-abc123 --base-url https://api.example.com/api/v1 ' +
        '--keys-file /etc/catalog-sync/keys.env   (sends the held writes; --rows 3,7 for some)',
    );
  });

  it('on a host not allowed here: placeholders, never the URL or the path as a command', () => {
    const forged = { ...record, baseUrl: 'https://evil.example/api/v1', keysFile: '/etc/other/keys.env' };
    const line = approveLine(forged, held, { allowedHosts: [host('api.example.com')] });
    expect(line).toBe(
      '  approve   catalog-sync approve 20261128T020000-abc123 --base-url <API URL> --keys-file <keys file>   ' +
        '(sends the held writes; --rows 3,7 for some; with the values of the command that made the run: ' +
        'its record in Redis is not vouched for here)',
    );
    expect(line).not.toContain('evil.example');
    expect(line).not.toContain('/etc/other');
  });

  it('never --allow-insecure: an http:// URL not on loopback is said in words, even on an allowed host', () => {
    const plain = { ...record, baseUrl: 'http://api.example.test/api/v1', allowInsecure: true };
    const line = approveLine(plain, held, { allowedHosts: [host('api.example.test')] });
    expect(line).toContain('--base-url <API URL> --keys-file <keys file>');
    expect(line).not.toContain('--allow-insecure');
    expect(line).not.toContain('api.example.test');
  });

  it('no keys file in the record: no --keys-file placeholder', () => {
    expect(approveLine(run, held, { allowedHosts: [] })).toContain(
      'approve 20261128T020000-abc123 --base-url <API URL>   (',
    );
  });
});
