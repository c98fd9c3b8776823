import { describe, expect, it } from 'vitest';
import { describeConnectFailure, displayRedisUrl } from '../../../src/redis/connect.js';
import { faultOf, RedisHealth, RunStateLostError } from '../../../src/redis/health.js';
import { formatBytes, parseServerInfo, unfitForWrites } from '../../../src/redis/server-info.js';
import { runNeedBytes } from '../../../src/redis/sizing.js';
import { TlsHandshakeTimeout } from '../../../src/redis/tls-lines.js';

/** A Redis error reply as ioredis rejects with it (a ReplyError is an Error with the reply's text). */
function reply(message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { name: 'ReplyError' }, extra);
}

const OOM = "OOM command not allowed when used memory > 'maxmemory'.";

describe('faultOf: a write Redis refused, as Redis 7 words it', () => {
  it.each([
    ['the command itself', reply(OOM), 'full'],
    [
      'a script (ours or BullMQ’s)',
      reply(`${OOM} script: 74e9ebeb538e550190e3ed5bc49968d470f51301, on @user_script:1.`),
      'full',
    ],
    [
      'a command queued in MULTI',
      reply('EXECABORT Transaction discarded because of previous errors.', { previousErrors: [reply(OOM)] }),
      'full',
    ],
    ['a replica', reply("READONLY You can't write against a read only replica."), 'read-only'],
    ['a run found gone', new RunStateLostError('20260101T000000-abcdef'), 'lost'],
    [
      'a cluster command past its retries (ioredis)',
      new Error('Too many Cluster redirections. Last error: Error: Connection is closed.'),
      'unanswered',
    ],
    ['a cluster down (a pipeline’s command)', reply('CLUSTERDOWN The cluster is down'), 'unanswered'],
    [
      'a cluster down in MULTI',
      reply('EXECABORT Transaction discarded because of previous errors.', {
        previousErrors: [reply('CLUSTERDOWN Hash slot not served')],
      }),
      'unanswered',
    ],
  ])('%s', (_, error, kind) => {
    expect(faultOf(error)).toBe(kind);
  });

  it('is null for anything else', () => {
    expect(faultOf(reply('EXECABORT Transaction discarded because of previous errors.'))).toBeNull();
    expect(faultOf(new Error('Connection is closed.'))).toBeNull();
    expect(faultOf(reply('ERR unknown command'))).toBeNull();
  });
});

describe('RedisHealth', () => {
  it('keeps the first refusal, stops requests until cleared, and tells its listeners once', () => {
    const health = new RedisHealth();
    const told: string[] = [];
    health.onFault((fault) => told.push(fault.kind));

    expect(health.note(new Error('Connection is closed.'))).toBeNull();
    health.note(reply(OOM));
    health.note(reply(OOM));

    expect(told).toEqual(['full']);
    expect(() => health.assertWritable()).toThrow(/Redis refused a write: it is full/);
    health.clear();
    expect(() => health.assertWritable()).not.toThrow();
  });

  it('stops requests once a cluster did not answer through a failover, until cleared', () => {
    const health = new RedisHealth();
    const told: string[] = [];
    health.onFault((fault) => told.push(fault.kind));

    health.note(new Error('Too many Cluster redirections. Last error: ReplyError: CLUSTERDOWN'));

    expect(told).toEqual(['unanswered']);
    expect(() => health.assertWritable()).toThrow(/Redis Cluster did not answer a command/);
    health.clear();
    expect(() => health.assertWritable()).not.toThrow();
  });

  it('tells of a lost run once, without stopping other runs', () => {
    const health = new RedisHealth();
    const told: Array<string | null> = [];
    health.onFault((fault) => told.push(fault.runId));

    health.note(new RunStateLostError('run-1'));
    health.note(new RunStateLostError('run-1'));

    expect(told).toEqual(['run-1']);
    expect(health.lost('run-1')).toBe(true);
    expect(() => health.assertWritable()).not.toThrow();
  });
});

