import { Columns, normaliseColumn } from './columns.js';
import type { Preset } from './types.js';

/** One lookup of a preset: the names (normalised, or patterns) of which the first present is read. */
export type Lookup = readonly (string | RegExp)[];

/** Columns that note every lookup a preset makes of them, for what it reads (misspelt-columns.ts). */
class AskedColumns extends Columns {
  readonly lookups: Lookup[] = [];

  override find(...candidates: (string | RegExp)[]): string | undefined {
    this.lookups.push(candidates);
    return super.find(...candidates);
  }

  override has(name: string): boolean {
    this.lookups.push([name]);
    return super.has(name);
  }
}

/**
 * Every lookup `preset` makes of `columns`, asked of its own row mapper (a table kept beside it
 * could say otherwise than it reads). Every preset looks its columns up as its row mapper is made
 * (the time it is given is no matter then); one that throws has looked up what it had by then.
 */
export function presetLookups(preset: Pick<Preset, 'create'>, columns: readonly string[]): Lookup[] {
  const asked = new AskedColumns(columns);
  try {
    preset.create(asked, { now: 0 });
  } catch {
    // What it looked up before it threw is what it reads.
  }
  return asked.lookups;
}

/** `column` is read by `lookup`: one of its names, in the forms a preset forgives, or a pattern's match. */
export function lookupReads(lookup: Lookup, column: string): boolean {
  const name = normaliseColumn(column);
  return lookup.some((candidate) =>
    typeof candidate === 'string' ? candidate.toLowerCase() === name : candidate.test(name),
  );
}
