import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

function capture() {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c) => (stdout += c));
  err.on('data', (c) => (stderr += c));
  return { io: { stdout: out, stderr: err }, text: () => ({ stdout, stderr }) };
}

describe('catalog-sync --help', () => {
  it('lists every command of the README', async () => {
    const { io, text } = capture();
    const code = await main(['node', 'catalog-sync', '--help'], io);
    expect(code).toBe(0);
    for (const command of [
      'run',
      'import',
      'worker',
      'status',
      'report',
      'ping',
      'resume',
      'schedule',
      'dashboard',
      'orders',
      'sandbox',
    ]) {
      expect(text().stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    }
  });

  it('answers an unknown option with exit code 2 and no stack trace', async () => {
    const { io, text } = capture();
    const code = await main(['node', 'catalog-sync', '--no-such-option'], io);
    expect(code).toBe(2);
    expect(text().stderr).toContain("unknown option '--no-such-option'");
    expect(text().stderr).not.toMatch(/\n\s+at /);
  });
});