describe('describeConnectFailure: one line for a Redis that refused us, never the password', () => {
  const url = 'redis://:s3cret@127.0.0.1:6395';

  it('names a password wanted, with the form REDIS_URL takes', () => {
    expect(describeConnectFailure('redis://127.0.0.1:6395', reply('NOAUTH Authentication required.'))).toBe(
      'Redis at redis://127.0.0.1:6395 wants a password: put it in REDIS_URL as redis://:PASSWORD@127.0.0.1:6395',
    );
  });

  it('names a password rejected, without it', () => {
    const line = describeConnectFailure(
      url,
      reply('WRONGPASS invalid username-password pair or user is disabled.'),
    );
    expect(line).toMatch(/^Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:6395 rejected the password/);
    expect(line).not.toContain('s3cret');
  });

  // As the refusals met later (permission-refusal.ts): the user by name, the command, its grant.
  it('names a command refused at connect and the ACL SETUSER that grants it to the user, without the password', () => {
    const line = describeConnectFailure(
      'redis://cs%2Duser:s3cret@127.0.0.1:6395',
      reply("NOPERM User cs-user has no permissions to run the 'ping' command"),
    );
    expect(line).toBe(
      "Redis at redis://cs%2Duser:***@127.0.0.1:6395 refused user cs-user a command catalog-sync needs (NOPERM User cs-user has no permissions to run the 'ping' command): grant it with ACL SETUSER cs-user +ping; then run the command again",
    );
    expect(line).not.toContain('s3cret');
  });

  it('names the default user where the URL names none, and scripting as the later refusals do', () => {
    expect(
      describeConnectFailure(url, reply("NOPERM this user has no permissions to run the 'evalsha' command")),
    ).toBe(
      "Redis at redis://:***@127.0.0.1:6395 refused user default a command catalog-sync needs (NOPERM this user has no permissions to run the 'evalsha' command): grant it with ACL SETUSER default +@scripting (its queue and its own steps are Lua scripts); then run the command again",
    );
  });

  it('names the prefix of its keys when the keys are refused at connect', () => {
    expect(
      describeConnectFailure(url, reply('NOPERM No permissions to access a key'), { prefix: 'shop-1' }),
    ).toBe(
      'Redis at redis://:***@127.0.0.1:6395 refused user default the keys of catalog-sync (NOPERM No permissions to access a key): they all start with shop-1: (CATALOG_SYNC_PREFIX); grant them with ACL SETUSER default ~shop-1:*, or set CATALOG_SYNC_PREFIX to a prefix its key patterns cover; then run the command again',
    );
  });

  it('names a TLS certificate not trusted', () => {
    const error = Object.assign(new Error('self-signed certificate in certificate chain'), {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    expect(describeConnectFailure('rediss://127.0.0.1:6380', error)).toMatch(
      /^Redis at rediss:\/\/127\.0\.0\.1:6380: its TLS certificate is not trusted here \(self-signed certificate in certificate chain\); give its CA with NODE_EXTRA_CA_CERTS/,
    );
  });

  it('names a certificate for other host names: the CA is trusted, the name is what to change', () => {
    // Node's own reason ends "is not in the cert's list: " with the list empty (the names are DNS ones).
    const error = Object.assign(
      new Error(
        "Hostname/IP does not match certificate's altnames: IP: 127.0.0.1 is not in the cert's list: ",
      ),
      {
        code: 'ERR_TLS_CERT_ALTNAME_INVALID',
        host: '127.0.0.1',
        cert: { subjectaltname: 'DNS:redis.internal.test, DNS:redis-2.internal.test', subject: { CN: 'w' } },
      },
    );
    expect(describeConnectFailure('rediss://:s3cret@127.0.0.1:6380', error, { from: 'REDIS_URL' })).toBe(
      'Redis at rediss://:***@127.0.0.1:6380: its TLS certificate is for DNS:redis.internal.test, DNS:redis-2.internal.test, not 127.0.0.1: name the server in REDIS_URL as its certificate does (its CA is trusted here)',
    );
    const noNames = Object.assign(new Error('Hostname/IP does not match'), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      host: 'redis.example',
      cert: { subject: { CN: 'other.example' } },
    });
    expect(describeConnectFailure('rediss://redis.example:6380', noNames, { from: '--redis-url' })).toBe(
      'Redis at rediss://redis.example:6380: its TLS certificate is for CN=other.example, not redis.example: name the server in --redis-url as its certificate does (its CA is trusted here)',
    );
  });

  it('names a certificate expired, or not valid yet, with no word of NODE_EXTRA_CA_CERTS', () => {
    const expired = Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' });
    expect(describeConnectFailure('rediss://127.0.0.1:6380', expired)).toBe(
      "Redis at rediss://127.0.0.1:6380: its TLS certificate has expired (certificate has expired): the server's certificate must be renewed (or this machine's clock is wrong)",
    );
    const early = Object.assign(new Error('certificate is not yet valid'), { code: 'CERT_NOT_YET_VALID' });
    expect(describeConnectFailure('rediss-cluster://h:7000,h:7001', early)).toBe(
      "Redis Cluster at rediss-cluster://h:7000,h:7001: its TLS certificate is not valid yet (certificate is not yet valid): check this machine's clock and the server's",
    );
  });

  it('keeps "not reachable" for a Redis that does not answer', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(describeConnectFailure('redis://127.0.0.1:1', error)).toMatch(
      /^Redis is not reachable at redis:\/\/127\.0\.0\.1:1 \(connect ECONNREFUSED 127\.0\.0\.1:1\)\. Start one/,
    );
  });

  describe('says what to change where the URL came from', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:43998'), {
      code: 'ECONNREFUSED',
    });
    const at = 'redis://:s3cret@127.0.0.1:43998';

    it('--redis-url: names the option, not REDIS_URL (which it overrides)', () => {
      expect(describeConnectFailure(at, refused, { from: '--redis-url' })).toBe(
        'Redis is not reachable at redis://:***@127.0.0.1:43998 (connect ECONNREFUSED 127.0.0.1:43998). Check --redis-url, or start the Redis it names.',
      );
      expect(
        describeConnectFailure(at, reply('NOAUTH Authentication required.'), { from: '--redis-url' }),
      ).toBe(
        'Redis at redis://:***@127.0.0.1:43998 wants a password: put it in --redis-url as redis://:PASSWORD@127.0.0.1:43998',
      );
    });

    it('REDIS_URL: check it (as it is now), not set it', () => {
      expect(describeConnectFailure(at, refused, { from: 'REDIS_URL' })).toBe(
        'Redis is not reachable at redis://:***@127.0.0.1:43998 (connect ECONNREFUSED 127.0.0.1:43998). Check REDIS_URL (now redis://:***@127.0.0.1:43998), or start the Redis it names.',
      );
    });

    it('the default: docker compose only in a checkout that has the file, with the password it needs', () => {
      const local = 'redis://127.0.0.1:6379';
      const refusedHere = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), {
        code: 'ECONNREFUSED',
      });
      expect(describeConnectFailure(local, refusedHere)).toBe(
        'Redis is not reachable at redis://127.0.0.1:6379 (connect ECONNREFUSED 127.0.0.1:6379). Start one (the `redis-server` package), or set REDIS_URL to yours.',
      );
      expect(describeConnectFailure(local, refusedHere, { composeFolder: '/srv/catalog-sync' })).toBe(
        'Redis is not reachable at redis://127.0.0.1:6379 (connect ECONNREFUSED 127.0.0.1:6379). Start one (the `redis-server` package, or in /srv/catalog-sync `docker compose up -d redis` with REDIS_PASSWORD in .env as .env.example shows, then REDIS_URL=redis://:PASSWORD@127.0.0.1:6379), or set REDIS_URL to yours.',
      );
    });
  });

  it('shows a URL without its password', () => {
    expect(displayRedisUrl(url)).toBe('redis://:***@127.0.0.1:6395');
  });
});

