import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { makeTestCertificates, signTestCertificate } from '../../support/test-ca.js';
import { freePort } from './own-redis.js';

/**
 * Why the cluster tests cannot run here, or null: `redis-server` must start with
 * `--cluster-enabled yes` and `redis-cli --cluster create` must exist (.ci/run installs both).
 */
export function clusterUnsupported(): string | null {
  if (spawnSync('redis-cli', ['--version'], { stdio: 'ignore' }).status !== 0)
    return 'redis-cli is not installed';
  const help = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (help.status !== 0) return 'redis-server is not installed';
  const major = Number(/v=(\d+)/.exec(help.stdout)?.[1] ?? 0);
  if (major < 5) return `redis-server ${major}.x: redis-cli --cluster needs Redis 5 or newer`;
  return null;
}

/** How the cluster's nodes are spoken to: a password on each (`requirepass`), TLS on every port. */
export interface ClusterSecurity {
  password?: string;
  tls?: boolean;
  /**
   * The names the nodes' certificate holds, as a subjectAltName (`DNS:localhost`); default
   * `IP:127.0.0.1`. One certificate for every node, as a managed cluster's wildcard is.
   */
  certificateFor?: string;
  /**
   * A host name every node announces (`cluster-announce-hostname`, and `cluster-preferred-endpoint-type
   * hostname`: CLUSTER SLOTS then names the nodes by it, as a managed cluster's do).
   */
  announceHostname?: string;
}

/**
 * Why a TLS cluster cannot be started here, or null: it needs `openssl` (for a CA of the test's
 * own) and a `redis-server` built with TLS.
 */
export function tlsUnsupported(): string | null {
  if (spawnSync('openssl', ['version'], { stdio: 'ignore' }).status !== 0) return 'openssl is not installed';
  // Certificates that do not exist: a build with TLS stops at once on them, one without on the directive.
  const tried = spawnSync(
    'redis-server',
    ['--port', '0', '--tls-port', '1', '--tls-cert-file', '/nonexistent', '--tls-key-file', '/nonexistent'],
    { encoding: 'utf8', timeout: 5_000 },
  );
  const said = `${tried.stdout}${tried.stderr}`;
  return /Bad directive|TLS not supported/i.test(said) ? 'redis-server is built without TLS' : null;
}

/** How the cluster is laid out: replicas per master, and how soon a silent node is failed over. */
export interface ClusterLayout {
  /** `redis-cli --cluster create --cluster-replicas N` (default 0: masters only). */
  replicas?: number;
  /** `cluster-node-timeout`: a master silent this long is failed and its replica promoted. */
  nodeTimeoutMs?: number;
}

/** A 3-master Redis Cluster on free loopback ports, nothing on disk, in a temporary directory. */
export class TestCluster {
  private readonly children = new Map<number, ChildProcess>();
  private constructor(
    readonly ports: number[],
    readonly dir: string,
    readonly security: ClusterSecurity,
    readonly layout: ClusterLayout,
  ) {}

  /** The nodes, `host:port,…`. */
  get nodes(): string {
    return this.nodesNamed('127.0.0.1');
  }

  /** The nodes under another name of this machine (`localhost`), `host:port,…`. */
  nodesNamed(host: string): string {
    return this.ports.map((port) => `${host}:${port}`).join(',');
  }

  /** `REDIS_CLUSTER`'s value: the nodes, after the scheme and password a client needs. */
  get value(): string {
    return this.valueNamed('127.0.0.1');
  }

  /** `REDIS_CLUSTER`'s value with the nodes named `host`. */
  valueNamed(host: string): string {
    const { password, tls } = this.security;
    if (!password && !tls) return this.nodesNamed(host);
    return `${tls ? 'rediss' : 'redis'}://${password ? `:${encodeURIComponent(password)}@` : ''}${this.nodesNamed(host)}`;
  }

  /** The CA that signed the nodes' certificate (TLS only): NODE_EXTRA_CA_CERTS of a client. */
  get caFile(): string {
    return join(this.dir, 'ca.pem');
  }

