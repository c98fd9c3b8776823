import { describe, expect, it } from 'vitest';
import { approveLine } from '../../../src/runs/approve-hint.js';
import { connectionWords, shellWord } from '../../../src/runs/connection-words.js';

const run = {
  id: '20261128T020000-abc123',
  baseUrl: 'https://api.example.com/api/v1',
  allowInsecure: false,
};

describe("a held run's approve line carries the run's connection options", () => {
  it('names the base URL, and the keys file the run read keys from', () => {
    expect(
      approveLine({ ...run, keysFile: '/etc/catalog-sync/keys.env' }, { held: 2, deactivateHeld: 0 }),
    ).toBe(
      '  approve   catalog-sync approve 20261128T020000-abc123 --base-url https://api.example.com/api/v1 ' +
        '--keys-file /etc/catalog-sync/keys.env   (sends the held writes; --rows 3,7 for some)',
    );
  });

  it('without a keys file: the base URL alone (the key variable is the run’s by default)', () => {
    expect(approveLine(run, { held: 0, deactivateHeld: 3 })).toBe(
      '  approve   catalog-sync approve 20261128T020000-abc123 --base-url https://api.example.com/api/v1   (sends the held deactivations)',
    );
  });

  it('--allow-insecure only where the base URL needs it: http:// to a host not loopback', () => {
    expect(connectionWords({ ...run, baseUrl: 'http://10.0.0.5/api/v1', allowInsecure: true })).toBe(
      '--base-url http://10.0.0.5/api/v1 --allow-insecure',
    );
    expect(connectionWords({ ...run, baseUrl: 'http://127.0.0.1:4010/api/v1', allowInsecure: true })).toBe(
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
    expect(approveLine({ ...run, revertedAt: 1 }, { held: 2, deactivateHeld: 0 })).toBeNull();
  });
});
