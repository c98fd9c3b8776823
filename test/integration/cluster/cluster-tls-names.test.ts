import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';
import { clusterUnsupported, tlsUnsupported, useTestCluster } from '../support/redis-cluster.js';

const PASSWORD = 'cluster-names-pw';
const unsupported = clusterUnsupported() ?? tlsUnsupported();

/**
 * A TLS cluster set up as managed ones are (ElastiCache, Azure…): the nodes' certificate names host
 * names, not addresses, and the nodes announce themselves by host name. ioredis resolves the nodes
 * REDIS_CLUSTER names to addresses before connecting, so the certificate was checked against
 * 127.0.0.1 and every such cluster ended in "no node answered".
 */
describe.skipIf(unsupported !== null)(
  `on a TLS Redis Cluster whose certificate is for DNS:localhost only${unsupported ? `: skipped, ${unsupported}` : ''}`,
  () => {
    const holder = useTestCluster({
      password: PASSWORD,
      tls: true,
      certificateFor: 'DNS:localhost',
      announceHostname: 'localhost',
    });
    const pipeline = usePipeline();

    async function cli(args: string[], redisCluster: string) {
      const child = pipeline.spawn(args, {
        REDIS_URL: 'redis://127.0.0.1:1',
        REDIS_CLUSTER: redisCluster,
        NODE_EXTRA_CA_CERTS: holder.cluster.caFile,
      });
      const { code } = await child.exited;
      return { code, stdout: child.stdout(), stderr: child.stderr() };
    }

    /** `CONFIG SET` on every node: how they announce themselves, changed for one case. */
    async function announce(type: 'hostname' | 'ip'): Promise<void> {
      for (const port of holder.cluster.ports) {
        const said = await holder.cluster.node(port, (redis) =>
          redis.config('SET', 'cluster-preferred-endpoint-type', type),
        );
        expect(said).toBe('OK');
      }
    }

    it('syncs with the nodes named as their certificate names them', { timeout: 60_000 }, async () => {
      const rows = catalogRows(30);
      const source = await pipeline.csv('catalog.csv', rows);
      const result = await cli(['run', source], holder.cluster.valueNamed('localhost'));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('rows      30: 30 created');
      expect(pipeline.products(MAIN_SELLER)).toHaveLength(rows.length);
      expect((await holder.cluster.keys(pipeline.prefix)).length).toBeGreaterThan(0);
    });

    it('names the nodes by an address the certificate lacks: the line REDIS_URL gives, exit 2', async () => {
      const result = await cli(['status'], holder.cluster.valueNamed('127.0.0.1'));
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `catalog-sync: Redis Cluster at rediss-cluster://:***@${holder.cluster.nodesNamed('127.0.0.1')}: its TLS certificate is for DNS:localhost, not 127.0.0.1: name the server in REDIS_CLUSTER as its certificate does (its CA is trusted here)\n`,
      );
    });

    it('a cluster announcing its nodes by address, a certificate for host names: says so in one line, exit 2', async () => {
      await announce('ip');
      try {
        const result = await cli(['status'], holder.cluster.valueNamed('localhost'));
        expect(result.code).toBe(2);
        expect(result.stderr).toBe(
          `catalog-sync: Redis Cluster at rediss-cluster://:***@${holder.cluster.nodesNamed('localhost')}: its TLS certificate is for DNS:localhost, not 127.0.0.1, the address the cluster announces for a node: have its nodes announce the names their certificate holds (cluster-announce-hostname, cluster-preferred-endpoint-type hostname) (its CA is trusted here)\n`,
        );
      } finally {
        await announce('hostname');
      }
    });
  },
);
