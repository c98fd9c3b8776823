import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCertificates, signTestCertificate, type TestCertificates } from '../../support/test-ca.js';
import { catalogRows } from '../support/catalog.js';
import { type CliResult, runIdOf } from '../support/cli.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { KEY_A, SELLER_A, useFailureRig } from './support/rig.js';

const ROWS = 20;
const OPENSSL = ['/usr/bin/openssl', '/usr/local/bin/openssl'].some((path) => existsSync(path));

/**
 * A TLS handshake that fails is the API out of reach (exit 6, one line naming the cause and the
 * URL), never rows counted failed: https:// to the sandbox's plain HTTP port, and a TLS front of the
 * sandbox (on loopback) whose certificate the CLI does not trust, or is for another host. The CLI
 * trusts the test CA only as a child started with NODE_EXTRA_CA_CERTS (read at start-up).
 */
describe.skipIf(!OPENSSL)('a TLS handshake with the Seller API that fails', () => {
  const rig = useFailureRig();
  let certDir = '';
  let certificates: TestCertificates;
  let otherHost: { cert: string; key: string };
  let front: Server | null = null;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    certDir = await mkdtemp(join(tmpdir(), 'catalog-sync-tls-'));
    certificates = makeTestCertificates(certDir);
    otherHost = signTestCertificate(certDir, 'other-host', 'DNS:api.example.test');
  });
  afterAll(async () => {
    await rm(certDir, { recursive: true, force: true });
  });
  afterEach(async () => {
    if (front) {
      const closed = once(front, 'close');
      front.close();
      for (const socket of sockets) socket.destroy();
      await closed;
    }
    front = null;
    sockets.clear();
  });

  /** TLS on a loopback port of its own, each connection piped to the sandbox; its URL. */
  async function tlsFront(pair: { cert: string; key: string }): Promise<string> {
    const sandboxPort = Number(new URL(rig.sandbox.baseUrl).port);
    const server = createServer({ cert: readFileSync(pair.cert), key: readFileSync(pair.key) }, (socket) => {
      const upstream = connect(sandboxPort, '127.0.0.1');
      sockets.add(socket).add(upstream);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
      socket.pipe(upstream).pipe(socket);
    });
    // A refused handshake is the client's doing: nothing to report here.
    server.on('tlsClientError', () => undefined);
    front = server;
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    return `https://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  }

  /** `catalog-sync run` as a child that trusts the test CA. */
  async function runTrustingCa(source: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
    const child = rig.spawn(['run', source], { ...env, NODE_EXTRA_CA_CERTS: certificates.ca });
    const { code } = await child.exited;
    return { code: code ?? -1, stdout: child.stdout(), stderr: child.stderr() };
  }

  /** Exit 6, one `catalog-sync:` line naming the URL and the cause; the run's rows queued, none failed. */
  async function expectQueued(result: CliResult, baseUrl: string, cause: string): Promise<string> {
    expect(result.code, result.stderr).toBe(6);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('catalog-sync:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`cannot reach ${baseUrl}: TLS handshake failed: ${cause}`);
    expect(result.stderr).not.toContain('SSL routines');
    const runId = runIdOf(result.stderr);
    const status = await rig.status(runId, rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl }));
    expect(status.state).not.toBe('done');
    expect(status.settled).toBe(0);
    expect(status.counts.failed).toBe(0);
    expect(rig.sandbox.products(SELLER_A)).toEqual([]);
    return runId;
  }

  async function source(): Promise<{ path: string; rows: ReturnType<typeof catalogRows> }> {
    const rows = catalogRows(ROWS);
    return { path: await rig.csv('catalog.csv', rows), rows };
  }

  it('https:// to a plain HTTP port: the cause said, rows queued; the http:// URL then syncs each once', async () => {
    const { path, rows } = await source();
    const wrong = rig.sandbox.baseUrl.replace(/^http:/, 'https:');

    const result = await rig.cli(['run', path], rig.env(KEY_A, { SELLER_API_BASE_URL: wrong }));

    await expectQueued(
      result,
      wrong,
      'the server answered in plain HTTP, not TLS (https:// to an http:// port)',
    );
    expect(rig.sandbox.stats().total).toBe(0);
    const right = await rig.cli(['run', path], rig.env(KEY_A));
    expect(right.code, right.stderr).toBe(0);
    expect(right.stdout).toContain(`rows      ${ROWS}: ${ROWS} created, 0 updated`);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
  });

  it('a certificate this machine does not trust: the cause said, rows queued; trusted, the same run goes on', async () => {
    const { path, rows } = await source();
    const baseUrl = await tlsFront(certificates);
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl });

    const result = await rig.cli(['run', path], env);

    const runId = await expectQueued(result, baseUrl, "the server's certificate is not trusted");
    expect(result.stderr).toContain('(UNABLE_TO_VERIFY_LEAF_SIGNATURE)');
    const trusted = await runTrustingCa(path, env);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(runIdOf(trusted.stdout)).toBe(runId);
    expect(trusted.stdout).toContain(`rows      ${ROWS}: ${ROWS} created, 0 updated`);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
  });

  it('a certificate for another host: the cause said, rows queued; the right certificate, the same run goes on', async () => {
    const { path, rows } = await source();
    const baseUrl = await tlsFront(otherHost);
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl });

    const result = await runTrustingCa(path, env);

    const runId = await expectQueued(
      result,
      baseUrl,
      "the server's certificate is for another host (ERR_TLS_CERT_ALTNAME_INVALID)",
    );
    front?.setSecureContext({ cert: readFileSync(certificates.cert), key: readFileSync(certificates.key) });
    const fixed = await runTrustingCa(path, env);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(runIdOf(fixed.stdout)).toBe(runId);
    expect(fixed.stdout).toContain(`rows      ${ROWS}: ${ROWS} created, 0 updated`);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
  });

  it('the cause changes between two runs: the second run names what fails now, not the first cause', async () => {
    const { path } = await source();
    const baseUrl = await tlsFront(certificates);
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl });
    const first = await rig.cli(['run', path], env);
    const runId = await expectQueued(first, baseUrl, "the server's certificate is not trusted");

    // The user trusts the CA (NODE_EXTRA_CA_CERTS), and the server now shows another host's
    // certificate: within the first pause's wait, the next run must say so, not "not trusted".
    front?.setSecureContext({ cert: readFileSync(otherHost.cert), key: readFileSync(otherHost.key) });
    const second = await runTrustingCa(path, env);

    expect(runIdOf(second.stderr)).toBe(runId);
    await expectQueued(
      second,
      baseUrl,
      "the server's certificate is for another host (ERR_TLS_CERT_ALTNAME_INVALID)",
    );
    const status = await rig.status(runId, env);
    expect(JSON.stringify(status)).not.toContain('not trusted');
  });
});
