import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { assertBuilt } from '../integration/support/cli.js';
import { loopbackFetch } from './network-guard.js';
import { readSource, tempFolder } from './support.js';

// Whatever the code under test does, nothing leaves loopback (see network-guard.ts).
vi.mock('node:dns/promises', async (original) => (await import('./network-guard.js')).guardedDns(original));
vi.mock('node:net', async (original) => (await import('./network-guard.js')).guardedNet(original));
vi.mock('node:tls', async (original) => (await import('./network-guard.js')).guardedTls(original));
vi.stubGlobal('fetch', loopbackFetch(globalThis.fetch));

/**
 * https feeds go through the same resolved-address connection (TLS on the socket to the checked
 * address, the URL's host name for SNI and the certificate check). A certificate made here with
 * openssl for 127.0.0.1 and for `feed.example.test`; a child process trusts it through
 * NODE_EXTRA_CA_CERTS (read only at start-up). Skipped when openssl is not installed.
 */
const OPENSSL = ['/usr/bin/openssl', '/usr/local/bin/openssl'].find((path) => existsSync(path));

describe.skipIf(!OPENSSL)('an https feed', () => {
  const folder = tempFolder();
  let server: Server;
  let port: number;

  beforeAll(async () => {
    assertBuilt();
    execFileSync(
      OPENSSL!,
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(folder.dir, 'key.pem'),
        '-out',
        join(folder.dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=feed.example.test',
        '-addext',
        'subjectAltName=DNS:feed.example.test,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    server = createServer(
      { key: readFileSync(join(folder.dir, 'key.pem')), cert: readFileSync(join(folder.dir, 'cert.pem')) },
      (_req, res) => {
        res.writeHead(200);
        res.end('sku,name\nA1,Crème\n');
      },
    );
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
    folder.remove();
  });

  it('checks the certificate: one it does not trust is refused in one line', async () => {
    const result = await readSource(`https://127.0.0.1:${port}/feed.csv`);
    expect('error' in result && result.error.message).toBe(
      `https://127.0.0.1:${port}/feed.csv: cannot fetch the feed: TLS handshake failed: the server's certificate is not trusted: self-signed, or from a CA this machine does not know (a private CA: NODE_EXTRA_CA_CERTS=ca.pem) (DEPTH_ZERO_SELF_SIGNED_CERT)`,
    );
  });

  it('reads it when the certificate is trusted, checking it against the URL`s host name', async () => {
    // A child process that trusts the certificate, with a resolver (no real DNS) that maps the
    // names to 127.0.0.1 and the system connector: the TLS of the code under test.
    const script = `
      // The guard of network-guard.ts, for this child: no real DNS, no connection off loopback.
      const { createRequire, syncBuiltinESMExports } = await import('node:module');
      const require = createRequire(import.meta.url);
      const loopback = (host) => typeof host === 'string' && /^(127\\.\\d+\\.\\d+\\.\\d+|::1|localhost)$/.test(host);
      const refuse = (what) => { throw new Error('network guard: ' + what); };
      const dns = require('node:dns');
      dns.lookup = () => refuse('dns.lookup');
      dns.promises.lookup = async () => refuse('dns.promises.lookup');
      for (const [module, names] of [[require('node:net'), ['connect', 'createConnection']], [require('node:tls'), ['connect']]]) {
        for (const name of names) {
          const original = module[name];
          module[name] = (options, ...rest) => {
            const host = typeof options === 'object' && options !== null ? options.host : rest[0];
            if (!loopback(host ?? 'localhost')) refuse(name + ' to ' + host);
            return original(options, ...rest);
          };
        }
      }
      syncBuiltinESMExports();
      const { openSource } = await import(${JSON.stringify(join(projectRoot(), 'dist/src/sources/index.js'))});
      const lookup = async (name) => {
        if (!name.endsWith('.example.test')) throw new Error('no real DNS');
        return [{ address: '127.0.0.1', family: 4 }];
      };
      for (const host of ['127.0.0.1', 'feed.example.test', 'other.example.test']) {
        try {
          const opened = await openSource('https://' + host + ':${port}/feed.csv', { network: { lookup } });
          for await (const record of opened.records) console.log(host, 'read', record.values.name);
        } catch (error) {
          console.log(host, 'error', error.message.replace(/^.*cannot fetch the feed: /, ''));
        }
      }`;
    // Not spawnSync: the server answering the child lives in this process.
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(folder.dir, 'cert.pem') },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 20_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    await once(child, 'exit');
    expect(stderr).toBe('');
    expect(stdout.trim().split('\n')).toEqual([
      '127.0.0.1 read Crème',
      'feed.example.test read Crème',
      "other.example.test error TLS handshake failed: the server's certificate is for another host (ERR_TLS_CERT_ALTNAME_INVALID)",
    ]);
  });
});
