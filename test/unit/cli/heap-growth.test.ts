import { describe, expect, it } from 'vitest';
import { heapGrowthFlag } from '../../../src/cli/heap-growth.js';
import { HEAP_GROWING_PERCENT } from '../../../src/defaults.js';
import { launcherWithPreload } from './launch-with-preload.js';

describe('heapGrowthFlag', () => {
  it('limits the heap growth between full collections', () => {
    expect(heapGrowthFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--enable-source-maps', '--max-old-space-size=512'])).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it("leaves the operator's own setting alone, in either spelling", () => {
    expect(heapGrowthFlag(['--heap-growing-percent=0'])).toBeNull();
    expect(heapGrowthFlag(['--heap_growing_percent=80'])).toBeNull();
  });
});

/**
 * The launcher as a user runs it, with a preload that records what is asked of V8.
 */
describe('bin/catalog-sync.js', () => {
  const launchWith = launcherWithPreload([
    "const v8 = require('node:v8');",
    'const set = v8.setFlagsFromString;',
    'v8.setFlagsFromString = (flags) => {',
    "  process.stderr.write('V8-FLAGS ' + flags + '\\n');",
    '  return set(flags);',
    '};',
    "require('node:module').syncBuiltinESMExports();",
  ]);

  async function launch(nodeFlags: string[]): Promise<string> {
    const { stdout, stderr } = await launchWith(['--version'], nodeFlags);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
    return stderr;
  }

  it('sets the heap growth before the CLI runs', async () => {
    expect(await launch([])).toContain(`V8-FLAGS --heap-growing-percent=${HEAP_GROWING_PERCENT}\n`);
  });

  it('keeps the growth the operator gave node', async () => {
    expect(await launch(['--heap-growing-percent=60'])).not.toContain('V8-FLAGS');
  });
});