  static async start(
    masters = 3,
    security: ClusterSecurity = {},
    layout: ClusterLayout = {},
  ): Promise<TestCluster> {
    const dir = await mkdtemp(join(tmpdir(), 'catalog-sync-cluster-'));
    const ports: number[] = [];
    const replicas = layout.replicas ?? 0;
    while (ports.length < masters * (1 + replicas)) {
      const port = await freePort();
      // The cluster bus listens on port + 10000: keep both free and below 65536.
      if (port < 55_000 && !ports.includes(port)) ports.push(port);
    }
    const cluster = new TestCluster(ports, dir, security, layout);
    try {
      if (security.tls) {
        makeTestCertificates(dir);
        // Its own certificate in the place of the one for 127.0.0.1 (redis-cli checks no name).
        if (security.certificateFor) {
          const named = signTestCertificate(dir, 'named', security.certificateFor);
          await rename(named.cert, join(dir, 'server.pem'));
          await rename(named.key, join(dir, 'server.key'));
        }
      }
      for (const port of ports) cluster.startNode(port);
      await cluster.waitFor(async () => {
        for (const port of ports) if ((await cluster.node(port, (r) => r.ping())) !== 'PONG') return false;
        return true;
      }, 'the nodes to answer');
      const created = spawnSync(
        'redis-cli',
        [
          ...cluster.cliSecurity(),
          '--cluster',
          'create',
          ...ports.map((p) => `127.0.0.1:${p}`),
          '--cluster-replicas',
          String(replicas),
          '--cluster-yes',
        ],
        { encoding: 'utf8', timeout: 20_000 },
      );
      if (created.status !== 0)
        throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
      // Every node must agree before a client reads the slots from any of them.
      await cluster.waitFor(async () => {
        for (const port of ports) {
          const info = String(await cluster.node(port, (r) => r.cluster('INFO')));
          if (!info.includes('cluster_state:ok') || !info.includes('cluster_slots_ok:16384')) return false;
        }
        return true;
      }, 'cluster_state:ok on every node');
      if (replicas > 0) await cluster.replicasInSync();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** What redis-cli needs to be let in. */
  private cliSecurity(): string[] {
    const { password, tls } = this.security;
    return [
      ...(tls ? ['--tls', '--cacert', this.caFile] : []),
      ...(password ? ['-a', password, '--no-auth-warning'] : []),
    ];
  }

  /** Waits until every replica has its master's data (a failover may promote it). */
  async replicasInSync(): Promise<void> {
    await this.waitFor(async () => {
      for (const port of this.alivePorts()) {
        const info = String(await this.node(port, (r) => r.info('replication')));
        if (info.includes('role:slave') && !info.includes('master_link_status:up')) return false;
        if (!info.includes('role:')) return false;
      }
      return true;
    }, 'every replica in sync');
  }

  /** The ports whose node runs (not killed). */
  alivePorts(): number[] {
    return this.ports.filter((port) => {
      const child = this.children.get(port);
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    });
  }

  /** Kills a node as a crash would (SIGKILL); resolves once its process is gone. */
  async kill(port: number): Promise<void> {
    const child = this.children.get(port);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /** Starts a killed node again on its port: it rejoins the cluster (a former master as a replica). */
  async revive(port: number): Promise<void> {
    if (this.alivePorts().includes(port)) return;
    this.startNode(port);
    await this.waitFor(async () => (await this.node(port, (r) => r.ping())) === 'PONG', 'the node to answer');
  }

  private startNode(port: number): void {
    const { password, tls } = this.security;
    const listen = tls
      ? // Its replicas too speak TLS to it (the plain port is off).
        [
          '--port',
          '0',
          '--tls-port',
          String(port),
          '--tls-cluster',
          'yes',
          '--tls-replication',
          'yes',
          '--tls-auth-clients',
          'no',
        ]
      : ['--port', String(port)];
    const certificates = tls
      ? ['--tls-cert-file', 'server.pem', '--tls-key-file', 'server.key', '--tls-ca-cert-file', 'ca.pem']
      : [];
    const auth = password ? ['--requirepass', password, '--masterauth', password] : [];
    const { announceHostname } = this.security;
    const announce = announceHostname
      ? ['--cluster-announce-hostname', announceHostname, '--cluster-preferred-endpoint-type', 'hostname']
      : [];
    const timeout = this.layout.nodeTimeoutMs
      ? ['--cluster-node-timeout', String(this.layout.nodeTimeoutMs)]
      : [];
    const child = spawn(
      'redis-server',
      [
        ...listen,
        ...certificates,
        ...auth,
        ...announce,
        ...timeout,
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.dir,
      ],
      { cwd: this.dir, stdio: 'ignore' },
    );
    this.children.set(port, child);
  }

  /** Runs `body` on a plain connection to one node (a command of that node only); null when it fails. */
  async node<T>(port: number, body: (redis: Redis) => Promise<T>): Promise<T | null> {
    const redis = new Redis(port, '127.0.0.1', {
      lazyConnect: true,
      retryStrategy: () => null,
      ...this.clientSecurity(),
    });
    redis.on('error', () => {});
    try {
      await redis.connect();
      return await body(redis);
    } catch {
      return null;
    } finally {
      redis.disconnect();
    }
  }

  private async waitFor(ready: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if ([...this.children.values()].some((child) => child.exitCode !== null))
        throw new Error(`a cluster node exited (${what})`);
      if (await ready()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the test cluster never reached ${what}`);
  }

  /** `ACL SETUSER name …rules` on every node (a cluster's ACLs are per node): a user of the test's own. */
  async aclSetUser(name: string, rules: string[]): Promise<void> {
    for (const port of this.ports) {
      const said = await this.node(port, (redis) => redis.acl('SETUSER', name, ...rules));
      if (said !== 'OK') throw new Error(`ACL SETUSER ${name} failed on node ${port}`);
    }
  }

  /** A cluster client of the test's own (keys, CLUSTER KEYSLOT); quit it after. */
  client(): Cluster {
    return new Cluster(
      this.ports.map((port) => ({ host: '127.0.0.1', port })),
      { redisOptions: { maxRetriesPerRequest: 3, ...this.clientSecurity() } },
    );
  }

  /**
   * What a client of the test's own needs to be let in. It reaches the nodes at 127.0.0.1 whatever
   * names their certificate holds: it checks the chain, not the name (the tool's checks are tested).
   */
  private clientSecurity(): {
    password?: string;
    tls?: { ca: Buffer; checkServerIdentity?: () => undefined };
  } {
    const { password, tls, certificateFor } = this.security;
    const anyName = certificateFor ? { checkServerIdentity: () => undefined } : {};
    return {
      ...(password ? { password } : {}),
      ...(tls ? { tls: { ca: readFileSync(this.caFile), ...anyName } } : {}),
    };
  }

  /** Every key of every master that starts with `prefix:` (SCAN on each master: a cluster has no global SCAN). */
  async keys(prefix: string): Promise<string[]> {
    const found: string[] = [];
    for (const port of this.ports) {
      await this.node(port, async (redis) => {
        // A replica holds its master's keys again.
        if (String(await redis.info('replication')).includes('role:slave')) return;
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
          cursor = next;
          found.push(...keys);
        } while (cursor !== '0');
      });
    }
    return found.sort();
  }

  async stop(): Promise<void> {
    await Promise.all(
      [...this.children.values()].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** One cluster for the test file: started before its tests, stopped after. */
export function useTestCluster(
  security: ClusterSecurity = {},
  layout: ClusterLayout = {},
): { cluster: TestCluster } {
  const holder = {} as { cluster: TestCluster };
  beforeAll(async () => {
    holder.cluster = await TestCluster.start(3, security, layout);
  }, 60_000);
  afterAll(async () => {
    await holder.cluster?.stop();
  });
  return holder;
}