describe('describeConnectFailure for REDIS_CLUSTER: the same causes, in its words', () => {
  const nodes = '127.0.0.1:7000,127.0.0.1:7001';

  it('names a password wanted, with the form REDIS_CLUSTER takes', () => {
    expect(
      describeConnectFailure(`rediss-cluster://${nodes}`, reply('NOAUTH Authentication required.')),
    ).toBe(
      `Redis Cluster at rediss-cluster://${nodes} wants a password: put it in REDIS_CLUSTER as rediss://:PASSWORD@${nodes}`,
    );
  });

  it('names a password rejected, a user refused and a certificate not trusted', () => {
    const at = `redis-cluster://app:***@${nodes}`;
    expect(describeConnectFailure(at, reply('WRONGPASS invalid username-password pair'))).toMatch(
      /^Redis Cluster at redis-cluster:\/\/app:\*\*\*@127\.0\.0\.1:7000,127\.0\.0\.1:7001 rejected the password \(WRONGPASS .*\): check the one in REDIS_CLUSTER$/,
    );
    expect(
      describeConnectFailure(at, reply("NOPERM this user has no permissions to run the 'ping' command")),
    ).toBe(
      `Redis Cluster at ${at} refused user app a command catalog-sync needs (NOPERM this user has no permissions to run the 'ping' command): grant it with ACL SETUSER app +ping; then run the command again`,
    );
    const certificate = Object.assign(new Error('self-signed certificate in certificate chain'), {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    expect(describeConnectFailure(`rediss-cluster://${nodes}`, certificate)).toMatch(
      /^Redis Cluster at rediss-cluster:\/\/.*: its TLS certificate is not trusted here .*NODE_EXTRA_CA_CERTS.*REDIS_CLUSTER$/,
    );
  });

  it('tells a certificate for other names than an announced node, which REDIS_CLUSTER cannot change', () => {
    const mismatch = (host: string) =>
      Object.assign(new Error(`Hostname/IP does not match certificate's altnames: Host: ${host}.`), {
        code: 'ERR_TLS_CERT_ALTNAME_INVALID',
        host,
        cert: { subjectaltname: 'DNS:redis.example.test' },
      });
    const at = 'rediss-cluster://:***@redis.example.test:7000,127.0.0.2:7000';
    expect(describeConnectFailure(at, mismatch('127.0.0.2'))).toBe(
      `Redis Cluster at ${at}: its TLS certificate is for DNS:redis.example.test, not 127.0.0.2: name the server in REDIS_CLUSTER as its certificate does (its CA is trusted here)`,
    );
    expect(describeConnectFailure(at, mismatch('127.0.0.3'))).toBe(
      `Redis Cluster at ${at}: its TLS certificate is for DNS:redis.example.test, not 127.0.0.3, the address the cluster announces for a node: have its nodes announce the names their certificate holds (cluster-announce-hostname, cluster-preferred-endpoint-type hostname) (its CA is trusted here)`,
    );
  });

  it('hints at redis:// when a TLS hello is answered in clear or not at all', () => {
    const clear = Object.assign(
      new Error('1C0A0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number'),
      {
        code: 'ERR_SSL_WRONG_VERSION_NUMBER',
      },
    );
    expect(describeConnectFailure('rediss://127.0.0.1:6379', clear, { from: 'REDIS_URL' })).toMatch(
      /^Redis is not reachable at rediss:\/\/127\.0\.0\.1:6379 \(.*wrong version number; if that port does not speak TLS, use redis:\/\/\)\. Check REDIS_URL/,
    );
    expect(describeConnectFailure(`rediss-cluster://${nodes}`, new TlsHandshakeTimeout(null))).toBe(
      `Redis Cluster is not reachable at rediss-cluster://${nodes} (TLS handshake timed out; if that port does not speak TLS, use redis://). Check REDIS_CLUSTER: every master must be reachable from here.`,
    );
    // A host out of reach (the TCP connection itself timed out) is no scheme's fault.
    const silent = Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' });
    expect(describeConnectFailure('rediss://127.0.0.1:6379', silent, { from: 'REDIS_URL' })).toBe(
      'Redis is not reachable at rediss://127.0.0.1:6379 (connect ETIMEDOUT). Check REDIS_URL (now rediss://127.0.0.1:6379), or start the Redis it names.',
    );
  });

  it('hints at TLS when a plain connection is reset', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(describeConnectFailure(`redis-cluster://${nodes}`, reset)).toBe(
      `Redis Cluster is not reachable at redis-cluster://${nodes} (read ECONNRESET; if that port speaks TLS, use rediss://). Check REDIS_CLUSTER: every master must be reachable from here.`,
    );
  });
});

describe('INFO: what makes a Redis unfit for writing', () => {
  const info = (lines: string) =>
    parseServerInfo(
      `# Server\r\nredis_version:7.0.15\r\n# Memory\r\nused_memory:1048576\r\nmaxmemory:6291456\r\nmaxmemory_policy:noeviction\r\n# Replication\r\nrole:master\r\n${lines}`,
    );

  it('reads memory, policy and role', () => {
    expect(info('')).toEqual({
      version: '7.0.15',
      role: 'master',
      primary: null,
      usedMemory: 1048576,
      maxmemory: 6291456,
      policy: 'noeviction',
    });
  });

  it('refuses a replica, naming its primary, and an eviction policy unless allowed', () => {
    const replica = parseServerInfo('role:slave\r\nmaster_host:10.0.0.5\r\nmaster_port:6379\r\n');
    expect(unfitForWrites('redis://r:6379', replica, { allowEviction: false })).toBe(
      'Redis at redis://r:6379 is a read-only replica (of 10.0.0.5:6379): point REDIS_URL at its primary',
    );
    const lru = parseServerInfo('redis_version:7.2.0\r\nmaxmemory_policy:allkeys-lru\r\n');
    expect(unfitForWrites('redis://r:6379', lru, { allowEviction: false })).toMatch(
      /evicts keys when it is full \(maxmemory-policy allkeys-lru\)/,
    );
    expect(unfitForWrites('redis://r:6379', lru, { allowEviction: true })).toBeNull();
    expect(unfitForWrites('redis://r:6379', info(''), { allowEviction: false })).toBeNull();
  });

  it('sizes a run as BENCHMARKS.md measured it: 1104 bytes a row kept, 290 while queued (20,000 at most)', () => {
    expect(runNeedBytes(1000)).toBe(1000 * 1104 + 1000 * 290);
    expect(runNeedBytes(100_000)).toBe(100_000 * 1104 + 20_000 * 290);
    expect(formatBytes(runNeedBytes(20_000))).toBe('27 MiB');
  });

  it('adds the source values a queued row carries (report --failed-only) to its queued cost', () => {
    expect(runNeedBytes(1000, 100)).toBe(1000 * 1104 + 1000 * (290 + 100));
    expect(runNeedBytes(100_000, 100)).toBe(100_000 * 1104 + 20_000 * (290 + 100));
  });
});
