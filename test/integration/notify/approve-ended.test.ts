import { describe, expect, it } from 'vitest';
import { parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { useWebhookReceiver } from '../support/webhook-receiver.js';

/** The JSON log lines of a process's stderr (what a log collector reads). */
function jsonLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * A run a guard held (`--max-updates 1`, exit 5), then approved: the approval's last row ends the
 * run (guards/held-rows.ts), and that end is told as every run's end is (queue/finalise.ts): one
 * `ended` webhook with the final state and the counts the report shows, one end log line. The
 * held run's own end was told `held`, never `ended`. `approve --rows` that leaves rows held ends
 * nothing: the run waits again, its hook was told `held` already, its log says `held` with the
 * counts. The API is the sandbox over HTTP, the webhook a receiver on loopback, Redis real.
 */
describe('--notify: a held run that is approved', () => {
  const pipeline = usePipeline();
  const hook = useWebhookReceiver();
  /** The environment of a process that reads the run's webhook back from Redis (approve). */
  const hookEnv = () => ({ CATALOG_SYNC_WEBHOOK_HOSTS: new URL(hook.url).host, LOG_LEVEL: 'info' });
  const events = (event: string) => hook.posts.filter((post) => post.body.event === event);

  /** Four products created, then a read of them all changed, held by `--max-updates 1`: its id. */
  async function heldRun(): Promise<string> {
    const rows = (bump: number) =>
      [1, 2, 3, 4].map((n) => ({
        sku: `A-${n}`,
        name: `A ${n}`,
        price: String(n * 10 + bump),
        quantity: '4',
      }));
    expect((await pipeline.cli(['run', await pipeline.csv('a-1.csv', rows(0))])).code).toBe(0);
    const source = await pipeline.csv('a-2.csv', rows(1));
    const held = await pipeline.cli(['run', source, '--max-updates', '1', '--notify', hook.url]);
    expect(held.code, held.stderr).toBe(5);
    const id = runIdOf(held.stdout);
    expect(events('held')).toHaveLength(1);
    expect(events('ended')).toHaveLength(0);
    return id;
  }

  async function reportCount(id: string, action: string): Promise<number> {
    const report = parseCsv((await pipeline.cli(['report', id])).stdout);
    return report.filter((line) => line.action === action).length;
  }

  it('tells `ended` once, done, with the counts of its report, and logs its end once', async () => {
    const id = await heldRun();

    const approve = await pipeline.cli(['approve', id], hookEnv());

    expect(approve.code, approve.stderr).toBe(0);
    const ended = events('ended');
    expect(ended).toHaveLength(1);
    expect(ended[0]?.body).toMatchObject({
      runId: id,
      state: 'done',
      counts: {
        created: await reportCount(id, 'create'),
        updated: await reportCount(id, 'update'),
        failed: 0,
        skipped: 0,
        held: 0,
        notTried: 0,
      },
    });
    expect(ended[0]?.body.counts).toMatchObject({ updated: 4 });
    expect(ended[0]?.body.text).toBe(
      `catalog-sync run ${id} done: 0 created, 4 updated, 0 failed (seller ${ended[0]?.body.sellerRef})`,
    );
    expect(events('held')).toHaveLength(1);
    const endLines = jsonLines(approve.stderr).filter((line) => line.msg === `run ${id} done`);
    expect(endLines).toHaveLength(1);
    expect(endLines[0]).toMatchObject({ run: id, state: 'done', rows: 4, updated: 4 });
  });

  it('`approve --rows` that leaves rows held tells nothing new and logs `held`; the last approve tells `ended`', async () => {
    const id = await heldRun();

    const some = await pipeline.cli(['approve', id, '--rows', '1,2'], hookEnv());

    expect(some.code, some.stderr).toBe(5);
    expect(events('ended')).toHaveLength(0);
    expect(events('held')).toHaveLength(1);
    const heldLines = jsonLines(some.stderr).filter((line) => line.msg === `run ${id} held`);
    expect(heldLines).toHaveLength(1);
    expect(heldLines[0]).toMatchObject({ run: id, state: 'held', rows: 4, updated: 2, held: 2 });

    const rest = await pipeline.cli(['approve', id], hookEnv());

    expect(rest.code, rest.stderr).toBe(0);
    const ended = events('ended');
    expect(ended).toHaveLength(1);
    expect(ended[0]?.body).toMatchObject({
      runId: id,
      state: 'done',
      counts: { created: 0, updated: await reportCount(id, 'update'), failed: 0, held: 0 },
    });
    expect(ended[0]?.body.counts).toMatchObject({ updated: 4 });
    expect(jsonLines(rest.stderr).filter((line) => line.msg === `run ${id} done`)).toHaveLength(1);
  });
});
