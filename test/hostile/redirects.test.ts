import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SourceError } from '../../src/sources/index.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../integration/support/redis-prefix.js';
import { loopbackFetch } from './network-guard.js';
import { body, loopbackNetwork, loopbackServer, readSource, redirect, runCliWithNetwork } from './support.js';

// Whatever the code under test does, nothing leaves loopback (see network-guard.ts).
vi.mock('node:dns/promises', async (original) => (await import('./network-guard.js')).guardedDns(original));
vi.mock('node:net', async (original) => (await import('./network-guard.js')).guardedNet(original));
vi.mock('node:tls', async (original) => (await import('./network-guard.js')).guardedTls(original));
vi.stubGlobal('fetch', loopbackFetch(globalThis.fetch));
// The Seller API client sends through node:http and node:https (not fetch): guarded there too.
vi.mock('node:http', async (original) => (await import('./network-guard.js')).guardedHttp(original));
vi.mock('node:https', async (original) => (await import('./network-guard.js')).guardedHttp(original));

/**
 * Issue 10, item 2: a feed URL's redirects were followed anywhere (link-local, private networks).
 * The made-up addresses below are played by a server on 127.0.0.1: the test connector maps them
 * there, and refuses any other address, so nothing ever leaves loopback.
 */
describe('a feed URL that leads somewhere it should not', () => {
  const PUBLIC = '203.0.113.10';
  const OTHER_PUBLIC = '203.0.113.11';
  const METADATA = '169.254.169.254';
  const INTRANET = '10.0.0.5';
  let server: Awaited<ReturnType<typeof loopbackServer>>;
  let port: number;
  const at = (host: string, path: string) => `http://${host}:${port}${path}`;
  const network = () =>
    loopbackNetwork(
      {
        'feed.example.test': PUBLIC,
        'other.example.test': OTHER_PUBLIC,
        'metadata.example.test': METADATA,
        'intranet.example.test': INTRANET,
        'local.example.test': '127.0.0.1',
        'v6-link-local.example.test': 'fe80::1',
        'unspecified.example.test': '0.0.0.0',
        'mapped.example.test': '::ffff:169.254.169.254',
        'private-v6.example.test': 'fd00::5',
      },
      { [PUBLIC]: port, [OTHER_PUBLIC]: port, [METADATA]: port, [INTRANET]: port, 'fd00::5': port },
    );

  beforeAll(async () => {
    server = await loopbackServer({
      '/feed.csv': body('sku,name\nA1,Mug\n'),
      '/latest/meta-data': body('sku,name,price\nSECRET,role-credentials,1\n'),
      '/to-metadata': (req, res) =>
        redirect(at('metadata.example.test', '/latest/meta-data?token=x'))(req, res),
      '/to-intranet': (req, res) => redirect(at('intranet.example.test', '/feed.csv'))(req, res),
      '/to-private-v6': (req, res) => redirect(`http://[fd00::5]:${port}/feed.csv`)(req, res),
      '/to-loopback-literal': (req, res) => redirect(at('127.0.0.1', '/feed.csv'), 307)(req, res),
      '/to-local-name': (req, res) => redirect(at('local.example.test', '/feed.csv'), 301)(req, res),
      '/to-v6-link-local': (req, res) => redirect(at('v6-link-local.example.test', '/feed.csv'))(req, res),
      '/to-mapped': (req, res) => redirect(at('mapped.example.test', '/feed.csv'))(req, res),
      '/to-file': redirect('file:///etc/passwd'),
      '/to-other-origin': (req, res) => redirect(at('other.example.test', '/echo-auth'))(req, res),
      '/echo-auth': (req, res) => body(`authorization\n${req.headers.authorization ?? 'none'}\n`)(req, res),
      ...Object.fromEntries(
        Array.from({ length: 7 }, (_, n) => [
          `/hop/${n}`,
          n === 0 ? body('sku\nEND\n') : redirect(`/hop/${n - 1}`, 308),
        ]),
      ),
    });
    port = server.port;
  });
  afterAll(() => server.close());

  it('refuses a redirect from a public address to the link-local metadata address, and says to where', async () => {
    const net = network();
    const result = await readSource(at('feed.example.test', '/to-metadata?key=k'), { network: net });

    expect(result).toMatchObject({ error: expect.any(SourceError) });
    const message = (result as { error: Error }).error.message;
    expect(message).toBe(
      `${at('feed.example.test', '/to-metadata')}: redirect refused to ${at('metadata.example.test', '/latest/meta-data')}: ` +
        `metadata.example.test (${METADATA}) is a cloud metadata address; --allow-private-source allows it`,
    );
    expect(message).not.toMatch(/token|key=k/);
    expect(net.attempts.map((target) => target.address)).toEqual([PUBLIC]);
  });

  it.each([
    ['a private IPv4 range', '/to-intranet', INTRANET, 'a private address, from a public one'],
    [
      'loopback, named by address',
      '/to-loopback-literal',
      '127.0.0.1',
      'a loopback address, from a public one',
    ],
    [
      'loopback, named by a host name',
      '/to-local-name',
      '127.0.0.1',
      'a loopback address, from a public one',
    ],
    [
      'an IPv6 unique-local range (fc00::/7)',
      '/to-private-v6',
      'fd00::5',
      'an IPv6 unique-local address (fc00::/7, internal networks)',
    ],
    ['an IPv6 link-local address', '/to-v6-link-local', 'fe80::1', 'a link-local address'],
    [
      'an IPv4-mapped IPv6 link-local address',
      '/to-mapped',
      '::ffff:169.254.169.254',
      'a cloud metadata address',
    ],
  ])('refuses a redirect from a public address into %s', async (_, path, address, kind) => {
    const net = network();
    const result = await readSource(at('feed.example.test', path), { network: net });

    const message = (result as { error?: Error }).error?.message ?? 'no error';
    expect(message).toContain(': redirect refused to ');
    expect(message).toContain(`${address}`);
    expect(message).toContain(`is ${kind}`);
    expect(net.attempts.map((target) => target.address)).toEqual([PUBLIC]);
  });

  it.each([
    ['link-local', 'metadata.example.test', METADATA],
    ['unspecified', 'unspecified.example.test', '0.0.0.0'],
  ])('refuses a URL whose host resolves to a %s address, without connecting', async (_, host, address) => {
    const net = network();
    const result = await readSource(at(host, '/feed.csv'), { network: net });

    expect((result as { error?: Error }).error?.message).toBe(
      `${at(host, '/feed.csv')}: refused: ${host} (${address}) is ${
        address === METADATA ? 'a cloud metadata address' : 'the unspecified address'
      }; --allow-private-source allows it`,
    );
    expect(net.attempts).toEqual([]);
  });

  it('refuses an address literal too: 0.0.0.0 and [::] reach this machine', async () => {
    const net = network();
    for (const url of [`http://0.0.0.0:${port}/feed.csv`, `http://[::]:${port}/feed.csv`]) {
      const result = await readSource(url, { network: net });
      expect((result as { error?: Error }).error?.message).toMatch(
        /: refused: .* is the unspecified address/,
      );
    }
    expect(net.attempts).toEqual([]);
    expect(net.lookups.size).toBe(0);
  });

  it('reads a loopback or private URL the operator names, and its redirects among them', async () => {
    const net = network();
    for (const url of [at('127.0.0.1', '/feed.csv'), at('intranet.example.test', '/feed.csv')]) {
      const result = await readSource(url, { network: net });
      expect(result).toMatchObject({ records: [{ values: { sku: 'A1', name: 'Mug' } }] });
    }
    // A redirect from loopback to loopback is no escape.
    const local = await readSource(at('local.example.test', '/to-local-name'), { network: net });
    expect(local).toMatchObject({ records: [{ values: { sku: 'A1' } }] });
  });

  it('with --allow-private-source, follows the redirect the operator allowed', async () => {
    const net = network();
    const result = await readSource(at('feed.example.test', '/to-metadata'), {
      network: net,
      allowPrivateSource: true,
    });

    expect(result).toMatchObject({ records: [{ values: { sku: 'SECRET' } }] });
    expect(net.attempts.map((target) => target.address)).toEqual([PUBLIC, METADATA]);
  });

  it('resolves each host once and connects to exactly the address it checked (no rebinding window)', async () => {
    // A resolver that answers a public address first and the metadata address after: the check and
    // the connection must both use the first answer, and there is no second question.
    let calls = 0;
    const net = network();
    const rebinding = {
      ...net,
      lookup: async (_hostname: string) => {
        calls++;
        return [{ address: calls === 1 ? PUBLIC : METADATA, family: 4 }];
      },
    };
    const result = await readSource(`http://rebind.example.test:${port}/feed.csv`, { network: rebinding });

    expect(result).toMatchObject({ records: [{ values: { sku: 'A1' } }] });
    expect(calls).toBe(1);
    expect(net.attempts.map((target) => [target.address, target.servername])).toEqual([
      [PUBLIC, 'rebind.example.test'],
    ]);
  });

  it('follows at most 5 redirects', async () => {
    const net = network();
    const five = await readSource(at('feed.example.test', '/hop/5'), { network: net });
    expect(five).toMatchObject({ records: [{ values: { sku: 'END' } }] });

    const six = await readSource(at('feed.example.test', '/hop/6'), { network: net });
    expect((six as { error?: Error }).error?.message).toBe(
      `${at('feed.example.test', '/hop/6')}: more than 5 redirects (the last to /hop/0)`,
    );
  });

  it('refuses a redirect to anything but http and https', async () => {
    const result = await readSource(at('feed.example.test', '/to-file'), { network: network() });
    expect((result as { error?: Error }).error?.message).toBe(
      `${at('feed.example.test', '/to-file')}: redirect refused to file:///etc/passwd: only http and https are read`,
    );
  });

  describe('through the CLI (in this process, with the same seams)', () => {
    const prefix = uniquePrefix();
    const env = {
      ...process.env,
      REDIS_URL: TEST_REDIS_URL,
      CATALOG_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'error',
    };
    afterAll(() => removePrefix(prefix));

    it('`run` ends with exit 2 and one line saying the redirect was refused, and to where', async () => {
      const result = await runCliWithNetwork(
        ['run', at('feed.example.test', '/to-metadata'), '--sandbox'],
        env,
        network(),
      );

      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `catalog-sync: ${at('feed.example.test', '/to-metadata')}: redirect refused to ${at('metadata.example.test', '/latest/meta-data')}: ` +
          `metadata.example.test (${METADATA}) is a cloud metadata address; --allow-private-source allows it\n`,
      );
    });

    it('`run --allow-private-source` follows it', async () => {
      const result = await runCliWithNetwork(
        ['run', at('feed.example.test', '/to-metadata'), '--sandbox', '--allow-private-source', '--dry-run'],
        env,
        network(),
      );

      expect(result.stderr).toBe('');
      expect({ code: result.code, stdout: result.stdout }).toMatchObject({
        code: 0,
        stdout: expect.stringContaining('rows      1: 1 to create'),
      });
    });
  });

  it('sends the credentials of the URL to its own origin only, never where a redirect leads', async () => {
    const net = network();
    const own = await readSource(`http://seller:pw@feed.example.test:${port}/echo-auth`, { network: net });
    expect(own).toMatchObject({ records: [{ values: { authorization: expect.stringMatching(/^Basic /) } }] });

    const elsewhere = await readSource(`http://seller:pw@feed.example.test:${port}/to-other-origin`, {
      network: net,
    });
    expect(elsewhere).toMatchObject({ records: [{ values: { authorization: 'none' } }] });
  });
});

describe('the guard of these tests', () => {
  it('is in place for the code under test (it imports the same modules)', async () => {
    const net = await import('node:net');
    const tls = await import('node:tls');
    const dns = await import('node:dns/promises');
    expect((net.connect as unknown as { loopbackGuard?: boolean }).loopbackGuard).toBe(true);
    expect((tls.connect as unknown as { loopbackGuard?: boolean }).loopbackGuard).toBe(true);
    await expect(async () => dns.lookup('example.com')).rejects.toThrow('network guard');
    expect(() => fetch('http://203.0.113.1/')).toThrow('network guard');
    const { createHttpRequester } = await import('../../src/seller-api/http-requester.js');
    const request = { method: 'GET', headers: {}, body: undefined, timeoutMs: 1_000 };
    for (const url of ['http://203.0.113.1/api/v1/ping', 'https://203.0.113.1/api/v1/ping']) {
      await expect(createHttpRequester()({ ...request, url: new URL(url) })).rejects.toThrow('network guard');
    }
  });
});
