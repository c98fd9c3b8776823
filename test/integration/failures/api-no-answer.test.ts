import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCertificates, type TestCertificates } from '../../support/test-ca.js';
import { catalogRows } from '../support/catalog.js';
import { type CliResult, runIdOf } from '../support/cli.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { type FailureRig, KEY_A, SELLER_A, useFailureRig } from './support/rig.js';

const ROWS = 20;
const OPENSSL = ['/usr/bin/openssl', '/usr/local/bin/openssl'].some((path) => existsSync(path));
/** What a TLS server may send to a plain HTTP request: a fatal alert record (protocol version). */
const TLS_ALERT = Buffer.from([0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46]);

type Mode = 'pipe' | 'reset' | 'tls-alert';

/**
 * A loopback port in front of the sandbox: pipes each connection to it, or closes it at once
 * without a byte (`reset`), or answers the request with a TLS alert and closes (`tls-alert`).
 * `stop` frees the port (connection refused), `start` takes the same port again.
 */
class Front {
  mode: Mode = 'pipe';
  port = 0;
  #server: Server | null = null;
  readonly #sockets = new Set<Socket>();

  constructor(private readonly sandboxPort: number) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/api/v1`;
  }

  async start(): Promise<void> {
    const server = createServer((socket) => this.#serve(socket));
    this.#server = server;
    await new Promise<void>((ready) => server.listen(this.port, '127.0.0.1', ready));
    this.port = (server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = null;
    const closed = once(server, 'close');
    server.close();
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    await closed;
  }

  #serve(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.#sockets.delete(socket));
    if (this.mode === 'reset') {
      socket.destroy();
      return;
    }
    if (this.mode === 'tls-alert') {
      socket.once('data', () => socket.end(TLS_ALERT));
      return;
    }
    const upstream = connect(this.sandboxPort, '127.0.0.1');
    this.#sockets.add(upstream);
    upstream.on('error', () => socket.destroy());
    upstream.on('close', () => this.#sockets.delete(upstream));
    socket.on('close', () => upstream.destroy());
    socket.pipe(upstream).pipe(socket);
  }
}

/** The one `catalog-sync:` line of stderr (the test fails on none or several). */
function oneLine(result: CliResult): string {
  const lines = result.stderr.split('\n').filter((line) => line.startsWith('catalog-sync:'));
  expect(lines, result.stderr).toHaveLength(1);
  return lines[0] as string;
}

/** Exit 6, the `cannot reach` line with `cause`; the run's rows queued, none failed, nothing written. */
async function expectQueued(rig: FailureRig, result: CliResult, env: NodeJS.ProcessEnv, cause: string) {
  const baseUrl = env.SELLER_API_BASE_URL as string;
  expect(result.code, result.stderr).toBe(6);
  expect(oneLine(result)).toContain(`cannot reach ${baseUrl}: ${cause}`);
  const runId = runIdOf(result.stderr);
  const status = await rig.status(runId, env);
  expect(status.state).not.toBe('done');
  expect(status.settled).toBe(0);
  expect(status.counts.failed ?? 0).toBe(0);
  expect(status.stateText).toContain(`cannot reach ${baseUrl}`);
  expect(rig.sandbox.products(SELLER_A)).toEqual([]);
  return runId;
}

/**
 * A server that takes the connection and closes it without a byte of answer, on every try: the
 * Seller API out of reach (exit 6, rows queued), as a refused port is, never rows failed.
 */
describe('a Seller API that closes every connection without answering', () => {
  const rig = useFailureRig();
  let front: Front;
  afterEach(async () => {
    await front?.stop();
  });

  async function started(mode: Mode): Promise<NodeJS.ProcessEnv> {
    front = new Front(Number(new URL(rig.sandbox.baseUrl).port));
    front.mode = mode;
    await front.start();
    return rig.env(KEY_A, { SELLER_API_BASE_URL: front.baseUrl, CATALOG_SYNC_PROBE_MS: '200' });
  }

  it('`run` exits 6 and keeps every row queued; once the API answers, the next run finishes them', async () => {
    const env = await started('reset');
    const rows = catalogRows(ROWS);
    const source = await rig.csv('catalog.csv', rows);

    const result = await rig.cli(['run', source], env);

    const runId = await expectQueued(
      rig,
      result,
      env,
      'the server closed the connection without answering (ECONNRESET)',
    );
    front.mode = 'pipe';
    const again = await rig.cli(['run', source], env);
    expect(again.code, again.stderr).toBe(0);
    expect(runIdOf(again.stdout)).toBe(runId);
    expect(again.stdout).toContain(`rows      ${ROWS}: ${ROWS} created, 0 updated`);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
  });

  it('`ping` and the exports say the same in one line, exit 6', async () => {
    const env = await started('reset');
    const line = `catalog-sync: cannot reach ${front.baseUrl}: the server closed the connection without answering (ECONNRESET)\n`;

    for (const command of [['ping'], ['products', 'export'], ['orders', 'export']]) {
      const result = await rig.cli(command, { ...env, CATALOG_SYNC_RETRY_BASE_MS: '1' });
      expect(result.code, `${command.join(' ')}: ${result.stderr}`).toBe(6);
      expect(result.stderr, command.join(' ')).toBe(line);
    }
  });

  it('http:// answered with a TLS record: exit 6, and the line says to use https://', async () => {
    const env = await started('tls-alert');

    const ping = await rig.cli(['ping'], env);

    expect(ping.code, ping.stderr).toBe(6);
    expect(ping.stderr).toBe(
      `catalog-sync: cannot reach ${front.baseUrl}: the server closed the connection without an HTTP answer: it answered in TLS, not plain HTTP (http:// to an https:// port: use https://) (HPE_INVALID_CONSTANT)\n`,
    );
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));
    const run = await rig.cli(['run', source], env);
    await expectQueued(
      rig,
      run,
      env,
      'the server closed the connection without an HTTP answer: it answered in TLS, not plain HTTP (http:// to an https:// port: use https://) (HPE_INVALID_CONSTANT)',
    );
  });
});

