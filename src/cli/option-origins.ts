import { basename } from 'node:path';
import type { Command } from 'commander';
import type { OptionOrigins, RunFlags } from './run-flags.js';
import { UsageError } from './usage-error.js';

export const FROM_CLI = 'cli';

/** The options given on the command line (Commander's own record of it), by attribute name. */
export function cliOrigins(command: Command): Record<string, string> {
  const origins: Record<string, string> = {};
  for (const option of command.options) {
    const name = option.attributeName();
    if (command.getOptionValueSource(name) === 'cli') origins[name] = FROM_CLI;
  }
  return origins;
}

/** The flag of an option's attribute name: `maxPriceChange` → `--max-price-change`. */
export function flagOf(name: string): string {
  if (name === 'wait') return '--no-wait';
  return `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** Options with a default that Commander fills in: given only when their origin says so. */
const DEFAULTED: ReadonlySet<string> = new Set([
  'fullReadAfter',
  'sourceTimeout',
  'maxRecordBytes',
  'concurrency',
  'dailyReset',
  'keyEnv',
]);

/**
 * An option as a message names it: its flag when the command line gave it (or nothing did), else its
 * job file key and file (`maxPriceChange in nightly.yml`), so the user knows which line to change.
 */
export class OptionNames {
  constructor(
    private readonly flags: RunFlags,
    private readonly origins: OptionOrigins | undefined,
  ) {}

  /** True when the user gave the option (on the command line or in the job file). */
  given(name: keyof RunFlags): boolean {
    if (this.origins) return Object.hasOwn(this.origins, name);
    // A caller that keeps no origins (a test, `npm start`): a default cannot be told from a choice.
    return !DEFAULTED.has(name) && this.flags[name] !== undefined && this.flags[name] !== false;
  }

  /** `--max-price-change`, or `maxPriceChange in nightly.yml`. */
  name(name: keyof RunFlags): string {
    const origin = this.origins?.[name];
    return origin === undefined || origin === FROM_CLI ? flagOf(name) : `${name} in ${origin}`;
  }

  /** With its value as typed: `--only create`, `--fields sku,price`, or `only: create in nightly.yml`. */
  withValue(name: keyof RunFlags, value: string): string {
    const origin = this.origins?.[name];
    if (origin === undefined || origin === FROM_CLI)
      return value === '' ? flagOf(name) : `${flagOf(name)} ${value}`;
    return `${name}: ${value === '' ? 'true' : value} in ${origin}`;
  }

  /**
   * An option to give with `value`, said where the user would give it: where they gave it, else in
   * the job file the run's other options came from (a scheduled import has no command line), else
   * as its flag: `keyEnv: SELLER_API_KEY_SHOP in nightly.yml`, `--key-env SELLER_API_KEY_SHOP`.
   */
  toGive(name: keyof RunFlags, value: string): string {
    const job = Object.values(this.origins ?? {}).find((origin) => origin !== FROM_CLI);
    const origin = this.origins?.[name] ?? job;
    return origin === undefined || origin === FROM_CLI
      ? `${flagOf(name)} ${value}`
      : `${name}: ${value} in ${origin}`;
  }
}

/**
 * Refuses an option given twice on the command line: Commander keeps the last one, and the first is
 * silently dropped (`--fields name --fields price` sent price only). Options that take no value say
 * the same thing twice and are let be. A value is never quoted: `--notify` and `--redis-url` can
 * hold a secret.
 */
export function refuseRepeats(command: Command): Command {
  const seen = new Set<string>();
  for (const option of command.options) {
    if (!option.required && !option.optional) continue;
    const name = option.name();
    command.on(`option:${name}`, () => {
      if (seen.has(name)) {
        const list =
          option.long && LISTS.has(option.attributeName())
            ? ` (a list takes commas: ${option.long} a,b)`
            : '';
        throw new UsageError(
          `${option.long ?? name} is given twice: give it once${list}; the last would silently replace the first`,
        );
      }
      seen.add(name);
    });
  }
  return command;
}

/** The options that take a comma-separated list. */
const LISTS: ReadonlySet<string> = new Set([
  'fields',
  'createOnlyFields',
  'first',
  'keepRemoteEdits',
  'missing',
]);

/** The job file's name as origins record it. */
export function jobOrigin(jobPath: string): string {
  return basename(jobPath);
}
