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

  it('an unknown command: --help lists the commands, not the options', async () => {
    const { io, text } = capture();
    const code = await main(['node', 'catalog-sync', 'rn'], io);
    expect(code).toBe(2);
    expect(text().stderr).toBe(
      "catalog-sync: unknown command 'rn' (Did you mean run?) (--help lists the commands)\n",
    );
  });

  it.each(['run', 'import', 'worker', 'status', 'sandbox', 'schedule', 'products export', 'revert'])(
    '`%s --help`: one default per option',
    async (command) => {
      const { io, text } = capture();
      await main(['node', 'catalog-sync', ...command.split(' '), '--help'], io);
      // An option's entry: from its flags to the next line that starts another.
      const entries = text().stdout.split(/\n(?= {2}-)/);
      for (const entry of entries)
        expect(entry.match(/\(default\b/g)?.length ?? 0, entry).toBeLessThanOrEqual(1);
      expect(text().stdout).not.toContain('(default: [])');
    },
  );

  it.each(['orders export', 'products export'])(
    '`%s --help`: --format names ndjson and its alias jsonl',
    async (command) => {
      const { io, text } = capture();
      await main(['node', 'catalog-sync', ...command.split(' '), '--help'], io);
      const entry =
        text()
          .stdout.split(/\n(?= {2}-)/)
          .find((e) => e.trimStart().startsWith('--format')) ?? '';
      expect(entry).toMatch(/csv or ndjson \(alias: jsonl\)/);
    },
  );
});
