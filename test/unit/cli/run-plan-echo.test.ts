import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RunPlanEcho } from '../../../src/cli/run-plan-echo.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import type { RunRecord } from '../../../src/runs/run-store.js';

const LINE = 'plan      up to 21 requests; the daily limit is not known (--daily-budget N tells it)';

/** A Redis whose run records hold `kept` as their plan line; counts its reads. */
function fakeRuntime(kept: string | null) {
  const reads: string[] = [];
  const redis = {
    hget: async (key: string) => {
      reads.push(key);
      return kept;
    },
  } as unknown as Redis;
  return { runtime: { redis, keys: new RedisKeys('cs-unit-plan') }, reads };
}

function record(fields: Partial<RunRecord>): RunRecord {
  return { id: 'run-a', state: 'running', dryRun: false, ...fields } as RunRecord;
}

describe('RunPlanEcho: the plan line of the run a `run` waits for', () => {
  it('prints the line its own worker said once, and reads nothing more', async () => {
    const out: string[] = [];
    const { runtime, reads } = fakeRuntime(LINE);
    const echo = new RunPlanEcho({ write: (text: string) => out.push(text) }, () => 'run-a');
    echo.heard('run-a', LINE);
    echo.heard('run-a', LINE);
    await echo.look(runtime, record({ state: 'done' }));
    expect(out).toEqual([`${LINE}\n`]);
    expect(reads).toEqual([]);
  });

  it('prints the line another process kept, once, when the wait sees the run begun', async () => {
    const out: string[] = [];
    const { runtime } = fakeRuntime(LINE);
    const echo = new RunPlanEcho({ write: (text: string) => out.push(text) }, () => 'run-a');
    await echo.look(runtime, record({ state: 'queued' }));
    expect(out).toEqual([]);
    await echo.look(runtime, record({ state: 'running' }));
    await echo.look(runtime, record({ state: 'done' }));
    echo.heard('run-a', LINE);
    expect(out).toEqual([`${LINE}\n`]);
  });

  it('says nothing for another run, a dry run, or before any line is kept', async () => {
    const out: string[] = [];
    const echo = new RunPlanEcho({ write: (text: string) => out.push(text) }, () => 'run-a');
    echo.heard('run-b', LINE);
    await echo.look(fakeRuntime(LINE).runtime, record({ id: 'run-b' }));
    await echo.look(fakeRuntime(LINE).runtime, record({ dryRun: true }));
    await echo.look(fakeRuntime(null).runtime, record({}));
    expect(out).toEqual([]);
  });
});
