import { editDistance } from '../catalog/field-names.js';

/**
 * The name among `known` that a mistyped `name` was most likely meant to be, by commander's rule for
 * a mistyped option (at most 2 edits, and more alike than not), or null: a job file key, a job's
 * name in the jobs folder, a preset. So a job file, `--job` and the command line answer a typo alike.
 */
export function nearestName(name: string, known: Iterable<string>): string | null {
  let nearest: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    const longest = Math.max(name.length, candidate.length);
    const alike = (longest - distance) / longest;
    if (distance <= 2 && alike > 0.4 && (nearest === null || distance < nearest.distance))
      nearest = { name: candidate, distance };
  }
  return nearest?.name ?? null;
}
