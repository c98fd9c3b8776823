import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/project-root.js';

const MODULE = pathToFileURL(join(projectRoot(), 'dist', 'src', 'cli', 'exit-after-flush.js')).href;

/**
 * A process that writes `bytes` to stdout, then ends as `ending` says, read through a pipe by a reader
 * that waits a moment before it reads (as `| wc -l` behind a busy machine): what the reader got, and
 * the exit code.
 */
async function throughPipe(
  bytes: number,
  ending: string,
): Promise<{ received: number; code: number | null }> {
  const script = `import { exitAfterFlush } from '${MODULE}';\nprocess.stdout.write('x'.repeat(${bytes}));\n${ending}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.pause();
  await new Promise((resolve) => setTimeout(resolve, 300));
  let received = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    received += chunk.length;
  });
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { received, code };
}

describe('exitAfterFlush', () => {
  it('ends the process with its code once a large write to a pipe has been read whole', async () => {
    expect(await throughPipe(3_000_000, 'await exitAfterFlush(3);')).toEqual({
      received: 3_000_000,
      code: 3,
    });
  });
});
