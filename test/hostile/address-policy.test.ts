import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postWebhook } from '../../src/notify/post-webhook.js';
import { loopbackFetch } from './network-guard.js';
import { body, loopbackNetwork, loopbackServer, readSource, redirect } from './support.js';

// Whatever the code under test does, nothing leaves loopback (see network-guard.ts).
vi.mock('node:dns/promises', async (original) => (await import('./network-guard.js')).guardedDns(original));
vi.mock('node:dns', async (original) => (await import('./network-guard.js')).guardedDnsLookup(original));
vi.mock('node:net', async (original) => (await import('./network-guard.js')).guardedNet(original));
vi.mock('node:tls', async (original) => (await import('./network-guard.js')).guardedTls(original));
vi.mock('node:http', async (original) => (await import('./network-guard.js')).guardedHttp(original));
vi.mock('node:https', async (original) => (await import('./network-guard.js')).guardedHttp(original));
vi.stubGlobal('fetch', loopbackFetch(globalThis.fetch));

/**
 * Issue 32, item 3: the address rule refused only 169.254.0.0/16 and fe80::/10, so a cloud metadata
 * address in another range or written in another form was connected to. Every address below is
 * played by a server on 127.0.0.1 (the test connector maps it there and refuses any other): a bug
 * reads the "metadata" body instead of failing, and still sends nothing off loopback.
 */
const PUBLIC = '203.0.113.10';

/** [what it is, the host as written in a URL, the address the connector is asked for] */
const REFUSED: Array<[string, string, string]> = [
  ['Alibaba metadata in 100.64.0.0/10', '100.100.100.200', '100.100.100.200'],
  ['the shared range 100.64.0.0/10', '100.64.0.1', '100.64.0.1'],
  ['AWS metadata over IPv6', '[fd00:ec2::254]', 'fd00:ec2::254'],
  ['IPv6 unique-local', '[fd12:3456::1]', 'fd12:3456::1'],
  ['169.254.169.254 through NAT64', '[64:ff9b::a9fe:a9fe]', '64:ff9b::a9fe:a9fe'],
  ['NAT64 written dotted', '[64:ff9b::169.254.169.254]', '64:ff9b::a9fe:a9fe'],
  ['local-use NAT64', '[64:ff9b:1::a9fe:a9fe]', '64:ff9b:1::a9fe:a9fe'],
  ['IPv4-mapped, dotted', '[::ffff:169.254.169.254]', '::ffff:a9fe:a9fe'],
  ['IPv4-mapped, hex', '[::ffff:a9fe:a9fe]', '::ffff:a9fe:a9fe'],
  ['IPv4-mapped shared range', '[::ffff:100.100.100.200]', '::ffff:6464:64c8'],
  ['IPv4-compatible', '[::a9fe:a9fe]', '::a9fe:a9fe'],
  ['6to4', '[2002:a9fe:a9fe::1]', '2002:a9fe:a9fe::1'],
  ['metadata in hex octets', '0xa9.0xfe.0xa9.0xfe', '169.254.169.254'],
  ['metadata as one decimal number', '2852039166', '169.254.169.254'],
  ['metadata in octal octets', '0251.0376.0251.0376', '169.254.169.254'],
  ['shared range in hex octets', '0x64.0x64.0x64.0xc8', '100.100.100.200'],
  ['Azure WireServer', '168.63.129.16', '168.63.129.16'],
  ['ECS task credentials', '169.254.170.2', '169.254.170.2'],
];

