import { describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows, priceNumber } from '../support/catalog.js';
import { bySku, MAIN_SELLER, usePipeline } from '../support/pipeline.js';
import { clusterUnsupported, tlsUnsupported, useTestCluster } from '../support/redis-cluster.js';

const PASSWORD = 's3cr3t/with:odd@chars';
const unsupported = clusterUnsupported() ?? tlsUnsupported();

/**
 * A cluster as a managed one is set up: a password on every node, TLS on every port (the cluster
 * bus too), a certificate of a CA the machine does not trust. The CLI runs as a user runs it (a
 * process of its own), since NODE_EXTRA_CA_CERTS is read when Node starts.
 */
describe.skipIf(unsupported !== null)(
  `on a Redis Cluster with a password and TLS (REDIS_CLUSTER=rediss://:PASSWORD@…)${unsupported ? `: skipped, ${unsupported}` : ''}`,
  () => {
    const holder = useTestCluster({ password: PASSWORD, tls: true });
    const pipeline = usePipeline();

    /** `catalog-sync …args` as a process, against the cluster; resolves once it has exited. */
    async function cli(args: string[], env: NodeJS.ProcessEnv) {
      const child = pipeline.spawn(args, { REDIS_URL: 'redis://127.0.0.1:1', ...env });
      const { code } = await child.exited;
      return { code, stdout: child.stdout(), stderr: child.stderr() };
    }
    const trusted = () => ({
      REDIS_CLUSTER: holder.cluster.value,
      NODE_EXTRA_CA_CERTS: holder.cluster.caFile,
    });

    it('syncs each row exactly once, a re-run writes nothing, and the password is nowhere in the output', async () => {
      const rows: CatalogRow[] = catalogRows(150);
      const source = await pipeline.csv('catalog.csv', rows);

      const first = await cli(['run', source], trusted());
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('rows      150: 150 created');
      const again = await cli(['run', source], trusted());
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('rows      150: 0 created, 0 updated, 150 unchanged');

      const stored = bySku(pipeline.products(MAIN_SELLER));
      expect(pipeline.products(MAIN_SELLER)).toHaveLength(rows.length);
      for (const row of rows) {
        expect(stored.get(row.sku)).toMatchObject({ name: row.name, price: priceNumber(row.price) });
      }
      const keys = await holder.cluster.keys(pipeline.prefix);
      expect(keys.length).toBeGreaterThan(0);
      for (const output of [first, again]) expect(`${output.stdout}${output.stderr}`).not.toContain('s3cr3t');
    });

    it.each([
      [
        'no password',
        () => ({
          REDIS_CLUSTER: `rediss://${holder.cluster.nodes}`,
          NODE_EXTRA_CA_CERTS: holder.cluster.caFile,
        }),
        /^catalog-sync: Redis Cluster at rediss-cluster:\/\/127\.0\.0\.1:\d+,.* wants a password: put it in REDIS_CLUSTER as rediss:\/\/:PASSWORD@127\.0\.0\.1:\d+,/,
      ],
      [
        'a wrong password',
        () => ({
          REDIS_CLUSTER: `rediss://:not-${encodeURIComponent(PASSWORD)}@${holder.cluster.nodes}`,
          NODE_EXTRA_CA_CERTS: holder.cluster.caFile,
        }),
        /^catalog-sync: Redis Cluster at rediss-cluster:\/\/:\*\*\*@127\.0\.0\.1:\d+,.* rejected the password \(WRONGPASS .*\): check the one in REDIS_CLUSTER$/,
      ],
      [
        'a CA not trusted',
        () => ({ REDIS_CLUSTER: holder.cluster.value }),
        /^catalog-sync: Redis Cluster at rediss-cluster:\/\/:\*\*\*@.*: its TLS certificate is not trusted here \(.*\); give its CA with NODE_EXTRA_CA_CERTS=/,
      ],
      [
        'no TLS',
        () => ({ REDIS_CLUSTER: `redis://:${encodeURIComponent(PASSWORD)}@${holder.cluster.nodes}` }),
        /^catalog-sync: Redis Cluster is not reachable at redis-cluster:\/\/:\*\*\*@.* \(.*ECONNRESET; if that port speaks TLS, use rediss:\/\/\)/,
      ],
    ])('%s: one line saying what to change, exit 2, the password never shown', async (_case, env, line) => {
      const result = await cli(['status'], env());
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr.trim()).toMatch(line);
      expect(result.stderr).not.toContain('s3cr3t');
    });
  },
);
