import { afterEach, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';
import { pricesDoubledHeld } from '../support/held-run.js';
import { type Pipeline, usePipeline } from '../support/pipeline.js';
import { RedisStall } from '../support/redis-stall.js';

async function statusOf(pipeline: Pipeline, runId: string) {
  return JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout) as Record<string, unknown>;
}

/** The line once `settled` of the 20 approved rows settled: the others stay queued. */
function queuedLine(signal: string, runId: string, settled = 0): string {
  return (
    `catalog-sync: interrupted (${signal}): ${settled} of the 20 approved rows of run ${runId} settled before it stopped, ` +
    `${20 - settled} stay queued and go on with any \`catalog-sync worker\` or another \`catalog-sync approve ${runId}\`.`
  );
}

/**
 * `approve` interrupted (Ctrl-C, SIGTERM) at each of its steps ends with one line saying the state
 * it left, exit 130/143, never silently. The steps between Redis commands are caught through a
 * relay that holds a command back (RedisStall); no timing is relied on.
 */
describe('approve, interrupted', () => {
  const pipeline = usePipeline();
  let stall: RedisStall | null = null;
  afterEach(async () => {
    await stall?.close();
    stall = null;
  });

  it('while it queues its writes: lets the queueing finish, says they are queued, exits 130', {
    timeout: 30_000,
  }, async () => {
    const runId = await pricesDoubledHeld(pipeline);
    // START_SCRIPT (queue/approval.ts) is the first command of approve's naming this field.
    stall = await RedisStall.start('approvalRows');
    const approve = pipeline.spawn(['approve', runId], { REDIS_URL: stall.url });
    await stall.stalled;

    approve.process.kill('SIGINT');
    stall.release();

    expect(await approve.exited).toEqual({ code: 130, signal: null });
    expect(approve.stderr().trim().split('\n')).toEqual([queuedLine('SIGINT', runId)]);
    // As the line says: queued (not to be finished once its heartbeat is silent), nothing sent yet.
    const status = await statusOf(pipeline, runId);
    expect(status).toMatchObject({ state: 'running', approvedQueued: 20 });
    expect(status.approvalUnqueued).toBeUndefined();
    const text = (await pipeline.cli(['status', runId])).stdout;
    expect(text).toMatch(new RegExp(`^run ${runId}: running$`, 'm'));
    expect(text).toContain('  rows      0 settled of 20, 20 approved and queued (not sent yet)');
    expect(pipeline.sandbox.stats().byRoute['PUT /products'] ?? 0).toBe(0);
    // … and the next approve sends them.
    const next = await pipeline.cli(['approve', runId]);
    expect(next.stderr).toContain(`the writes of run ${runId}'s approval are queued already: sending them`);
    expect(next.stdout).toMatch(new RegExp(`^run ${runId}: done in `, 'm'));
    expect(next.code).toBe(0);
  });

  it('before it began: nothing approved, exits 143 on SIGTERM, the run still held', {
    timeout: 30_000,
  }, async () => {
    const runId = await pricesDoubledHeld(pipeline);
    // Its first command naming the run: reading its record.
    stall = await RedisStall.start(runId);
    const approve = pipeline.spawn(['approve', runId], { REDIS_URL: stall.url });
    await stall.stalled;

    approve.process.kill('SIGTERM');
    stall.release();

    expect(await approve.exited).toEqual({ code: 143, signal: null });
    expect(approve.stderr().trim().split('\n')).toEqual([
      'catalog-sync: interrupted (SIGTERM) before the approval began: nothing was approved, queued or sent',
    ]);
    expect(await statusOf(pipeline, runId)).toMatchObject({ state: 'held' });
  });
});

/** In this process, through the rig's interrupt (CliIo.signals), once the writes are queued. */
describe('approve, interrupted in-process once its writes are queued', () => {
  let holding = false;
  let putHeld: () => void = () => {};
  let release: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    release = resolve;
  });
  // The first PUT, once `holding`, waits until released: the approval's writes are under way.
  const pipeline = usePipeline({
    hold: (request) => {
      if (!holding || request.method !== 'PUT') return undefined;
      putHeld();
      return answered;
    },
  });
  // Registered after usePipeline, so it runs first: the sandbox answers what it held, then closes.
  afterEach(() => release());

  it('says its line and exits 130', { timeout: 30_000 }, async () => {
    const runId = await pricesDoubledHeld(pipeline);
    const firstPut = new Promise<void>((resolve) => {
      putHeld = resolve;
    });
    holding = true;
    const approve = startCli(['approve', runId, '--concurrency', '1'], pipeline.env);
    await firstPut;

    approve.interrupt();
    release();

    const result = await approve.result;
    expect(result.code).toBe(130);
    // The PUT in flight settles; nothing more is sent once interrupted.
    expect(result.stderr.trim().split('\n')).toEqual([queuedLine('SIGINT', runId, 1)]);
    expect(pipeline.sandbox.stats().byRoute['PUT /products'] ?? 0).toBe(1);
  });
});