/** http:// to a TLS server (Node's closes a plain HTTP request without a byte): the API out of reach. */
describe.skipIf(!OPENSSL)('http:// to a TLS port', () => {
  const rig = useFailureRig();
  let certDir = '';
  let certificates: TestCertificates;
  let server: ReturnType<typeof createTlsServer> | null = null;

  beforeAll(async () => {
    certDir = await mkdtemp(join(tmpdir(), 'catalog-sync-no-answer-'));
    certificates = makeTestCertificates(certDir);
  });
  afterAll(async () => {
    await rm(certDir, { recursive: true, force: true });
  });
  afterEach(async () => {
    if (server) {
      const closed = once(server, 'close');
      server.close();
      await closed;
    }
    server = null;
  });

  it('`run` exits 6 with one line, rows queued; `ping` exits 6 too', async () => {
    const tls = createTlsServer({
      cert: readFileSync(certificates.cert),
      key: readFileSync(certificates.key),
    });
    tls.on('tlsClientError', () => undefined);
    server = tls;
    await new Promise<void>((ready) => tls.listen(0, '127.0.0.1', ready));
    const baseUrl = `http://127.0.0.1:${(tls.address() as AddressInfo).port}/api/v1`;
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl });
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));

    const run = await rig.cli(['run', source], env);

    await expectQueued(rig, run, env, 'the server closed the connection without answering (ECONNRESET)');
    const ping = await rig.cli(['ping'], env);
    expect(ping.code, ping.stderr).toBe(6);
    expect(oneLine(ping)).toContain(
      `cannot reach ${baseUrl}: the server closed the connection without answering`,
    );
  });
});

/** `resume` checks the key with a ping: with the API out of reach it gives no verdict (exit 6), links nothing. */
describe('`resume` while the Seller API is out of reach', () => {
  const rig = useFailureRig();
  let front: Front;
  afterEach(async () => {
    await front?.stop();
  });

  it("exits 6 in ping's words, resumes nothing; once the API answers, resume and run finish the rows", async () => {
    front = new Front(Number(new URL(rig.sandbox.baseUrl).port));
    await front.start();
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: front.baseUrl });
    const rows = catalogRows(ROWS);
    const source = await rig.csv('catalog.csv', rows);
    // Products recorded under the key first: a key rejected on its first run reads as mistyped.
    const first = await rig.cli(['run', await rig.csv('first.csv', rows.slice(0, 5))], env);
    expect(first.code, first.stderr).toBe(0);
    rig.sandbox.revokeKey(KEY_A);
    const rejected = await rig.cli(['run', source], env);
    expect(rejected.code, rejected.stderr).toBe(3);
    const ref = /catalog-sync resume --seller (\S+)/.exec(rejected.stderr)?.[1] as string;
    expect(ref, rejected.stderr).toBeDefined();
    rig.sandbox.addKey(KEY_A, SELLER_A);

    await front.stop();
    const refused = await rig.cli(['resume', '--seller', ref], env);
    expect(refused.code, refused.stderr).toBe(6);
    expect(oneLine(refused)).toBe(
      `catalog-sync: cannot reach ${front.baseUrl}: connection refused (ECONNREFUSED): the key in SELLER_API_KEY could not be checked; nothing was linked or resumed for seller ${ref}: run \`resume\` again once the API answers`,
    );
    expect(refused.stdout).toBe('');
    expect((await rig.status(runIdOf(rejected.stderr), env)).seller.authRejected).toBe(true);

    front.mode = 'reset';
    await front.start();
    const reset = await rig.cli(['resume', '--seller', ref], env);
    expect(reset.code, reset.stderr).toBe(6);
    expect(oneLine(reset)).toContain(
      `cannot reach ${front.baseUrl}: the server closed the connection without answering (ECONNRESET)`,
    );

    front.mode = 'pipe';
    const resumed = await rig.cli(['resume', '--seller', ref], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`seller ${ref}: resumed`);
    const done = await rig.cli(['run', source], env);
    expect(done.code, done.stderr).toBe(0);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
  });
});
