import { afterEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { startWooDouble, type WooDouble } from '../../../src/sources/stores/woocommerce/double.js';
import { sampleCategories } from '../../../src/sources/stores/woocommerce/sample-store.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { runStore } from './store-cli.js';
import { simpleWooStore } from './woo-numbered-store.js';

const KEYS = { consumerKey: 'ck_double_0123456789', consumerSecret: 'cs_double_9876543210' };
const WOO_ENV = {
  WOO_CONSUMER_KEY: KEYS.consumerKey,
  WOO_CONSUMER_SECRET: KEYS.consumerSecret,
  // The reader's beat as a seam: a mark left behind would hold the next run for three of them.
  CATALOG_SYNC_PRODUCING_BEAT_MS: '1000',
};

describe('a store whose read broke, run again at once', () => {
  const pipeline = usePipeline();
  let woo: WooDouble | undefined;
  afterEach(async () => {
    await woo?.close();
    woo = undefined;
  });

  it('the run that ended early left no reader mark: the next run reads the store at once', async () => {
    woo = await startWooDouble(simpleWooStore(150), sampleCategories(), { ...KEYS });
    // Page 2 (offset 99: pages overlap by one) drops the connection on every try.
    woo.seams.failPage = { offset: 99, answer: 'reset' };
    const broken = await runStore(pipeline, woo.source, [], WOO_ENV);
    expect(broken.result.code).toBe(2);
    expect(broken.result.stderr).toContain('Run it again once the source reads to its end');
    const id = runIdOf(broken.result.stdout);
    const mark = await withRedis((redis) => redis.exists(new RedisKeys(pipeline.prefix).producing(id)));
    expect(mark).toBe(0);

    woo.seams.failPage = undefined;
    const again = await runStore(pipeline, woo.source, [], WOO_ENV);

    expect(again.result.code, again.result.stderr).toBe(0);
    expect(again.result.stderr).not.toContain("left a reader's mark");
    expect(pipeline.products()).toHaveLength(150);
  });
});
