import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { beforeEach, describe, expect, it } from 'vitest';
import { usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

/** The schedulers in Redis, as `id → pattern and data`. */
async function schedulers(prefix: string) {
  return withRedis(async (connection) => {
    const queue = new Queue('scheduled-imports', { connection, prefix });
    try {
      const found = await queue.getJobSchedulers(0, -1, true);
      return Object.fromEntries(
        found.map((s) => [s.key, { pattern: s.pattern, tz: s.tz, data: s.template?.data, next: s.next }]),
      );
    } finally {
      await queue.close();
    }
  });
}

/** The table's lines as cells, by job name. */
function tableRows(stdout: string): Record<string, string[]> {
  const lines = stdout.trim().split('\n');
  expect(lines[0]).toMatch(/^job\s+cron \(UTC\)\s+next run\s+source\s+change$/);
  return Object.fromEntries(
    lines
      .slice(1)
      .filter((line) => !line.startsWith('(') && !line.startsWith('not scheduled'))
      .map((line) => {
        const cells = line.split(/ {2,}/);
        return [cells[0] as string, cells];
      }),
  );
}

describe('`catalog-sync schedule`', () => {
  const pipeline = usePipeline();
  let jobsDir: string;
  const job = (name: string, text: string) => writeFile(join(jobsDir, name), text, 'utf8');
  const schedule = (...args: string[]) => pipeline.cli(['schedule', '--jobs', jobsDir, ...args]);

  beforeEach(async () => {
    jobsDir = join(pipeline.dir, 'jobs');
    await mkdir(jobsDir);
    await job('nightly.yml', 'source: catalog.csv\nschedule: "0 2 * * *"\n');
    await job(
      'feed.json',
      '{ "source": "https://feeds.example.com/f.xml?token=s3cret", "schedule": "*/15 * * * *" }',
    );
    await job('by-hand.yaml', 'source: manual.csv\n');
  });

  describe('on a fresh Redis', () => {
    it('registers one UTC scheduler per job file with a schedule, carrying only the job name (never a folder: workers read their own)', async () => {
      const result = await schedule();

      expect(result.code).toBe(0);
      expect(await schedulers(pipeline.prefix)).toEqual({
        'job:nightly': {
          pattern: '0 2 * * *',
          tz: 'UTC',
          data: { job: 'nightly' },
          next: expect.any(Number),
        },
        'job:feed': {
          pattern: '*/15 * * * *',
          tz: 'UTC',
          data: { job: 'feed' },
          next: expect.any(Number),
        },
      });
    });

    it('lists each with its cron, next run in UTC, source and "added", and names the files it skipped', async () => {
      const result = await schedule();

      const rows = tableRows(result.stdout);
      expect(Object.keys(rows).sort()).toEqual(['feed', 'nightly']);
      const [, cron, next, source, change] = rows.nightly as string[];
      expect({ cron, source, change }).toEqual({
        cron: '0 2 * * *',
        source: 'catalog.csv',
        change: 'added',
      });
      expect(next).toMatch(/^\d{4}-\d\d-\d\dT02:00:00Z$/);
      expect(new Date(next as string).getTime()).toBeGreaterThan(Date.now());
      expect(rows.feed?.[3]).toBe('https://feeds.example.com/f.xml');
      expect(result.stdout).not.toContain('s3cret');
      expect(result.stdout).toMatch(/^not scheduled \(no schedule:\): by-hand\.yaml$/m);
    });
  });

  it('reports every scheduler unchanged when run again, and leaves its next run as it was', async () => {
    await schedule();
    const before = await schedulers(pipeline.prefix);

    const again = await schedule();

    expect(again.code).toBe(0);
    expect(Object.values(tableRows(again.stdout)).map((cells) => cells[4])).toEqual([
      'unchanged',
      'unchanged',
    ]);
    expect(await schedulers(pipeline.prefix)).toEqual(before);
  });

  it('reports a job whose cron was edited as updated, and fires it at the new time', async () => {
    await schedule();
    await job('nightly.yml', 'source: catalog.csv\nschedule: "30 4 * * *"\n');

    const result = await schedule();

    expect(tableRows(result.stdout).nightly?.slice(1, 2)).toEqual(['30 4 * * *']);
    expect(tableRows(result.stdout).nightly?.[4]).toBe('updated');
    expect(tableRows(result.stdout).feed?.[4]).toBe('unchanged');
    const nightly = (await schedulers(pipeline.prefix))['job:nightly'];
    expect(nightly?.pattern).toBe('30 4 * * *');
    expect(new Date(nightly?.next as number).toISOString()).toMatch(/T04:30:00\.000Z$/);
  });

  it.each([
    ['deleted', () => rm(join(jobsDir, 'nightly.yml'))],
    ['left without a schedule', () => job('nightly.yml', 'source: catalog.csv\n')],
  ])('removes the scheduler of a job file %s, as stale', async (_, change) => {
    await schedule();
    await change();

    const result = await schedule();

    expect(result.code).toBe(0);
    expect(tableRows(result.stdout).nightly).toEqual(['nightly', '0 2 * * *', '-', '-', 'removed']);
    expect(Object.keys(await schedulers(pipeline.prefix))).toEqual(['job:feed']);
  });

  it('with --dry-run, prints what it would do and changes nothing', async () => {
    await schedule();
    await rm(join(jobsDir, 'nightly.yml'));
    await job('weekly.yml', 'source: catalog.csv\nschedule: "0 3 * * 1"\n');
    const before = await schedulers(pipeline.prefix);

    const result = await schedule('--dry-run');

    expect(result.code).toBe(0);
    const rows = tableRows(result.stdout);
    expect([rows.weekly?.[4], rows.feed?.[4], rows.nightly?.[4]]).toEqual([
      'to add',
      'unchanged',
      'to remove',
    ]);
    expect(result.stdout).toContain('(dry run: nothing was changed)');
    expect(await schedulers(pipeline.prefix)).toEqual(before);
  });

  describe('when a job file is invalid', () => {
    it.each([
      [
        'a cron field out of range',
        'schedule: "61 * * * *"',
        /^catalog-sync: broken\.yml: schedule: "61 \* \* \* \*" is not a cron pattern: .+\n$/,
      ],
      [
        'too few cron fields',
        'schedule: "0 2 *"',
        /^catalog-sync: broken\.yml: schedule: "0 2 \*" is not a cron pattern: it takes 5 fields .+\n$/,
      ],
      [
        'an empty schedule',
        'schedule: ""',
        /^catalog-sync: broken\.yml: schedule: "" is not a cron pattern: .+\n$/,
      ],
      ['an unknown key', 'schedul: "0 2 * * *"', /^catalog-sync: broken\.yml: .*schedul.*\n$/],
    ])(
      'with %s: exits 2 with one line naming the file and key, and changes nothing',
      async (_, line, message) => {
        await schedule();
        const before = await schedulers(pipeline.prefix);
        await rm(join(jobsDir, 'nightly.yml'));
        await job('weekly.yml', 'source: catalog.csv\nschedule: "0 3 * * 1"\n');
        await job('broken.yml', `source: catalog.csv\n${line}\n`);

        const result = await schedule();

        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(message);
        expect(result.stdout).toBe('');
        expect(await schedulers(pipeline.prefix)).toEqual(before);
      },
    );

    it('refuses a scheduled job that reads standard input', async () => {
      await job('stdin.yml', 'source: "-"\nschedule: "0 2 * * *"\n');

      const result = await schedule();

      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'catalog-sync: stdin.yml: source: a scheduled import cannot read standard input (-)\n',
      );
      expect(await schedulers(pipeline.prefix)).toEqual({});
    });
  });

  it('refuses a scheduled job whose file name is no job name ([A-Za-z0-9._-]+), showing it escaped', async () => {
    await job('night ly\x1b[2J.yml', 'source: catalog.csv\nschedule: "0 2 * * *"\n');

    const result = await schedule();

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "catalog-sync: night ly\\x1b[2J.yml: a scheduled job's name (its file name) may hold letters, digits, . _ and - only: rename the file\n",
    );
    expect(await schedulers(pipeline.prefix)).toEqual({});
  });

  it('refuses a jobs folder that does not exist rather than drop every scheduler', async () => {
    await schedule();

    const result = await pipeline.cli(['schedule', '--jobs', join(pipeline.dir, 'no-such-folder')]);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^catalog-sync: --jobs .*no-such-folder: no such folder .*\n$/);
    expect(Object.keys(await schedulers(pipeline.prefix)).sort()).toEqual(['job:feed', 'job:nightly']);
  });
});
