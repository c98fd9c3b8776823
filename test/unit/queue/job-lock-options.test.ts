import { describe, expect, it } from 'vitest';
import { sellerWorkersOptions } from '../../../src/cli/worker-deps.js';
import { readCommonConfig } from '../../../src/config.js';
import { jobLockOptions } from '../../../src/queue/seller-workers.js';

/** The BullMQ options a worker process gets from its environment, as `worker` and `run` build them. */
const lockOptionsOf = (env: NodeJS.ProcessEnv) =>
  jobLockOptions(sellerWorkersOptions(readCommonConfig(env), 8));

describe("the workers' job lock", () => {
  it('takes a killed worker’s jobs back within 15 s by default: lock + stall check', () => {
    const { lockDuration, stalledInterval } = lockOptionsOf({});

    expect(lockDuration + stalledInterval).toBeLessThanOrEqual(15_000);
  });

  it('is renewed by a live worker at least twice per lock, so only one cut off from Redis for a whole lock loses it', () => {
    const { lockDuration, lockRenewTime } = lockOptionsOf({});

    expect(lockRenewTime).toBeLessThanOrEqual(lockDuration / 2);
  });

  it('scales with CATALOG_SYNC_LOCK_MS and CATALOG_SYNC_STALL_CHECK_MS (the seam of the worker-death test)', () => {
    expect(lockOptionsOf({ CATALOG_SYNC_LOCK_MS: '1000', CATALOG_SYNC_STALL_CHECK_MS: '300' })).toEqual({
      lockDuration: 1000,
      lockRenewTime: 500,
      stalledInterval: 300,
    });
  });
});
