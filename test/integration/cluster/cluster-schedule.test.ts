import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import { catalogRows } from '../support/catalog.js';
import { waitUntilDone } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { clusterUnsupported, useTestCluster } from '../support/redis-cluster.js';

const unsupported = clusterUnsupported();

describe.skipIf(unsupported !== null)(
  `scheduled imports on a Redis Cluster of 3 masters${unsupported ? `: skipped, ${unsupported}` : ''}`,
  () => {
    const holder = useTestCluster();
    const pipeline = usePipeline();
    const onCluster = () => ({ REDIS_CLUSTER: holder.cluster.nodes, REDIS_URL: 'redis://127.0.0.1:1' });

    it('a `worker` runs a job when its schedule fires (the queue under the global tag)', async () => {
      const jobsDir = join(pipeline.dir, 'jobs');
      await mkdir(jobsDir);
      const rows = catalogRows(30);
      await pipeline.csv('catalog.csv', rows);
      await writeFile(join(jobsDir, 'nightly.yml'), 'source: catalog.csv\nschedule: "* * * * * *"\n', 'utf8');
      const scheduled = await pipeline.cli(['schedule', '--jobs', jobsDir], onCluster());
      expect(scheduled.code, scheduled.stderr).toBe(0);
      expect(await holder.cluster.keys(`${pipeline.prefix}:scheduled-imports-{global}`)).not.toEqual([]);

      const worker = pipeline.spawn(['worker', '--jobs', jobsDir], { ...onCluster(), LOG_LEVEL: 'info' });
      const [, runId] = await worker.waitForStderr(/scheduled import nightly queued as run (\S+?)"/);
      await waitUntilDone((args) => pipeline.cli(args, onCluster()), runId as string, 20_000);

      // Unschedule first: a second firing would only re-run an unchanged catalog, but end it here.
      await writeFile(join(jobsDir, 'nightly.yml'), 'source: catalog.csv\n', 'utf8');
      expect((await pipeline.cli(['schedule', '--jobs', jobsDir], onCluster())).code).toBe(0);
      expectExactCatalog(pipeline.products(), rows);
      worker.process.kill('SIGTERM');
      expect(await worker.exited).toEqual({ code: 0, signal: null });
    });
  },
);