describe('one address policy, for a source and for a redirect', () => {
  let server: Awaited<ReturnType<typeof loopbackServer>>;
  let port: number;
  const at = (host: string, path: string) => `http://${host}:${port}${path}`;
  const network = () =>
    loopbackNetwork(
      {
        'feed.example.test': PUBLIC,
        'intranet.example.test': '10.0.0.5',
        'office.example.test': '192.168.1.20',
        'named-metadata.example.test': 'fd00:ec2::254',
        'named-nat64.example.test': '64:ff9b::a9fe:a9fe',
      },
      {
        [PUBLIC]: port,
        '10.0.0.5': port,
        '10.1.2.3': port,
        '192.168.1.20': port,
        ...Object.fromEntries(REFUSED.map(([, , address]) => [address, port])),
      },
    );

  beforeAll(async () => {
    server = await loopbackServer({
      '/feed.csv': body('sku,name\nA1,Mug\n'),
      '/latest/meta-data': body('sku,name\nSECRET,role-credentials\n'),
      ...Object.fromEntries(
        REFUSED.map(([, host], index) => [
          `/to/${index}`,
          (req, res) => redirect(at(host, '/latest/meta-data'))(req, res),
        ]),
      ),
    });
    port = server.port;
  });
  afterAll(() => server.close());

  it.each(REFUSED.map((row, index) => [...row, index] as const))(
    'refuses a source at %s (%s), without connecting',
    async (_, host, address) => {
      const net = network();
      const result = await readSource(at(host, '/latest/meta-data'), { network: net });

      const message = (result as { error?: Error }).error?.message ?? 'read, not refused';
      expect(message).toContain(`: refused: ${address}`);
      expect(message).toContain('--allow-private-source allows it');
      expect(net.attempts).toEqual([]);
    },
  );

  it.each(REFUSED.map((row, index) => [...row, index] as const))(
    'refuses a redirect from a public address to %s (%s)',
    async (_, _host, address, index) => {
      const net = network();
      const result = await readSource(at('feed.example.test', `/to/${index}`), { network: net });

      const message = (result as { error?: Error }).error?.message ?? 'read, not refused';
      expect(message).toContain(': redirect refused to ');
      expect(message).toContain(`: ${address}`);
      expect(net.attempts.map((target) => target.address)).toEqual([PUBLIC]);
    },
  );

  it('judges the address a name resolves to, and says what an IPv6 form carries', async () => {
    const net = network();
    const metadata = await readSource(at('named-metadata.example.test', '/feed.csv'), { network: net });
    expect((metadata as { error?: Error }).error?.message).toBe(
      `${at('named-metadata.example.test', '/feed.csv')}: refused: named-metadata.example.test (fd00:ec2::254) ` +
        'is a cloud metadata address; --allow-private-source allows it',
    );
    const nat64 = await readSource(at('named-nat64.example.test', '/feed.csv'), { network: net });
    expect((nat64 as { error?: Error }).error?.message).toBe(
      `${at('named-nat64.example.test', '/feed.csv')}: refused: named-nat64.example.test ` +
        '(64:ff9b::a9fe:a9fe, 169.254.169.254 through NAT64) is a cloud metadata address; --allow-private-source allows it',
    );
    expect(net.attempts).toEqual([]);
  });

  it("still reads a feed on the operator's own private network (10/8, 192.168/16), named or literal", async () => {
    const net = network();
    for (const url of [
      at('intranet.example.test', '/feed.csv'),
      at('10.1.2.3', '/feed.csv'),
      at('office.example.test', '/feed.csv'),
    ]) {
      const result = await readSource(url, { network: net });
      expect(result).toMatchObject({ records: [{ values: { sku: 'A1', name: 'Mug' } }] });
    }
    expect(net.attempts.map((target) => target.address)).toEqual(['10.0.0.5', '10.1.2.3', '192.168.1.20']);
  });

  it('with --allow-private-source, reads what the operator allowed', async () => {
    const net = network();
    const result = await readSource(at('[fd00:ec2::254]', '/latest/meta-data'), {
      network: net,
      allowPrivateSource: true,
    });
    expect(result).toMatchObject({ records: [{ values: { sku: 'SECRET' } }] });
  });
});

describe('the same policy for a webhook, at connect time', () => {
  const delivery = {
    attempts: 3,
    backoffMs: 1,
    timeoutMs: 5_000,
    sleep: async () => undefined,
  };

  it.each(REFUSED)('never POSTs to %s (%s)', async (_, host) => {
    const net = loopbackNetwork({});
    const result = await postWebhook(
      `http://${host}/hook`,
      { event: 'ended' },
      { ...delivery, network: net },
    );

    expect(result).toMatchObject({ ok: false, attempts: 1 });
    expect(result.ok ? '' : result.reason).toMatch(/^refused: it leads to /);
    expect(net.attempts).toEqual([]);
  });

  it('judges the address the hook name resolves to, once, and connects to no other', async () => {
    let lookups = 0;
    const net = loopbackNetwork({ 'hooks.example.test': '64:ff9b::a9fe:a9fe' });
    const counted = {
      ...net,
      lookup: async (hostname: string) => {
        lookups++;
        return net.lookup(hostname);
      },
    };
    const result = await postWebhook('http://hooks.example.test/hook', {}, { ...delivery, network: counted });

    expect(result).toEqual({
      ok: false,
      attempts: 1,
      reason: 'refused: it leads to a cloud metadata address',
    });
    expect(lookups).toBe(1);
    expect(net.attempts).toEqual([]);
  });

  it('POSTs to an allowed address through the connector it was given', async () => {
    const posts: string[] = [];
    const hook = await loopbackServer({
      '/hook': (req, res) => {
        posts.push(req.headers.host ?? '');
        body('ok')(req, res);
      },
    });
    try {
      const net = loopbackNetwork({ 'hooks.example.test': PUBLIC }, { [PUBLIC]: hook.port });
      const result = await postWebhook('http://hooks.example.test/hook', {}, { ...delivery, network: net });

      expect(result).toEqual({ ok: true, attempts: 1 });
      expect(net.attempts.map((target) => target.address)).toEqual([PUBLIC]);
      expect(posts).toEqual(['hooks.example.test']);
    } finally {
      await hook.close();
    }
  });
});

describe('a URL Node cannot parse', () => {
  it('is one line naming it, not a stack trace, and nothing is connected to', async () => {
    const net = loopbackNetwork({});

    const result = await readSource('http://[fe80::1%25lo]/f.csv', { network: net });

    expect('error' in result && result.error.message).toBe(
      'http://[fe80::1%25lo]/f.csv: is not a URL this tool can read (check its host and port)',
    );
    expect(net.attempts).toEqual([]);
  });
});
