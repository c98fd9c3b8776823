import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadMappingFile } from '../../../src/catalog/mapping-file.js';
import { applyJob, parseJob } from '../../../src/cli/job-file.js';
import type { RunFlags } from '../../../src/cli/run-flags.js';
import { addRunOptions } from '../../../src/cli/run-options.js';

const PATH = '/srv/shop/jobs/n1.yml';

function flagsOf(args: string[], line: string): RunFlags {
  const command = addRunOptions(new Command('run').argument('[source]').exitOverride(), 'run');
  command.parse(args, { from: 'user' });
  const job = parseJob(`source: a.csv\n${line}\n`, PATH);
  return applyJob(command, command.opts<RunFlags>(), job, PATH, {}).flags;
}

// `mapping: maps/de.yml` in a job file was refused as `de.yml: fields.quantiy: …`: which de.yml?
describe("a mapping file's name in its errors", () => {
  it("is a job file's path as written there, read from the project folder", () => {
    const flags = flagsOf([], 'mapping: maps/de.yml');
    expect(flags.mapping).toBe('/srv/shop/maps/de.yml');
    expect(flags.mappingAsWritten).toBe('maps/de.yml');
  });

  it("is the flag's own where --mapping overrides the job file's", () => {
    const flags = flagsOf(['--mapping', 'other/fr.yml'], 'mapping: maps/de.yml');
    expect(flags.mapping).toBe('other/fr.yml');
    expect(flags.mappingAsWritten).toBeUndefined();
  });

  it('names the file by the path given, or the one the user wrote', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mapping-'));
    await mkdir(join(dir, 'maps'));
    const path = join(dir, 'maps', 'de.yml');
    await writeFile(path, 'fields:\n  quantiy: Stock\n');
    await expect(loadMappingFile(path)).rejects.toThrow(new RegExp(`^${path}: fields\\.quantiy: `));
    await expect(loadMappingFile(path, undefined, 'maps/de.yml')).rejects.toThrow(
      /^maps\/de\.yml: fields\.quantiy: no product field is named so/,
    );
    await expect(loadMappingFile(join(dir, 'maps', 'none.yml'), undefined, 'maps/none.yml')).rejects.toThrow(
      /^maps\/none\.yml: cannot read the mapping file \(ENOENT\)$/,
    );
  });
});
