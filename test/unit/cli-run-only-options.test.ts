import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/** The CLI in this process; nothing here reaches Redis or a network (the refusals come first). */
async function cli(...args: string[]) {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (chunk) => (stdout += chunk));
  err.on('data', (chunk) => (stderr += chunk));
  const code = await main(['node', 'catalog-sync', ...args], {
    stdout: out,
    stderr: err,
    env: { REDIS_URL: 'redis://127.0.0.1:1' },
  });
  return { code, stdout, stderr };
}

const RUN_ONLY = [['--report', 'out.csv'], ['--no-wait'], ['--sandbox']];

describe('`import` takes only its own options', () => {
  it('refuses --concurrency (it sends no request: the worker has its own)', async () => {
    const result = await cli('import', 'catalog.csv', '--concurrency', '4');

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'catalog-sync: --concurrency is an option of `run` and `worker`: `import` sends no request: give it to the `worker` that serves the run\n',
    );
  });

  it.each(RUN_ONLY)('refuses %s (an option of `run`) with one line and exit 2', async (...option) => {
    const result = await cli('import', 'catalog.csv', ...option);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(`^catalog-sync: ${option[0]} is an option of \`run\` only: .+\\n$`),
    );
  });

  it('does not show them in `import --help`; `run --help` does', async () => {
    const importHelp = await cli('import', '--help');
    const runHelp = await cli('run', '--help');

    expect(importHelp.code).toBe(0);
    for (const [flag] of [...RUN_ONLY, ['--concurrency']]) {
      expect(importHelp.stdout).not.toContain(flag);
      expect(runHelp.stdout).toContain(flag);
    }
    expect(importHelp.stdout).toContain('--preset');
  });
});

describe('`cancel --help`', () => {
  it('says what becomes of a run a live worker is working on', async () => {
    const help = await cli('cancel', '--help');

    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/chunk\s+in progress finishes its rows/);
  });
});
