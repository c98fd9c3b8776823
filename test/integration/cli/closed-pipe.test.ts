import type { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/project-root.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { assertBuilt, BIN } from '../support/cli.js';

describe('when the reader of standard output stops early (`… | head -1`)', () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    // Enough orders that the export is still writing when `head` has gone.
    sandbox = await startSandbox({
      ordersPerSeller: 5000,
      pageSize: 500,
      keys: [{ key: 'k-pipe', seller: 's' }],
    });
  });
  afterEach(() => sandbox.close());

  it('ends quietly, with no stack trace', async () => {
    assertBuilt();
    const result = await new Promise<ReturnType<typeof spawnSync>>((resolve) => {
      // spawnSync would block the sandbox in this same process: run the pipeline in a shell, async.
      import('node:child_process').then(({ spawn }) => {
        const child = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" orders export | head -1`], {
          cwd: projectRoot(),
          env: {
            ...process.env,
            SELLER_API_BASE_URL: sandbox.baseUrl,
            SELLER_API_KEY: 'k-pipe',
            LOG_LEVEL: 'silent',
          },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('exit', (status) => resolve({ status, stdout, stderr } as ReturnType<typeof spawnSync>));
      });
    });
    expect(String(result.stdout).trim()).toBe('id,status,currency,total,lines,created_at');
    expect(String(result.stderr)).not.toMatch(/EPIPE|\n\s+at /);
  });
});
