import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf, waitUntilDone } from '../support/cli.js';
import { MAIN_KEY, usePipeline } from '../support/pipeline.js';

/** The JSON log lines of a process's stderr (what a log collector reads). */
function jsonLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('log lines a person or a collector reads', () => {
  const pipeline = usePipeline();

  it('`run` without a terminal ends with one JSON summary line: run id, state and counts', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(5));
    const run = pipeline.spawn(['run', source], { LOG_LEVEL: 'info' });

    expect(await run.exited).toEqual({ code: 0, signal: null });
    const lines = jsonLines(run.stderr());
    const summary = lines.at(-1);
    expect(summary).toMatchObject({
      msg: 'run summary',
      run: runIdOf(run.stdout()),
      state: 'done',
      exitCode: 0,
      rows: 5,
      created: 5,
      failed: 0,
    });
    expect(String(summary?.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(lines.filter((line) => line.msg === 'run summary')).toHaveLength(1);
    expect(run.stderr()).not.toContain(MAIN_KEY);
  });

  it('a `worker` logs one line when it starts a run and one when it ends it, with its counts', async () => {
    const imported = await pipeline.cli(['import', await pipeline.csv('catalog.csv', catalogRows(150))]);
    const runId = runIdOf(imported.stdout);
    const worker = pipeline.spawn(['worker'], { LOG_LEVEL: 'info' });

    await waitUntilDone(pipeline.cli, runId);
    await worker.waitForStderr(new RegExp(`"msg":"run ${runId} done"`));

    const lines = jsonLines(worker.stderr()).filter((line) => line.run === runId);
    const started = lines.filter((line) => line.msg === `run ${runId} started`);
    expect(started).toHaveLength(1);
    // Its plan against the daily limit (issue 14): one request per row at most, plus the list read.
    expect(started[0]?.plan).toMatch(
      /^plan {6}up to 151 requests; the daily limit is not known \(--daily-budget N tells it\)$/,
    );
    const ended = lines.filter((line) => line.msg === `run ${runId} done`);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ state: 'done', rows: 150, created: 150, failed: 0, invalid: 0 });
    expect(worker.stderr()).not.toContain(MAIN_KEY);
  });

  it('LOG_FORMAT=pretty writes readable lines instead, without a control character', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(3));
    const run = pipeline.spawn(['run', source], { LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });

    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.stderr()).toMatch(/^\[\d{4}-\d\d-\d\dT[\d:.]+Z\] INFO: run summary \{.*"state":"done"/m);
    expect(jsonLines(run.stderr())).toEqual([]);
    expect(run.stderr()).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });
});
