import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestCertificates, signTestCertificate } from '../../support/test-ca.js';
import { freePort, OwnRedis } from '../support/own-redis.js';
import { usePipeline } from '../support/pipeline.js';
import { tlsUnsupported } from '../support/redis-cluster.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';

const unsupported = tlsUnsupported();

/** True once something listens on the port (a TLS port: PING cannot tell, and the CLI is what is tested). */
function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/**
 * A TLS certificate of a CA the client trusts (NODE_EXTRA_CA_CERTS), yet refused: issued for other
 * host names, or expired. The line said "not trusted here (…the cert's list:); give its CA with
 * NODE_EXTRA_CA_CERTS", advice that changes nothing. It must say what is wrong with the certificate.
 */
describe.skipIf(unsupported !== null)(
  `a Redis whose TLS certificate its trusted CA signed for other names, or which has expired${unsupported ? `: skipped, ${unsupported}` : ''}`,
  () => {
    const pipeline = usePipeline();
    const servers: OwnRedis[] = [];
    let dir = '';
    afterEach(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    async function tlsRedis(certificate: { cert: string; key: string }, ca: string): Promise<number> {
      const port = await freePort();
      const server = new OwnRedis(port, dir, {
        persistence: false,
        // The TLS port only (a later --port wins).
        args: [
          ...['--port', '0', '--tls-port', String(port), '--tls-auth-clients', 'no'],
          ...[
            '--tls-cert-file',
            certificate.cert,
            '--tls-key-file',
            certificate.key,
            '--tls-ca-cert-file',
            ca,
          ],
        ],
        answers: () => listens(port),
      });
      servers.push(server);
      await server.start();
      return port;
    }

    it('says which names the certificate holds, or that it has expired, and nothing of NODE_EXTRA_CA_CERTS', {
      timeout: 60_000,
    }, async () => {
      expect(spawnSync('openssl', ['version']).status).toBe(0);
      dir = await mkdtemp(join(tmpdir(), 'catalog-sync-tls-lines-'));
      const { ca } = makeTestCertificates(dir);
      const otherName = await tlsRedis(signTestCertificate(dir, 'other-name', 'DNS:redis.internal.test'), ca);
      const expired = await tlsRedis(signTestCertificate(dir, 'expired', 'IP:127.0.0.1', -1), ca);

      const trusted = { NODE_EXTRA_CA_CERTS: ca };
      const named = pipeline.spawn(['status'], { ...trusted, REDIS_URL: `rediss://127.0.0.1:${otherName}` });
      expect((await named.exited).code).toBe(2);
      expect(named.stderr()).toBe(
        `catalog-sync: Redis at rediss://127.0.0.1:${otherName}: its TLS certificate is for DNS:redis.internal.test, not 127.0.0.1: name the server in REDIS_URL as its certificate does (its CA is trusted here)\n`,
      );
      const old = pipeline.spawn(['status'], { ...trusted, REDIS_URL: `rediss://127.0.0.1:${expired}` });
      expect((await old.exited).code).toBe(2);
      expect(old.stderr()).toBe(
        `catalog-sync: Redis at rediss://127.0.0.1:${expired}: its TLS certificate has expired (certificate has expired): the server's certificate must be renewed (or this machine's clock is wrong)\n`,
      );
    });
  },
);

/**
 * rediss:// to a port that speaks no TLS (the test's plain Redis): it takes the connection and never
 * answers the TLS hello, so the line said only `(connect ETIMEDOUT)`, as for a host out of reach.
 * The reverse mistake is told `if that port speaks TLS, use rediss://`; this one is told its match.
 */
describe('rediss:// to a port without TLS', () => {
  const pipeline = usePipeline();
  const plain = new URL(TEST_REDIS_URL).host;

  it.each([
    [
      'REDIS_URL',
      `Redis is not reachable at rediss://${plain} (TLS handshake timed out; if that port does not speak TLS, use redis://). Check REDIS_URL (now rediss://${plain}), or start the Redis it names.`,
    ],
    [
      'REDIS_CLUSTER',
      `Redis Cluster is not reachable at rediss-cluster://${plain} (TLS handshake timed out; if that port does not speak TLS, use redis://). Check REDIS_CLUSTER: every master must be reachable from here.`,
    ],
  ])(
    '%s: says the handshake timed out and to use redis://, exit 2',
    { timeout: 60_000 },
    async (variable, line) => {
      const child = pipeline.spawn(['status'], {
        REDIS_URL: 'redis://127.0.0.1:1',
        [variable]: `rediss://${plain}`,
      });
      expect((await child.exited).code).toBe(2);
      expect(child.stderr()).toBe(`catalog-sync: ${line}\n`);
    },
  );
});
