import type { Redis } from 'ioredis';

/**
 * Calls per command from `INFO commandstats` (commands run inside scripts included, as Redis counts
 * them): how much of a server's work a measured stretch took, read by benchmarks and counter tests
 * on a server of their own.
 */
export function parseCommandCalls(info: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    calls.set(match[1] ?? '', Number(match[2]));
  }
  return calls;
}

export async function commandCalls(redis: Redis): Promise<Map<string, number>> {
  return parseCommandCalls(await redis.info('commandstats'));
}

/**
 * The commands of a stretch, from counts read before and after it, less `ownInfoCalls`: the INFO
 * calls the measurer made itself in between (the INFO that read `before` counts in `after`).
 */
export function commandsBetween(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  ownInfoCalls: number,
): Map<string, number> {
  const commands = new Map<string, number>();
  for (const [name, calls] of after) {
    const delta = calls - (before.get(name) ?? 0) - (name === 'info' ? ownInfoCalls : 0);
    if (delta > 0) commands.set(name, delta);
  }
  return commands;
}

export const totalCommands = (commands: ReadonlyMap<string, number>) =>
  [...commands.values()].reduce((a, b) => a + b, 0);
