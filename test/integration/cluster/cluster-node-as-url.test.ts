import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { usePipeline } from '../support/pipeline.js';
import { clusterUnsupported, useTestCluster } from '../support/redis-cluster.js';

const unsupported = clusterUnsupported();

/**
 * REDIS_URL (or --redis-url) naming one node of a cluster, database 0: every key whose slot lives on
 * another master was answered MOVED (a stack trace, exit 1), a multi-key command CROSSSLOT, and
 * `status` read nothing and said "no run yet". Each command must say at connect, in one line, that
 * the URL names a cluster node, exit 2, with nothing written to the cluster or sent to the API.
 */
describe.skipIf(unsupported !== null)(
  `REDIS_URL naming one node of a Redis Cluster${unsupported ? `: skipped, ${unsupported}` : ''}`,
  () => {
    const holder = useTestCluster();
    const pipeline = usePipeline();
    const firstNode = () => holder.cluster.nodes.split(',')[0] as string;
    const line = (variable: string) =>
      `catalog-sync: ${variable} names Redis at redis://${firstNode()}, a node of a Redis Cluster (cluster_state:ok): ` +
      `a cluster's keys live on all its masters; name its nodes in REDIS_CLUSTER instead (REDIS_CLUSTER=${firstNode()},…)` +
      `${variable === '--redis-url' ? ', and no --redis-url' : ''}\n`;

    it('run, import, status, report and worker each exit 2 with one line, and nothing is written or sent', {
      timeout: 60_000,
    }, async () => {
      const source = await pipeline.csv('catalog.csv', catalogRows(20));
      const env = { REDIS_URL: `redis://${firstNode()}`, LOG_LEVEL: 'warn' };
      for (const args of [['run', source], ['import', source], ['status'], ['report', 'some-run']]) {
        const result = await pipeline.cli(args, env);
        expect(result.code, `${args[0]}: ${result.stderr}`).toBe(2);
        expect(result.stderr, args[0]).toBe(line('REDIS_URL'));
      }
      const flagged = await pipeline.cli(['status', '--redis-url', `redis://${firstNode()}`]);
      expect(flagged.code, flagged.stderr).toBe(2);
      expect(flagged.stderr).toBe(line('--redis-url'));

      const worker = pipeline.spawn(['worker'], env);
      const ended = await Promise.race([
        worker.exited,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000)),
      ]);
      expect(ended, `worker still running; stderr: ${worker.stderr()}`).toEqual({ code: 2, signal: null });
      expect(worker.stderr()).toBe(line('REDIS_URL'));

      expect(await holder.cluster.keys(pipeline.prefix)).toEqual([]);
      expect(pipeline.sandbox.stats().total).toBe(0);
    });

    it('--redis-url listing several nodes says it names one server and that a cluster goes in REDIS_CLUSTER', async () => {
      const result = await pipeline.cli(['status', '--redis-url', `redis://:pw@${holder.cluster.nodes}`]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        "catalog-sync: --redis-url lists several hosts, but it names one Redis server: name a Redis Cluster's nodes in REDIS_CLUSTER (redis://USER:PASSWORD@host:port,host:port,…), and no --redis-url\n",
      );
    });
  },
);
